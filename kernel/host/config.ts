/**
 * Configuration: config/default.yaml, the file named by TOOLSHED_CONFIG merged over it, then PORT
 * and HOST. The kernel's own sections are checked here; every other top-level key must belong to a
 * plugin and is checked against that plugin's schema once plugins are discovered.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Type, type ErrorDetail, type Static, type TSchema } from '@toolshed/plugin-sdk';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import { parse as parseYaml } from './vendor/yaml.js';
import { addressRangeProblems } from './address-ranges.js';
import { didYouMean } from './nearest.js';

const closed = { additionalProperties: false } as const;
// `default: {}` on each section lets TypeBox descend and fill the keys inside a missing section.
const section = { additionalProperties: false, default: {} } as const;
const Names = Type.Array(Type.String({ minLength: 1 }), { default: [] });

/**
 * A contained plugin's share: its processes, its queue, each process's heap and resident-memory
 * caps; with defaults (`plugins.workers`) or without (`plugins.limits.<group>`, each key left out
 * taken from `plugins.workers`).
 */
function pluginShare(withDefaults: boolean) {
  const keys = {
    processes: Type.Integer({ minimum: 1, maximum: 64, ...(withDefaults ? { default: 1 } : {}) }),
    pipeline: Type.Integer({ minimum: 1, maximum: 256, ...(withDefaults ? { default: 16 } : {}) }),
    maxQueue: Type.Integer({ minimum: 0, maximum: 100000, ...(withDefaults ? { default: 16 } : {}) }),
    memoryMb: Type.Integer({ minimum: 32, maximum: 16384, ...(withDefaults ? { default: 256 } : {}) }),
    rssMb: Type.Integer({ minimum: 64, maximum: 65536, ...(withDefaults ? { default: 512 } : {}) }),
  };
  if (withDefaults) return keys;
  return Object.fromEntries(Object.entries(keys).map(([key, schema]) => [key, Type.Optional(schema)])) as { [Key in keyof typeof keys]: ReturnType<typeof Type.Optional<(typeof keys)[Key]>> };
}

/** Absolute paths a grant names; no comma, which Node 20 reads as a separator between paths. */
const GrantedPaths = Type.Array(Type.String({ pattern: '^/[^,]*$', maxLength: 4096 }), { maxItems: 64 });

/** What a contained plugin's processes may do beyond the default (`plugins.grants.<group>`). */
const Grants = Type.Object(
  {
    net: Type.Optional(Type.Boolean()),
    worker: Type.Optional(Type.Boolean()),
    childProcess: Type.Optional(Type.Boolean()),
    read: Type.Optional(GrantedPaths),
    write: Type.Optional(GrantedPaths),
  },
  closed,
);

/** `plugins.user`: who a contained plugin's processes run as. */
const PluginUser = Type.Union(
  [
    Type.Literal('auto'),
    Type.Literal('service'),
    Type.Object({ uid: Type.Integer({ minimum: 0, maximum: 4294967294 }), gid: Type.Integer({ minimum: 0, maximum: 4294967294 }) }, closed),
  ],
  { default: 'auto' },
);

