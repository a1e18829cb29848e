/** `toolshed config check` and `config print`: the configuration as the service would run with it. */
import { type Config, ConfigError, coreSections, type Registry, stringifyYaml } from '../kernel/host/index.js';
import { extensions } from '../service/extensions.js';
import { write, EXIT, type CliIo } from './command.js';
import { inspectConfig, loadRegistry, withConfigFile } from './load.js';

/** What a secret is printed as. */
export const MASK = '…';

/**
 * Prints every problem of the configuration (stdout), or a one-line summary when there is none.
 * `connect`: then also tries the Redis of `rateLimit.redis.url` as the service would count there;
 * one that does not answer is a problem too.
 */
export async function checkConfig(file: string | undefined, io: CliIo, connect = false): Promise<number> {
  const { config, problems, plugins } = await inspectConfig(withConfigFile(io.env, file));
  if (problems.length > 0 || plugins === undefined) {
    await write(io.stdout, `${new ConfigError(problems).message}\n`);
    return EXIT.refused;
  }
  const connection = connect ? await tryConnections(config) : undefined;
  if (connection !== undefined && 'problem' in connection) {
    await write(io.stdout, `${new ConfigError([connection.problem]).message}\n`);
    return EXIT.refused;
  }
  const { registry } = plugins;
  const source = io.env.TOOLSHED_CONFIG && file === undefined ? io.env.TOOLSHED_CONFIG : (file ?? 'the defaults');
  await write(io.stdout, `The configuration is valid (${source}): ${registry.plugins.length} plugins, ${registry.operations.size} operations enabled.\n${connection?.line ?? ''}`);
  return EXIT.ok;
}

/** What `config check --connect` found: a line to add, or the problem to report. */
async function tryConnections(config: Config): Promise<{ line: string } | { problem: { path: string; message: string } }> {
  const url = config.rateLimit.redis.url;
  if (url === undefined) return { line: 'Nothing to connect to: rateLimit.redis.url is unset, so each instance counts its own rate limits.\n' };
  const { tryRedis } = await import('../kernel/http/index.js');
  try {
    await tryRedis(url);
  } catch (error) {
    // ioredis's reasons ("connect ECONNREFUSED 127.0.0.1:6379", "WRONGPASS ...") never hold the URL.
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: { path: '/rateLimit/redis/url', message: `Redis at ${withoutPassword(url)} does not answer as the service needs it (${reason})` } };
  }
  return { line: `Redis at ${withoutPassword(url)} answers and runs the rate-limit script: the service will count there.\n` };
}

/** Prints the merged configuration as YAML, with every default filled and secrets masked. */
export async function printConfig(file: string | undefined, io: CliIo): Promise<number> {
  const { config, registry } = await loadRegistry(withConfigFile(io.env, file));
  await write(io.stdout, stringifyYaml(masked(withPluginDefaults(config, registry))));
  return EXIT.ok;
}

/**
 * The kernel's sections, the front doors' (saved recipes) as given, and each enabled plugin's
 * section as the plugin resolved it (its defaults filled); a disabled plugin's section
 * (config/default.yaml has one for every built-in with settings) is left out, since nothing reads it.
 */
function withPluginDefaults(config: Config, registry: Registry): Config {
  const enabled = new Set(registry.plugins.flatMap((plugin) => (plugin.config === undefined ? [] : [plugin.config.section])));
  const doors = new Set(extensions.sections ?? []);
  const resolved: Record<string, unknown> = Object.fromEntries(Object.entries(config).filter(([key]) => coreSections.has(key) || doors.has(key) || enabled.has(key)));
  for (const plugin of registry.plugins) {
    if (plugin.config === undefined) continue;
    for (const operation of registry.operations.values()) {
      if (operation.operation.group !== plugin.group) continue;
      resolved[plugin.config.section] = operation.config;
      break;
    }
  }
  return resolved as Config;
}

/**
 * A copy of `config` fit to show: API key digests (a digest identifies a key, and a weak key can be
 * found from it) and the password of the Redis URL become "…".
 */
export function masked(config: Config): Config {
  const copy = structuredClone(config);
  copy.auth.apiKeys = copy.auth.apiKeys.map((key) => ({ ...key, sha256: MASK }));
  const redisUrl = copy.rateLimit.redis.url;
  if (redisUrl !== undefined) copy.rateLimit.redis.url = withoutPassword(redisUrl);
  return copy;
}

function withoutPassword(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The schema only asks for the redis:// prefix; an unparsable rest may still hold a secret.
    return `${url.slice(0, url.indexOf('//') + 2)}${MASK}`;
  }
  if (parsed.password === '') return url;
  // Rebuilt by hand: the URL class would percent-encode the mask.
  return `${parsed.protocol}//${parsed.username}:${MASK}@${parsed.host}${parsed.pathname}${parsed.search}${parsed.hash}`;
}
