/**
 * Loading what the service would serve, for the commands that do not listen. The check itself is
 * the kernel's (kernel/host/inspect-config.ts), shared with `serve`, so `config check` names exactly the
 * problems `serve` would refuse to start with.
 */
import {
  builtinPluginDir,
  checkCoreConfig,
  type Config,
  ConfigError,
  createLogger,
  defaultsFile,
  discoverPlugins,
  type Host,
  inspectConfig as inspectKernelConfig,
  type Inspection,
  listingExecutor,
  type LoadedPlugin,
  loadForServing,
  type Logger,
  openHost,
  type OperationInfo,
  readConfig,
  type Registry,
} from '../kernel/host/index.js';
import { extensions } from '../service/extensions.js';

export type { Inspection } from '../kernel/host/index.js';

/** Everything that would stop the service from starting for `env`, the front doors' sections (saved recipes) included. */
export function inspectConfig(env: NodeJS.ProcessEnv, builtinDir?: string, extra: readonly string[] = []): Promise<Inspection> {
  return inspectKernelConfig(env, builtinDir, extra, extensions);
}

/** The host the service would open (its composite operations, recipes, included), for a command that runs operations. */
export function openServiceHost(config: Config, registry: Registry, logger: Logger): Promise<Host> {
  return openHost({ config, registry, logger, extensions });
}

/** Every operation the service would serve (plugins' and composites'), in its order, without opening a host. */
export function servedOperations(config: Config, registry: Registry): readonly OperationInfo[] {
  return listingExecutor(config, registry, createLogger('silent'), extensions).operations();
}

/** `env` with `file` in TOOLSHED_CONFIG when one is given (an argument beats the variable). */
export function withConfigFile(env: NodeJS.ProcessEnv, file: string | undefined): NodeJS.ProcessEnv {
  return file === undefined ? env : { ...env, TOOLSHED_CONFIG: file };
}

/** The registry the service would serve for `env`; throws ConfigError naming every problem. */
export async function loadRegistry(env: NodeJS.ProcessEnv): Promise<{ config: Config; registry: Registry }> {
  const { config, plugins } = await loadForServing(env, undefined, [], extensions);
  return { config, registry: plugins.registry };
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