/** The kernel's sections of the configuration. */
export const CoreConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        host: Type.String({ minLength: 1, default: '127.0.0.1' }),
        port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
        // A hop count (the client is the N-th X-Forwarded-For entry from the right), or the proxies'
        // addresses and CIDR ranges (the client is the first address from the right that is not one).
        trustProxy: Type.Union([Type.Integer({ minimum: 0, maximum: 32 }), Type.Array(Type.String(), { minItems: 1, maxItems: 1024 })], { default: 0 }),
        shutdownTimeoutMs: Type.Integer({ minimum: 0, maximum: 600000, default: 10000 }),
        // After SIGTERM, keep listening this long with /healthz at 503 so balancers notice.
        drainDelayMs: Type.Integer({ minimum: 0, maximum: 600000, default: 0 }),
        writeTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600000, default: 30000 }),
        headersTimeoutMs: Type.Integer({ minimum: 100, maximum: 600000, default: 20000 }),
        requestTimeoutMs: Type.Integer({ minimum: 100, maximum: 3600000, default: 60000 }),
        maxAnswerBytes: Type.Integer({ minimum: 1024, maximum: 1073741824, default: 33554432 }),
        readingBytes: Type.Integer({ minimum: 1048576, maximum: 17179869184, default: 134217728 }),
        // One client address's share of readingBytes; a body alone always fits.
        readingBytesPerClient: Type.Integer({ minimum: 65536, maximum: 17179869184, default: 33554432 }),
        // A body averaging less than this once bodyRateGraceMs have passed is cut (408); 0: no floor.
        minBodyBytesPerSecond: Type.Integer({ minimum: 0, maximum: 1073741824, default: 1024 }),
        bodyRateGraceMs: Type.Integer({ minimum: 100, maximum: 3600000, default: 5000 }),
        sendingBytes: Type.Integer({ minimum: 1048576, maximum: 17179869184, default: 134217728 }),
        // One client address's share of sendingBytes; an answer alone always fits.
        sendingBytesPerClient: Type.Integer({ minimum: 65536, maximum: 17179869184, default: 33554432 }),
        // Open connections in all, and from one peer address (0: no cap per address); more are closed at once.
        maxConnections: Type.Integer({ minimum: 1, maximum: 1000000, default: 10000 }),
        connectionsPerClient: Type.Integer({ minimum: 0, maximum: 1000000, default: 1024 }),
      },
      section,
    ),
    auth: Type.Object(
      {
        apiKeys: Type.Array(
          Type.Object(
            {
              name: Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }),
              sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
            },
            closed,
          ),
          { default: [] },
        ),
        // true: every /v1/ and /mcp request without a valid key is 401 (a private deployment).
        required: Type.Boolean({ default: false }),
      },
      section,
    ),
    // Origins whose pages may read the answers: "*" (any) or scheme://host[:port] each.
    cors: Type.Object(
      { origins: Type.Array(Type.String({ pattern: '^(\\*|https?://[^/\\s]+)$' }), { minItems: 1, default: ['*'] }) },
      section,
    ),
    rateLimit: Type.Object(
      {
        anonymous: Type.Object({ max: Type.Integer({ minimum: 1, default: 30 }) }, section),
        apiKey: Type.Object({ max: Type.Integer({ minimum: 1, default: 600 }) }, section),
        windowSeconds: Type.Integer({ minimum: 1, maximum: 86400, default: 60 }),
        // Unset: counters live in this process. Set: shared by every instance using this Redis;
        // while it does not answer, counted by each instance alone (local) or refused (refuse).
        redis: Type.Object(
          {
            url: Type.Optional(Type.String({ pattern: '^rediss?://' })),
            unavailable: Type.Enum(['local', 'refuse'], { default: 'local' }),
            // The longest one request waits for Redis before `unavailable` decides.
            commandTimeoutMs: Type.Integer({ minimum: 10, maximum: 10000, default: 100 }),
          },
          section,
        ),
      },
      section,
    ),
    plugins: Type.Object(
      {
        dirs: Names,
        packages: Names,
        enabled: Type.Array(Type.String({ minLength: 1 }), { default: ['*'] }),
        disabled: Names,
        trusted: Names,
        // Each contained plugin's own processes, apart from the service's.
        workers: Type.Object(pluginShare(true), section),
        // Per group, instead of `plugins.workers`.
        limits: Type.Record(Type.String(), Type.Object(pluginShare(false), closed), { default: {} }),
        // Per group, the names of the service's environment variables its processes see; nothing else.
        env: Type.Record(Type.String(), Type.Array(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), { maxItems: 256 }), { default: {} }),
        // Per group, what its processes may do beyond reading their own modules.
        grants: Type.Record(Type.String(), Grants, { default: {} }),
        user: PluginUser,
      },
      section,
    ),
    // Every operation's deadline, main thread and pool alike; per group where a group needs another.
    operations: Type.Object(
      {
        deadlineMs: Type.Integer({ minimum: 100, maximum: 600000, default: 10000 }),
        groupDeadlineMs: Type.Record(Type.String(), Type.Integer({ minimum: 100, maximum: 600000 }), { default: {} }),
        // After listening, start one pool worker, so a pool operation's first call does not wait for one to boot.
        warmUp: Type.Boolean({ default: true }),
      },
      section,
    ),
    // The event-loop watchdog: a main thread blocked this long is logged and counted per operation.
    watchdog: Type.Object({ blockedMs: Type.Integer({ minimum: 10, maximum: 60000, default: 100 }) }, section),
    workers: Type.Object(
      {
        threads: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
        memoryMb: Type.Integer({ minimum: 32, maximum: 16384, default: 256 }),
        maxQueue: Type.Integer({ minimum: 0, maximum: 100000, default: 256 }),
        idleMs: Type.Integer({ minimum: 0, maximum: 3600000, default: 30000 }),
        niceness: Type.Integer({ minimum: 0, maximum: 19, default: 10 }),
        offloadBytes: Type.Integer({ minimum: 0, maximum: 10485760, default: 65536 }),
        linearOffloadBytes: Type.Integer({ minimum: 0, maximum: 10485760, default: 262144 }),
        requestBudgetMs: Type.Integer({ minimum: 100, maximum: 600000, default: 10000 }),
      },
      section,
    ),
    // GET /metrics (Prometheus); off, the path is an unknown one (404).
    metrics: Type.Object({ enabled: Type.Boolean({ default: false }) }, section),
    // GET /docs (the interactive reference); off, it and every tool page are unknown paths (404).
    // toolPages: GET / (the list of tools) and /tools/<group>/<operation>; off, GET / → /docs.
    docs: Type.Object({ enabled: Type.Boolean({ default: true }), toolPages: Type.Boolean({ default: true }) }, section),
    log: Type.Object(
      { level: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }) },
      section,
    ),
  },
  // Further top-level keys are plugin sections, checked after discovery (see registry.ts).
  { additionalProperties: true },
);

