/** X-Request-Id: the client's value when it is safe to echo and log, otherwise a new ULID. */
import { randomFillSync } from 'node:crypto';
import type { KernelMiddleware } from '../types.js';

const acceptable = /^[A-Za-z0-9._-]{1,128}$/;

// A ULID (github.com/ulid/spec): 10 characters of millisecond time, 16 of randomness, in Crockford's
// base32. ulid's own generator encodes the time and draws the randomness character by character on
// every call, and its default source calls randomFillSync once per character (it showed in the
// benchmark's profile). Here the time part is encoded once per millisecond, and each random
// character is one byte of a pool refilled every 256 ids, taken modulo 32: unbiased, since 32
// divides 256. The 26 character codes make one string in one call: appended one by one, they made
// 16 strings on the way (about 700 bytes a request). The ids are the same kind the ulid package
// makes (test/kernel-rules.test.ts checks the format; test/request-id.test.ts decodes the time).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODES = Array.from(ALPHABET, (character) => character.charCodeAt(0));
const pool = new Uint8Array(4096);
let next = pool.length;
let encodedAt = -1;
/** The id's character codes: the time part's first, the random part's refilled for each id. */
const codes: number[] = new Array<number>(26).fill(0);

function encodeTime(ms: number): void {
  let rest = ms;
  for (let index = 9; index >= 0; index--) {
    codes[index] = CODES[rest % 32]!;
    rest = Math.floor(rest / 32);
  }
}

export function newRequestId(now = Date.now()): string {
  if (now !== encodedAt) {
    encodedAt = now;
    encodeTime(now);
  }
  if (next + 16 > pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  for (let index = 10; index < 26; index++) codes[index] = CODES[pool[next++]! & 31]!;
  return String.fromCharCode.apply(null, codes);
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
