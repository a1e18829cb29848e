/**
 * Bearer authentication, in two steps around the rate limit. `identify` reads the header: none is
 * anonymous (or, with `auth.required`, a failure), a configured key names the client, anything else
 * is remembered as a failure. `refuseBadCredentials`, after the rate limit, answers that failure
 * with 401. A request with a bad key is thus counted against its IP's anonymous limit, which bounds
 * key guessing, and its 401 carries the RateLimit headers like every /v1 answer; past that limit it
 * is still 401 (kernel/http/middleware/rate-limit.ts), so the owner of a mistyped key learns that the key
 * is wrong. Public routes skip both.
 */
import { digestApiKey } from '../api-keys.js';
import { HttpError } from '../http-error.js';
import type { KernelContext, KernelMiddleware } from '../types.js';

const bearer = /^Bearer +([\x21-\x7e]{1,512})$/i;
const challenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
// RFC 6750, 3.1: a request without credentials gets the challenge without an error code.
const askForKey = { 'WWW-Authenticate': 'Bearer' };

/**
 * Whether `auth.required` asks this request for a key: every route that is not public (the API's
 * operations, its document, /mcp), and unknown paths under /v1/, so that a private deployment does
 * not even say which operations exist. Other unknown paths stay 404.
 */
function wantsKey(ctx: KernelContext): boolean {
  const route = ctx.state.route;
  return route === undefined ? ctx.path.startsWith('/v1/') : route.public !== true;
}

export function identify(keys: ReadonlyMap<string, string>, required = false): KernelMiddleware {
  return function identifyClient(ctx, next) {
    const header = ctx.req.headers.authorization;
    if (header !== undefined && ctx.state.route?.public !== true) {
      const token = bearer.exec(header)?.[1];
      const name = token === undefined ? undefined : keys.get(digestApiKey(token));
      if (name !== undefined) ctx.state.apiKey = name;
      else {
        const message = token === undefined ? 'The Authorization header must be "Bearer <API key>"' : 'The API key is unknown or revoked';
        ctx.state.authFailure = new HttpError(401, 'unauthorized', message, challenge);
      }
    } else if (required && header === undefined && wantsKey(ctx)) {
      ctx.state.authFailure = new HttpError(401, 'unauthorized', 'This service requires an API key: send "Authorization: Bearer <API key>"', askForKey);
    }
    return next();
  };
}

export function refuseBadCredentials(): KernelMiddleware {
  return function refuse(ctx, next) {
    if (ctx.state.authFailure !== undefined) throw ctx.state.authFailure;
    return next();
  };
}
