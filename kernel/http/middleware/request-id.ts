/** X-Request-Id: the client's value when it is safe to echo and log, otherwise a new ULID. */
import { randomFillSync } from 'node:crypto';
import type { KernelMiddleware } from '../types.js';

const acceptable = /^[A-Za-z0-9._-]{1,128}$/;

// A ULID (github.com/ulid/spec): 10 characters of millisecond time, 16 of randomness, in Crockford's
// base32. ulid's own generator encodes the time and draws the randomness character by character on
// every call, and its default source calls randomFillSync once per character (it showed in the
// benchmark's profile). Here the time part is encoded once per millisecond, and each random
// character is one byte of a pool refilled every 256 ids, taken modulo 32: unbiased, since 32
// divides 256. The ids are the same kind the ulid package makes (test/kernel-rules.test.ts checks
// the format; test/request-id.test.ts decodes the time).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const pool = new Uint8Array(4096);
let next = pool.length;
let encodedAt = -1;
let timePart = '';

function encodeTime(ms: number): string {
  let text = '';
  let rest = ms;
  for (let index = 0; index < 10; index++) {
    text = ALPHABET[rest % 32]! + text;
    rest = Math.floor(rest / 32);
  }
  return text;
}

export function newRequestId(now = Date.now()): string {
  if (now !== encodedAt) {
    encodedAt = now;
    timePart = encodeTime(now);
  }
  if (next + 16 > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  let id = timePart;
  for (let end = next + 16; next < end; next++) id += ALPHABET[pool[next]! & 31];
  return id;
}

export function requestId(): KernelMiddleware {
  // Not async: a middleware that only passes on returns next()'s promise instead of wrapping it.
  return function assignRequestId(ctx, next) {
    const given = ctx.req.headers['x-request-id'];
    const id = typeof given === 'string' && acceptable.test(given) ? given : newRequestId();
    ctx.state.requestId = id;
    ctx.state.headers.push('X-Request-Id', id);
    return next();
  };
}
