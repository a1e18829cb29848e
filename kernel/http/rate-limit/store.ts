/**
 * Where rate-limit counters live: the embedded memory store (memory-store.ts) or Redis
 * (redis-store.ts), which falls back to memory when Redis fails. koa-ratelimit's Redis driver needs
 * several round trips per request and has no fallback, so the kernel counts through `hit()`.
 */
/** What one counted request learns about its window. */
export interface HitResult {
  /** Whether this request is within the limit. */
  readonly admitted: boolean;
  /** The limit (`max`), sent as RateLimit-Limit. */
  readonly total: number;
  /** Requests still admitted in this window (0 on the last admitted one and on refusals). */
  readonly remaining: number;
  /** Milliseconds until the window ends (> 0). */
  readonly resetMs: number;
  /**
   * True when nothing could count the request: Redis does not answer and `rateLimit.redis.unavailable`
   * is `refuse`. Not admitted then, and answered 503 rather than 429.
   */
  readonly uncounted?: true;
}

/**
 * Where a store counts now, for `/healthz`: in Redis, shared (`redis`); in this instance alone while
 * Redis does not answer (`local`); nowhere, refusing what it would count (`refusing`).
 */
export type RateLimitCounting = 'redis' | 'local' | 'refusing';

/** A counter of requests per key in fixed windows. */
export interface HitStore {
  /**
   * Counts one request for `key` (e.g. `ip:203.0.113.9`) against `max` per `windowMs`. Never
   * rejects. The memory store answers at once, without a promise: one fewer per request.
   */
  hit(key: string, max: number, windowMs: number): HitResult | Promise<HitResult>;
  /**
   * Counts `amount` more requests for `key` in its current window, only when all of them fit within
   * `max` (a request that costs more than one, counted after its first); otherwise counts nothing
   * and answers not admitted. Never rejects.
   */
  take(key: string, max: number, windowMs: number, amount: number): HitResult | Promise<HitResult>;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
  /** Where it counts now; only a store that can fall back (Redis) has it. */
  counting?(): RateLimitCounting;
}

/** Turns a count and the time left in a window into a HitResult. */
export function toHitResult(count: number, max: number, resetMs: number): HitResult {
  return { admitted: count <= max, total: max, remaining: Math.max(0, max - count), resetMs: Math.max(1, resetMs) };
}
