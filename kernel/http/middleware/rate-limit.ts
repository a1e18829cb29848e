/**
 * Rate limiting: per API key name, or per client (IPv4 address, IPv6 /64) when anonymous, in fixed
 * windows counted by the store (memory, or Redis shared by several instances). RateLimit-Limit,
 * -Remaining and -Reset (seconds until the window ends, 1..window) go on every limited answer, and
 * a refusal is the contract's JSON 429 with Retry-After. A request whose credentials failed is
 * counted like an anonymous one (that bounds key guessing) but never answered 429: it is the 401 of
 * its failure, so a wrong key is always reported as wrong.
 */
import { setListedHeader } from '../answer.js';
import { HttpError } from '../http-error.js';
import { clientKey } from '../rate-limit/client-key.js';
import type { HitResult, HitStore } from '../rate-limit/store.js';
import type { KernelContext, KernelMiddleware } from '../types.js';

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  readonly windowSeconds: number;
  readonly anonymousMax: number;
  readonly apiKeyMax: number;
  readonly store: HitStore;
}

/** The middleware, and how a composite's extra requests are counted (kernel/http/caller.ts). */
export interface RateLimit {
  readonly middleware: KernelMiddleware;
  /**
   * A run that costs more than one request (a recipe's steps) counts the rest here, against the
   * same key and window as the request itself: all of it or nothing, refused with the same 429 and headers.
   */
  charge(ctx: KernelContext, extra: number): Promise<void>;
}

/**
 * Limits requests per API key name, or per client (IPv4 address, IPv6 /64) when anonymous. Public
 * routes are not limited. A refusal is the contract's 429 `rate_limited` with Retry-After.
 */
export function rateLimit(options: RateLimitOptions): RateLimit {
  const { windowSeconds, store } = options;
  const windowMs = windowSeconds * 1000;
  /** Sets the RateLimit headers of a counted request and refuses it past the limit. */
  function answer(ctx: KernelContext, result: HitResult): void {
    // Never 0 (clients would retry at once), never past the window.
    const reset = String(Math.min(windowSeconds, Math.max(1, Math.ceil(result.resetMs / 1000))));
    setListedHeader(ctx, 'RateLimit-Limit', String(result.total));
    setListedHeader(ctx, 'RateLimit-Remaining', String(result.remaining));
    setListedHeader(ctx, 'RateLimit-Reset', reset);
    if (!result.admitted && ctx.state.authFailure !== undefined) throw ctx.state.authFailure;
    // Redis does not answer and the operator chose `rateLimit.redis.unavailable: refuse`.
    if (result.uncounted) throw new HttpError(503, 'rate_limit_unavailable', `The rate limit cannot be counted now (its Redis does not answer); retry in ${reset} s`, { 'Retry-After': reset });
    if (!result.admitted) throw new HttpError(429, 'rate_limited', `Rate limit exceeded; retry in ${reset} s`, { 'Retry-After': reset });
  }
  /** `answer`, except that a route which answers over its limit itself gets the refusal on its state instead. */
  function answerRequest(ctx: KernelContext, result: HitResult): void {
    try {
      answer(ctx, result);
    } catch (refusal) {
      if (ctx.state.route?.answersOverLimit !== true || ctx.state.authFailure !== undefined) throw refusal;
      ctx.state.overLimit = refusal as Error;
    }
  }
  async function charge(ctx: KernelContext, extra: number): Promise<void> {
    const { limitKey, limitMax } = ctx.state;
    if (extra <= 0 || limitKey === undefined || limitMax === undefined) return;
    answer(ctx, await store.take(limitKey, limitMax, windowMs, extra));
  }
  // Not async: with the memory store a request passes on without a promise of its own.
  const middleware: KernelMiddleware = function limitRequests(ctx, next) {
    if (ctx.state.route?.public === true) return next();
    const apiKey = ctx.state.apiKey;
    const max = apiKey === undefined ? options.anonymousMax : options.apiKeyMax;
    const key = apiKey === undefined ? `ip:${clientKey(ctx.ip)}` : `key:${apiKey}`;
    ctx.state.limitKey = key;
    ctx.state.limitMax = max;
    const hit = store.hit(key, max, windowMs);
    if ('then' in hit) {
      return hit.then((result) => {
        answerRequest(ctx, result);
        return next();
      });
    }
    answerRequest(ctx, hit);
    return next();
  };
  return { middleware, charge };
}
