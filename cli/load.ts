/**
 * Loading what the service would serve, for the commands that do not listen: the configuration as
 * `serve` reads it, the plugins as the server discovers them, the registry as it builds it. Every
 * problem is collected, not just the first, so `config check` can name them all at once.
 */
import type { ErrorDetail } from '@toolshed/plugin-sdk';
import { checkCoreConfig, ConfigError, coreSections, defaultsFile, readConfig, type Config } from '../kernel/config.js';
import { discoverPlugins, PluginLoadError, type LoadedPlugin } from '../kernel/discover.js';
import { buildRegistry, type Registry } from '../kernel/registry.js';
import { builtinPluginDir } from '../kernel/server.js';


/** `env` with `file` in TOOLSHED_CONFIG when one is given (an argument beats the variable). */
export function withConfigFile(env: NodeJS.ProcessEnv, file: string | undefined): NodeJS.ProcessEnv {
  return file === undefined ? env : { ...env, TOOLSHED_CONFIG: file };
}

/** The configuration the service would start with, and everything that would stop it. */
export interface Inspection {
  /** The kernel's sections with defaults filled; plugin sections as the files give them. */
  readonly config: Config;
  /** Every problem; empty when the service would start. */
  readonly problems: readonly ErrorDetail[];
  /** What the service would mount; undefined when the problems leave nothing to build. */
  readonly registry?: Registry;
}

function sameProblem(a: ErrorDetail, b: ErrorDetail): boolean {
  return a.path === b.path && a.message === b.message;
}

/** The configuration problems `buildRegistry` finds, or the registry when there are none. */
function registryOrProblems(loaded: readonly LoadedPlugin[], config: Config): Registry | ErrorDetail[] {
  try {
    return buildRegistry(loaded, config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [...error.problems];
  }
}

/** Every problem the plugins find in `config`: their sections, unknown keys, unknown group names. */
function pluginProblems(loaded: readonly LoadedPlugin[], config: Config): Registry | ErrorDetail[] {
  const first = registryOrProblems(loaded, config);
  if (!Array.isArray(first)) return first;
  // buildRegistry stops at its first kind of problem (plugin sections, then unknown group names).
  // Built again with only the kernel's sections, every plugin section takes its defaults, so the
  // second kind shows too.
  const coreOnly = Object.fromEntries(Object.entries(config).filter(([key]) => coreSections.has(key))) as Config;
  const second = registryOrProblems(loaded, coreOnly);
  if (!Array.isArray(second)) return first;
  return [...first, ...second.filter((problem) => !first.some((known) => sameProblem(known, problem)))];
}

/**
 * Reads the configuration for `env` as `serve` does and checks all of it: the kernel's sections,
 * then (when the `plugins` section is usable) every plugin's. Throws only when a file cannot be read.
 */
export async function inspectConfig(env: NodeJS.ProcessEnv): Promise<Inspection> {
  const { config, problems } = checkCoreConfig(await readConfig(env, defaultsFile));
  // A broken `plugins` section says nothing about where plugins are; it is reported already.
  if (problems.some((problem) => problem.path === '/plugins' || problem.path.startsWith('/plugins/'))) return { config, problems };
  let loaded: LoadedPlugin[];
  try {
    loaded = await discoverPlugins({ builtinDir: builtinPluginDir, dirs: config.plugins.dirs, packages: config.plugins.packages });
  } catch (error) {
    if (!(error instanceof PluginLoadError)) throw error;
    // Its own list of reasons is indented under it, apart from the list of problems.
    return { config, problems: [...problems, { path: '/plugins', message: error.message.replaceAll('\n', '\n  ') }] };
  }
  const found = pluginProblems(loaded, config);
  if (Array.isArray(found)) return { config, problems: [...problems, ...found] };
  return { config, problems, registry: found };
}

/** The registry the service would serve for `env`; throws ConfigError naming every problem. */
export async function loadRegistry(env: NodeJS.ProcessEnv): Promise<{ config: Config; registry: Registry }> {
  const { config, problems, registry } = await inspectConfig(env);
  if (problems.length > 0 || registry === undefined) throw new ConfigError(problems);
  return { config, registry };
}

/**
 * The groups the service would load for `env`, each with where it comes from ("built in (<file>)",
 * a folder's index.js, "package <name>"). When the configuration or a configured plugin cannot be
 * loaded, the built-in groups alone: those are there whatever the configuration says.
 */
export async function takenGroups(env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  let loaded: LoadedPlugin[];
  try {
    const { config, problems } = checkCoreConfig(await readConfig(env, defaultsFile));
    if (problems.length > 0) throw new ConfigError(problems);
    loaded = await discoverPlugins({ builtinDir: builtinPluginDir, dirs: config.plugins.dirs, packages: config.plugins.packages });
  } catch {
    loaded = await discoverPlugins({ builtinDir: builtinPluginDir, dirs: [], packages: [] });
  }
  return new Map(loaded.map(({ plugin, origin, source }) => [plugin.group, origin === 'built-in' ? `the built-in plugin ${source}` : source]));
}
