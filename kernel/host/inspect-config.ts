/**
 * Everything that would stop the service from starting, collected at once: the one check `serve`
 * and `toolshed config check` share, so both name the same problems in the same words. The
 * configuration as `serve` reads it, the plugins as the server discovers them, the registry as it
 * builds it.
 */
import type { ErrorDetail } from '@toolshed/plugin-sdk';
import type { HostExtensions } from './composite.js';
import { checkCoreConfig, ConfigError, defaultsFile, pluginLoadProblem, readConfig, type Config } from './config.js';
import { builtinPluginDir, discoverPlugins, PluginLoadError, type LoadedPlugin } from './discover.js';
import { listingExecutor } from './host.js';
import { createLogger } from './logger.js';
import { buildRegistry, type Registry } from './registry.js';

/** The configuration the service would start with, and everything that would stop it. */
export interface Inspection {
  /** The kernel's sections with defaults filled; plugin sections as the files give them. */
  readonly config: Config;
  /** Every problem; empty when the service would start. */
  readonly problems: readonly ErrorDetail[];
  /** The plugins found and what the service would mount; undefined when there are problems. */
  readonly plugins?: { readonly loaded: readonly LoadedPlugin[]; readonly registry: Registry };
}

/**
 * Reads the configuration for `env` as `serve` does and checks all of it: the kernel's sections,
 * then (when the `plugins` section is usable) that every plugin loads, every plugin section, keys
 * no one owns, the group names and patterns, and the sections the front doors own (`extensions`). `extra` are single plugins served besides the
 * configured ones (`toolshed plugin dev`). Throws only when a file cannot be read or parsed.
 */
export async function inspectConfig(env: NodeJS.ProcessEnv, builtinDir: string = builtinPluginDir, extra: readonly string[] = [], extensions: HostExtensions = {}): Promise<Inspection> {
  const { config, problems } = checkCoreConfig(await readConfig(env, defaultsFile));
  // A broken `plugins` section says nothing about where plugins are; it is reported already.
  if (problems.some((problem) => problem.path === '/plugins' || problem.path.startsWith('/plugins/'))) return { config, problems };
  let loaded: LoadedPlugin[];
  try {
    loaded = await discoverPlugins({ builtinDir, dirs: config.plugins.dirs, packages: config.plugins.packages, plugins: extra, trusted: config.plugins.trusted, user: config.plugins.user });
  } catch (error) {
    if (!(error instanceof PluginLoadError)) throw error;
    // Its own list of reasons is indented under it, apart from the list of problems.
    return { config, problems: [...problems, pluginLoadProblem(error.message.replaceAll('\n', '\n  '))] };
  }
  try {
    const registry = buildRegistry(loaded, config, extensions);
    if (problems.length > 0) return { config, problems };
    // The front doors' sections (saved recipes) are checked against the operations, as the host will.
    listingExecutor(config, registry, createLogger('silent'), extensions);
    return { config, problems, plugins: { loaded, registry } };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { config, problems: [...problems, ...error.problems] };
  }
}

/** What {@link inspectConfig} found when nothing stops the start; throws ConfigError naming every problem. */
export async function loadForServing(env: NodeJS.ProcessEnv, builtinDir?: string, extra: readonly string[] = [], extensions: HostExtensions = {}): Promise<Required<Inspection>> {
  const { config, problems, plugins } = await inspectConfig(env, builtinDir, extra, extensions);
  if (problems.length > 0 || plugins === undefined) throw new ConfigError(problems);
  return { config, problems, plugins };
}
