/**
 * Optional bearer authentication. No Authorization header: anonymous. A header that is not
 * `Bearer <token>`, or a token whose digest is not configured: 401. Public routes skip this.
 */
import { digestApiKey } from '../api-keys.js';
import { HttpError } from '../http-error.js';
import type { KernelMiddleware } from '../types.js';

const bearer = /^Bearer +([\x21-\x7e]{1,512})$/i;
const challenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };

export function authenticate(keys: ReadonlyMap<string, string>): KernelMiddleware {
  return async function checkApiKey(ctx, next) {
    const header = ctx.req.headers.authorization;
    if (header !== undefined && ctx.state.route?.public !== true) {
      const token = bearer.exec(header)?.[1];
      if (token === undefined) throw new HttpError(401, 'unauthorized', 'The Authorization header must be "Bearer <API key>"', challenge);
      const name = keys.get(digestApiKey(token));
      if (name === undefined) throw new HttpError(401, 'unauthorized', 'The API key is unknown or revoked', challenge);
      ctx.state.apiKey = name;
    }
    await next();
  };
}