export type CoreConfig = Static<typeof CoreConfigSchema>;

/** The whole configuration: the kernel's sections plus the raw plugin sections. */
export type Config = CoreConfig & Record<string, unknown>;

/** Names of the kernel's own top-level keys. */
export const coreSections: ReadonlySet<string> = new Set(Object.keys(CoreConfigSchema.properties));

/** The problems made by {@link pluginLoadProblem}: found by identity, so a problem needs no field of its own. */
const loadFailures = new WeakSet<ErrorDetail>();

/**
 * The problem of a plugin that cannot be loaded (its import threw, its manifest is wrong), reported
 * under `/plugins` with the others; the heading then says a plugin failed, not the file.
 */
export function pluginLoadProblem(message: string): ErrorDetail {
  const problem = { path: '/plugins', message };
  loadFailures.add(problem);
  return problem;
}

/** What the problems are, in the words an operator or a plugin author looks for. */
function headingOf(problems: readonly ErrorDetail[]): string {
  const failedLoads = problems.filter((problem) => loadFailures.has(problem)).length;
  if (failedLoads === 0) return 'Invalid configuration:';
  return failedLoads === problems.length ? 'A plugin cannot be loaded:' : 'Invalid configuration, and a plugin cannot be loaded:';
}

/** A configuration the service cannot start with; the message names every bad key and every plugin that does not load. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ErrorDetail[]) {
    super(`${headingOf(problems)}\n${problems.map((problem) => `- ${problem.path || '/'}: ${problem.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Merges `override` into `base`: objects key by key, everything else (arrays too) replaced. */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) merged[key] = mergeConfig(base[key], value);
  return merged;
}

