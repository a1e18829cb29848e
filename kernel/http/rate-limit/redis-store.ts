/**
 * Rate-limit counters shared by several instances through Redis. One request is one round trip:
 * a Lua script increments the key and sets its expiry when it creates it (ioredis sends EVAL
 * once per connection, EVALSHA after). The limiter must never hold a request up for long, so the
 * client fails fast (no offline queue, 100 ms command timeout, no retries of a command) and the
 * store then counts in its own memory (`unavailable: 'local'`) or refuses what it would count
 * (`'refuse'`) until Redis answers again: on reconnection ('ready'), or, when the connection stayed
 * up but Redis stalled or refused, on a successful probe every second.
 */
import { Redis } from 'ioredis';
import { createMemoryHitStore } from './memory-store.js';
import { toHitResult, type HitResult, type HitStore, type RateLimitCounting } from './store.js';

/** Where the store reports its switches. Never given a key or client id. */
export interface RedisStoreLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]`; never logged (it may hold a password). */
  readonly url: string;
  /** The window; sizes the default fallback's rotation. */
  readonly windowMs: number;
  readonly logger: RedisStoreLogger;
  /**
   * While Redis does not answer: `local` counts in `fallback`, so each instance applies the limit
   * alone; `refuse` counts nothing and answers every hit not admitted and `uncounted`. `local` by default.
   */
  readonly unavailable?: 'local' | 'refuse';
  /** Counts while Redis is unreachable, with `unavailable: 'local'`; a memory hit store by default. Closed with this store. */
  readonly fallback?: HitStore;
  /** Prepended to every key; `toolshed:rl:` by default (the probe uses `<prefix>probe`). */
  readonly prefix?: string;
  /** Bounds one command (and so the wait of one request); 100 ms by default. */
  readonly commandTimeoutMs?: number;
}

/** The store's state, for tests and metrics. */
export interface RedisStoreCounts {
  /** How many times the store switched from Redis to its own memory. */
  readonly fallbacks: number;
  /** Whether hits reach Redis now, or not (counted in memory, or refused). */
  readonly mode: 'redis' | 'memory';
  /** Hits refused because Redis did not answer (`unavailable: 'refuse'`). */
  readonly refused: number;
}

export interface RedisHitStore extends HitStore {
  counted(): RedisStoreCounts;
  counting(): RateLimitCounting;
}

/** KEYS[1] the counter, ARGV[1] the window in ms. Returns {count, ms until the window ends}. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * KEYS[1] the counter, ARGV[1] the window in ms, ARGV[2] the amount, ARGV[3] the limit. Adds the
 * amount only when all of it fits; returns {count, ms until the window ends}, the count 0 - 1 - count
 * (negative) when it did not fit, so one reply says both.
 */
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = tonumber(ARGV[1]) end
if count + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return {-1 - count, ttl} end
count = redis.call('INCRBY', KEYS[1], ARGV[2])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, ttl}
`;

/** The commands defineCommand adds; ioredis cannot type them. */
type WithHit = Redis & {
  toolshedHit(key: string, windowMs: number): Promise<unknown>;
  toolshedTake(key: string, windowMs: number, amount: number, max: number): Promise<unknown>;
};

/** How long the first connection may take before the store starts in memory mode. */
const CONNECT_TIMEOUT_MS = 1000;
/** Delay between reconnection attempts: Redis back means shared counting within about this long. */
const RECONNECT_MS = 500;
/** How often a store in memory mode with an open connection checks whether Redis answers again. */
const PROBE_MS = 1000;

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads the script's reply, rejecting anything unexpected so it counts as a failure. */
function parseReply(reply: unknown): [number, number] {
  if (Array.isArray(reply) && reply.length === 2 && typeof reply[0] === 'number' && typeof reply[1] === 'number') {
    return [reply[0], reply[1]];
  }
  throw new Error('unexpected reply from the rate-limit script');
}

const DEFAULT_PREFIX = 'toolshed:rl:';
const DEFAULT_COMMAND_TIMEOUT_MS = 100;

/**
 * The client the store counts with: it fails fast (no offline queue, no retry of a command, every
 * command bounded), with the scripts defined. `reconnect`: keep trying at a steady pace forever
 * (the store: Redis may be down for long, and comes back by itself), or never (a one-off check).
 */
function rateLimitClient(url: string, commandTimeoutMs: number, reconnect: boolean, connectTimeoutMs = CONNECT_TIMEOUT_MS): WithHit {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: connectTimeoutMs,
    retryStrategy: () => (reconnect ? RECONNECT_MS : null),
  }) as WithHit;
  redis.defineCommand('toolshedHit', { lua: HIT_SCRIPT, numberOfKeys: 1 });
  redis.defineCommand('toolshedTake', { lua: TAKE_SCRIPT, numberOfKeys: 1 });
  return redis;
}

/** How long `tryRedis` waits for each step (connect, AUTH, the script): a check, not a request. */
const CHECK_MS = 5000;

/**
 * Connects to `url` as the service would and runs the rate-limit script once on its probe key:
 * resolves when the service could count there, rejects with the reason otherwise (`toolshed config
 * check --connect`). Each step may take up to `withinMs`, not the service's 100 ms: the check asks
 * whether Redis answers rightly (address, password, script), and one slow answer on a busy host
 * says nothing about that. The reason never holds the URL, which may hold a password.
 */
