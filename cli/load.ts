/**
 * Loading what the service would serve, for the commands that do not listen. The check itself is
 * the kernel's (kernel/inspect-config.ts), shared with `serve`, so `config check` names exactly the
 * problems `serve` would refuse to start with.
 */
import type { Config } from '../kernel/config.js';
import { loadForServing } from '../kernel/inspect-config.js';
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