async function readYaml(file: string | URL): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the configuration file ${String(file)}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return parseYaml(text) ?? {};
  } catch (error) {
    throw new Error(`The configuration file ${String(file)} is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
}

const coreValidator = compileSchema(CoreConfigSchema);

/** The configuration with the kernel's defaults filled, and every problem of its kernel sections. */
export interface CoreConfigCheck {
  readonly config: Config;
  readonly problems: ErrorDetail[];
}

const TRUST_PROXY = '/server/trustProxy';
/** How the validator's message for a value of none of a union's forms begins (it goes on to name the forms and the nearest). */
const NO_FORM = 'does not match any of the allowed forms';

/** Checks the kernel's sections and fills their defaults, reporting every problem instead of throwing. */
export function checkCoreConfig(raw: unknown): CoreConfigCheck {
  const config = coreValidator.withDefaults(isPlainObject(raw) ? raw : {}) as Config;
  const problems = isPlainObject(raw) ? withSuggestions(coreValidator.problems(config), CoreConfigSchema) : [{ path: '', message: 'must be a mapping' }];
  // Unchecked yet: `auth` may be anything a file gave it.
  problems.push(...duplicateKeyProblems((config.auth as { apiKeys?: unknown } | null | undefined)?.apiKeys));
  problems.push(...timeoutProblems(config.server as Partial<Config['server']> | undefined));
  problems.push(...addressRangeProblems((config.server as { trustProxy?: unknown } | undefined)?.trustProxy, TRUST_PROXY));
  const trustProxy = problems.findIndex((problem) => problem.path === TRUST_PROXY && problem.message.startsWith(NO_FORM));
  // A lone address (`trustProxy: 10.0.0.5`) is the likely slip: say what the two forms are.
  if (trustProxy !== -1) problems[trustProxy] = { path: TRUST_PROXY, message: 'must be a number of proxy hops (0 to 32) or a list of proxy addresses and CIDR ranges, such as [10.0.0.5, fd00::/8]' };
  // The old name of a key says what it is now, instead of the schema's "not an allowed property".
  const plugins = pluginProcessProblems(raw);
  const said = new Set(plugins.map((problem) => problem.path));
  return { config, problems: [...problems.filter((problem) => !said.has(problem.path)), ...plugins] };
}

/**
 * What the schema cannot say about `plugins`: the old name of a share's size (threads, before each
 * contained plugin ran in processes of its own), a user id only root may switch to, and variables
 * that would change how Node starts a plugin's process (NODE_OPTIONS can grant any permission).
 */
function pluginProcessProblems(raw: unknown): ErrorDetail[] {
  const plugins = isPlainObject(raw) && isPlainObject(raw.plugins) ? raw.plugins : {};
  const problems: ErrorDetail[] = [];
  const renamed = 'is now processes: each contained plugin runs in processes of its own';
  if (isPlainObject(plugins.workers) && 'threads' in plugins.workers) problems.push({ path: '/plugins/workers/threads', message: renamed });
  for (const [group, share] of Object.entries(isPlainObject(plugins.limits) ? plugins.limits : {})) {
    if (isPlainObject(share) && 'threads' in share) problems.push({ path: `/plugins/limits/${group}/threads`, message: renamed });
  }
  const user = plugins.user;
  const own = process.getuid?.();
  if (isPlainObject(user) && own !== undefined && own !== 0 && user.uid !== own) {
    problems.push({ path: '/plugins/user', message: `names another user, and only a service running as root may switch to one (this one runs as uid ${own})` });
  }
  for (const [group, names] of Object.entries(isPlainObject(plugins.env) ? plugins.env : {})) {
    if (!Array.isArray(names)) continue;
    for (const [index, name] of names.entries()) {
      if (typeof name === 'string' && name.startsWith('NODE_') && name !== 'NODE_ENV') {
        problems.push({ path: `/plugins/env/${group}/${index}`, message: `${name} would change how Node starts the plugin's processes (NODE_OPTIONS can grant any permission); only NODE_ENV of the NODE_ variables may be given` });
      }
    }
  }
  return problems;
}