export async function tryRedis(url: string, withinMs = CHECK_MS): Promise<void> {
  const redis = rateLimitClient(url, withinMs, false, withinMs);
  // connect() rejects with "Connection is closed." only; the cause (ECONNREFUSED, WRONGPASS) is
  // the last 'error' before it, and without a listener ioredis would print each one.
  let cause: unknown;
  redis.on('error', (error: unknown) => (cause = error));
  try {
    await connectWithin(redis, withinMs);
    parseReply(await redis.toolshedHit(`${DEFAULT_PREFIX}probe`, PROBE_MS));
  } catch (error) {
    throw new Error(reasonOf(cause ?? error), { cause: error });
  } finally {
    redis.disconnect();
  }
}

/** Connects `redis`, or rejects once `ms` have gone by (ioredis's own timeout covers the socket only). */
async function connectWithin(redis: Redis, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('connection timed out')), ms);
  });
  try {
    await Promise.race([redis.connect(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connects to Redis (bounded by about a second; an unreachable Redis starts the store in its
 * fallback, logged) and returns the store. Every `hit` answers within about the command timeout.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<RedisHitStore> {
  const { logger } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const refuse = options.unavailable === 'refuse';
  const fallback = options.fallback ?? createMemoryHitStore(options.windowMs);
  const redis = rateLimitClient(options.url, options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS, true);

  let mode: RedisStoreCounts['mode'] = 'redis';
  let fallbacks = 0;
  let refused = 0;
  let closing = false;
  let probing = false;

  const toMemory = (error: unknown): void => {
    if (mode === 'memory' || closing) return;
    mode = 'memory';
    fallbacks++;
    const consequence = refuse ? 'refusing requests it would count (rateLimit.redis.unavailable: refuse)' : 'counting in this instance only';
    logger.warn({ reason: reasonOf(error), fallbacks }, `rate limits: Redis unavailable, ${consequence}`);
  };
  /** What a hit gets while Redis does not answer, under `refuse`: nothing counted, nothing admitted. */
  const refusal = (max: number): HitResult => {
    refused++;
    return { admitted: false, total: max, remaining: 0, resetMs: RECONNECT_MS, uncounted: true };
  };
  /** Where a hit goes while Redis does not answer. */
  const unavailable = (max: number, counted: () => HitResult | Promise<HitResult>): HitResult | Promise<HitResult> => (refuse ? refusal(max) : counted());
  const toRedis = (): void => {
    if (mode === 'redis' || closing) return;
    mode = 'redis';
    logger.info({ fallbacks }, 'rate limits: Redis answers again, counting shared');
  };

  // Failures are handled where they happen; without a listener ioredis would print each one.
  const closed = new Error('connection closed');
  let lastError: unknown = closed;
  redis.on('error', (error: unknown) => (lastError = error));
  redis.on('ready', () => {
    lastError = closed;
    toRedis();
  });
  // A lost connection means every command would fail at once: stop trying before a request does.
  redis.on('close', () => toMemory(lastError));

  const probe = setInterval(() => {
    // Only a stalled or refusing Redis with an open connection needs this; otherwise 'ready'
    // switches back. The probe runs the script itself (not PING), so a Redis that answers but
    // refuses writes (out of memory, a read-only replica) does not flap between the modes.
    if (mode === 'redis' || probing || redis.status !== 'ready') return;
    probing = true;
    redis
      .toolshedHit(`${prefix}probe`, PROBE_MS)
      .then(parseReply)
      .then(toRedis, () => undefined)
      .finally(() => (probing = false));
  }, PROBE_MS);
  probe.unref();

  try {
    await connectWithin(redis, CONNECT_TIMEOUT_MS);
  } catch (error) {
    // ioredis keeps reconnecting (retryStrategy) and 'ready' switches to Redis when it can.
    toMemory(error);
  }

  return {
    async hit(key: string, max: number, windowMs: number): Promise<HitResult> {
      const counted = (): HitResult | Promise<HitResult> => fallback.hit(key, max, windowMs);
      if (mode === 'memory') return unavailable(max, counted);
      try {
        const [count, ttl] = parseReply(await redis.toolshedHit(prefix + key, windowMs));
        return toHitResult(count, max, ttl);
      } catch (error) {
        toMemory(error);
        return unavailable(max, counted);
      }
    },
    async take(key: string, max: number, windowMs: number, amount: number): Promise<HitResult> {
      const counted = (): HitResult | Promise<HitResult> => fallback.take(key, max, windowMs, amount);
      if (mode === 'memory') return unavailable(max, counted);
      try {
        const [count, ttl] = parseReply(await redis.toolshedTake(prefix + key, windowMs, amount, max));
        return count < 0 ? { ...toHitResult(-1 - count, max, ttl), admitted: false } : toHitResult(count, max, ttl);
      } catch (error) {
        toMemory(error);
        return unavailable(max, counted);
      }
    },
    counted: () => ({ fallbacks, mode, refused }),
    counting: () => (mode === 'redis' ? 'redis' : refuse ? 'refusing' : 'local'),
    async close() {
      closing = true;
      clearInterval(probe);
      redis.disconnect();
      await fallback.close();
    },
  };
}
