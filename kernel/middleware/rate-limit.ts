/**
 * Rate limiting with koa-ratelimit: per client IP for anonymous requests, per key name with a key.
 * Its sharp edges are handled here: RateLimit-Reset becomes seconds until the window ends (it sends
 * a Unix time), Retry-After is recomputed (it can send 0), and its plain-text 429 becomes the
 * contract's JSON error.
 */
import ratelimit from 'koa-ratelimit';
import { HttpError } from '../http-error.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import type { KernelContext, KernelMiddleware } from '../types.js';

export interface RateLimitOptions {
  readonly windowSeconds: number;
  readonly anonymousMax: number;
  readonly apiKeyMax: number;
  readonly store: RateLimitStore;
}

const headers = { remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset', total: 'RateLimit-Limit' };

/**
 * Seconds until the window that koa-ratelimit reported (as a Unix time) ends: at least 1, at most
 * the window. koa-ratelimit keeps its own clock (Date.now at load plus hrtime), which may run a
 * fraction of a millisecond ahead of Date.now, so an unclamped ceil could say 61 in a 60 s window.
 */
function secondsUntilReset(ctx: KernelContext, windowSeconds: number): number {
  const reset = Number(ctx.response.get('RateLimit-Reset'));
  return Math.min(windowSeconds, Math.max(1, Math.ceil(reset - Date.now() / 1000)));
}

export function rateLimit(options: RateLimitOptions): KernelMiddleware {
  const common = { ...options.store.driver, duration: options.windowSeconds * 1000, headers };
  const anonymous = ratelimit({ ...common, namespace: 'ip', max: options.anonymousMax, id: (ctx) => ctx.ip });
  const keyed = ratelimit({ ...common, namespace: 'key', max: options.apiKeyMax, id: (ctx) => (ctx.state as { apiKey: string }).apiKey });
  return async function limitRequests(ctx, next) {
    if (ctx.state.route?.public === true) return next();
    const limiter = ctx.state.apiKey === undefined ? anonymous : keyed;
    let admitted = false;
    await limiter(ctx, async () => {
      admitted = true;
      ctx.set('RateLimit-Reset', String(secondsUntilReset(ctx, options.windowSeconds)));
      await next();
    });
    if (!admitted) {
      const wait = String(secondsUntilReset(ctx, options.windowSeconds));
      ctx.set('RateLimit-Reset', wait);
      throw new HttpError(429, 'rate_limited', `Rate limit exceeded; retry in ${wait} s`, { 'Retry-After': wait });
    }
  };
}
