/**
 * Loading what the service would serve, for the commands that do not listen. The check itself is
 * the kernel's (kernel/inspect-config.ts), shared with `serve`, so `config check` names exactly the
 * problems `serve` would refuse to start with.
 */
import { checkCoreConfig, ConfigError, defaultsFile, readConfig, type Config } from '../kernel/config.js';
import { discoverPlugins, type LoadedPlugin } from '../kernel/discover.js';
import { loadForServing } from '../kernel/inspect-config.js';
import { builtinPluginDir } from '../kernel/server.js';
import type { Registry } from '../kernel/registry.js';

export { inspectConfig, type Inspection } from '../kernel/inspect-config.js';

/** `env` with `file` in TOOLSHED_CONFIG when one is given (an argument beats the variable). */
export function withConfigFile(env: NodeJS.ProcessEnv, file: string | undefined): NodeJS.ProcessEnv {
  return file === undefined ? env : { ...env, TOOLSHED_CONFIG: file };
}

/** The registry the service would serve for `env`; throws ConfigError naming every problem. */
export async function loadRegistry(env: NodeJS.ProcessEnv): Promise<{ config: Config; registry: Registry }> {
  const { config, plugins } = await loadForServing(env);
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
