/**
 * Where rate-limit counters live. koa-ratelimit speaks to a "driver" (memory Map or Redis); a store
 * hands it one and owns its upkeep, so a Redis store for several instances can replace the memory
 * store without touching the middleware.
 */
import type ratelimit from 'koa-ratelimit';

export interface RateLimitStore {
  /** The driver options koa-ratelimit is given. */
  readonly driver: Pick<ratelimit.MiddlewareOptions, 'driver' | 'db'>;
  /** Stops timers and closes connections. */
  close(): Promise<void>;
}
