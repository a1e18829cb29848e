/**
 * Optional bearer authentication, in two steps around the rate limit. `identify` reads the header:
 * none is anonymous, a configured key names the client, anything else is remembered as a failure.
 * `refuseBadCredentials`, after the rate limit, answers that failure with 401. A request with a bad
 * key is thus counted against its IP's anonymous limit, which bounds key guessing, and its 401
 * carries the RateLimit headers like every /v1 answer. Public routes skip both.
 */
import { digestApiKey } from '../api-keys.js';
import { HttpError } from '../http-error.js';
import type { KernelMiddleware } from '../types.js';

const bearer = /^Bearer +([\x21-\x7e]{1,512})$/i;
const challenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function identify(keys: ReadonlyMap<string, string>): KernelMiddleware {
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
