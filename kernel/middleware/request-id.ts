/** X-Request-Id: the client's value when it is safe to echo and log, otherwise a new ULID. */
import { ulid } from 'ulid';
import type { KernelMiddleware } from '../types.js';

const acceptable = /^[A-Za-z0-9._-]{1,128}$/;

export function requestId(): KernelMiddleware {
  return async function assignRequestId(ctx, next) {
    const given = ctx.req.headers['x-request-id'];
    const id = typeof given === 'string' && acceptable.test(given) ? given : ulid();
    ctx.state.requestId = id;
    ctx.res.setHeader('X-Request-Id', id);
    await next();
  };
}
