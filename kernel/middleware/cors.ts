/**
 * CORS preflights, answered before authentication and rate limiting. Authorization is not an
 * allowed header, so browsers cannot send API keys: keys belong on servers (spec, Authentication 4).
 * The headers of ordinary answers are set by the errors middleware.
 */
import type { KernelMiddleware } from '../types.js';

export function corsPreflight(): KernelMiddleware {
  return function answerPreflight(ctx, next) {
    if (ctx.method !== 'OPTIONS' || ctx.req.headers['access-control-request-method'] === undefined) return next();
    ctx.status = 204;
    ctx.set({
      'Access-Control-Allow-Methods': 'POST, GET',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
    return undefined; // answered: nothing further runs
  };
}