/** Node refuses to start a server whose headers may take longer than the whole request. */
function timeoutProblems(server: Partial<Config['server']> | undefined): ErrorDetail[] {
  const { headersTimeoutMs, requestTimeoutMs } = server ?? {};
  if (typeof headersTimeoutMs !== 'number' || typeof requestTimeoutMs !== 'number' || headersTimeoutMs <= requestTimeoutMs) return [];
  return [{ path: '/server/headersTimeoutMs', message: `must be at most server.requestTimeoutMs (${requestTimeoutMs})` }];
}

/** The message of a key a closed schema does not allow. */
const UNKNOWN_PROPERTY = 'is not an allowed property';

/** The schema of the object holding the key at `path` (a JSON Pointer into a value of `schema`). */
function parentSchema(schema: TSchema, path: string): TSchema | undefined {
  let current: TSchema | undefined = schema;
  for (const segment of path.split('/').slice(1, -1)) {
    const name = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    const node = current as { properties?: Record<string, TSchema>; items?: TSchema } | undefined;
    current = /^\d+$/.test(name) && node?.items !== undefined ? node.items : node?.properties?.[name];
  }
  return current;
}

/**
 * `problems` of a value of `schema` with "did you mean" added to every unknown key a few edits
 * from a key its object allows (`/server/hots` → `host`). `base` is the pointer of the value.
 */
export function withSuggestions(problems: ErrorDetail[], schema: TSchema, base = ''): ErrorDetail[] {
  return problems.map((problem) => {
    if (problem.message !== UNKNOWN_PROPERTY) return problem;
    const relative = problem.path.slice(base.length);
    const known = Object.keys((parentSchema(schema, relative) as { properties?: object } | undefined)?.properties ?? {});
    const key = (relative.split('/').pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
    return { path: problem.path, message: `${problem.message}${didYouMean(key, known)}` };
  });
}

/** Keys that repeat an earlier key's name or digest; entries of the wrong shape are reported by the schema. */
function duplicateKeyProblems(keys: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!Array.isArray(keys)) return problems;
  const names = new Set<string>();
  const digests = new Set<string>();
  for (const [index, key] of keys.entries()) {
    if (!isPlainObject(key)) continue;
    if (typeof key.name === 'string') {
      if (names.has(key.name)) problems.push({ path: `/auth/apiKeys/${index}/name`, message: 'is used by another key' });
      names.add(key.name);
    }
    if (typeof key.sha256 === 'string') {
      const digest = key.sha256.toLowerCase();
      if (digests.has(digest)) problems.push({ path: `/auth/apiKeys/${index}/sha256`, message: 'is used by another key' });
      digests.add(digest);
    }
  }
  return problems;
}

/** Checks the kernel's sections and fills their defaults; throws ConfigError naming every bad key. */
export function validateCoreConfig(raw: unknown): Config {
  const { config, problems } = checkCoreConfig(raw);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** config/default.yaml, next to the build output (dist/kernel → repository root). */
export const defaultsFile = fileURLToPath(new URL('../../../config/default.yaml', import.meta.url));

/**
 * Reads and merges the configuration for `env` without checking it: `defaultsFile`, the file named
 * by TOOLSHED_CONFIG over it, then PORT and HOST. Throws when a file cannot be read or parsed.
 */
export async function readConfig(env: NodeJS.ProcessEnv, defaultsFile: string | URL): Promise<unknown> {
  let raw = await readYaml(defaultsFile);
  if (env.TOOLSHED_CONFIG) raw = mergeConfig(raw, await readYaml(env.TOOLSHED_CONFIG));
  const server: Record<string, unknown> = {};
  if (env.HOST !== undefined && env.HOST !== '') server.host = env.HOST;
  if (env.PORT !== undefined && env.PORT !== '') server.port = /^\d+$/.test(env.PORT) ? Number(env.PORT) : env.PORT;
  return mergeConfig(raw, { server });
}

/** Reads, merges and checks the configuration for `env` (process.env in production). */
export async function loadConfig(env: NodeJS.ProcessEnv, defaultsFile: string | URL): Promise<Config> {
  return validateCoreConfig(await readConfig(env, defaultsFile));
}
