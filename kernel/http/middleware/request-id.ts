/** X-Request-Id: the client's value when it is safe to echo and log, otherwise a new ULID. */
import { randomFillSync } from 'node:crypto';
import { ulid } from 'ulid';
import type { KernelMiddleware } from '../types.js';

const acceptable = /^[A-Za-z0-9._-]{1,128}$/;

// ulid's default source calls randomFillSync once per character, on every request's path (it
// showed in the benchmark's profile). One refill per 256 ids gives the same randomness: each byte
// / 256 is uniform, and ulid takes floor(value × 32), which is unbiased since 32 divides 256.
const pool = new Uint8Array(4096);
let next = pool.length;
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]! / 256;
}

/** A new ULID from the pooled random source. */
export function newRequestId(): string {
  return ulid(Date.now(), pooledRandom);
}

export function requestId(): KernelMiddleware {
  // Not async: a middleware that only passes on returns next()'s promise instead of wrapping it.
  return function assignRequestId(ctx, next) {
    const given = ctx.req.headers['x-request-id'];
    const id = typeof given === 'string' && acceptable.test(given) ? given : newRequestId();
    ctx.state.requestId = id;
    ctx.res.setHeader('X-Request-Id', id);
    return next();
  };
}
