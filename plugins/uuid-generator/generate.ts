/**
 * Generation of v4 and v7 UUIDs and ULIDs, and their text formatting. Pure apart from the random
 * source, which the v7 generator takes as a parameter so tests can make its output exact.
 */
import { randomUUID, getRandomValues } from 'node:crypto';
import { monotonicFactory } from 'ulid';

export type IdType = 'v4' | 'v7' | 'ulid';

export interface FormatOptions {
  uppercase: boolean;
  hyphens: boolean;
  braces: boolean;
}

/** Fills a fresh array of `size` random bytes. */
export type RandomBytes = (size: number) => Uint8Array;

const cryptoBytes: RandomBytes = (size) => getRandomValues(new Uint8Array(size));

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const MAX_UNIX_MS = 2 ** 48 - 1;
const COUNTER_MAX = 0xfff;
const RAND_B_BYTES = 8;

function hyphenated(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text += '-';
    text += HEX[bytes[index]!];
  }
  return text;
}

/**
 * `count` UUIDv7 (RFC 9562 §5.7) for the Unix time `nowMs`, strictly increasing. Monotonicity
 * follows RFC 9562 §6.2 Method 1 (fixed-length dedicated counter): the 12 bits of rand_a are a
 * counter, seeded at random with its top bit clear (so at least 2048 increments fit before a
 * rollover) and incremented by one per id; rand_b stays random for every id. On a counter
 * rollover the timestamp is moved one millisecond ahead and the counter reseeded, as §6.2 allows.
 * With at most 1000 ids per response a rollover never happens in practice.
 */
export function generateV7(nowMs: number, count: number, random: RandomBytes = cryptoBytes): string[] {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0 || nowMs > MAX_UNIX_MS) {
    throw new Error('the clock is outside the 48-bit range of UUIDv7');
  }
  const pool = random(count * RAND_B_BYTES + 2 * count);
  let poolIndex = 0;
  const nextSeed = (): number => {
    const seed = ((pool[poolIndex]! << 8) | pool[poolIndex + 1]!) & 0x7ff;
    poolIndex += 2;
    return seed;
  };
  let unixMs = nowMs;
  let counter = nextSeed();
  const ids: string[] = [];
  const bytes = new Uint8Array(16);
  for (let n = 0; n < count; n++) {
    if (n > 0 && ++counter > COUNTER_MAX) {
      unixMs += 1;
      counter = nextSeed();
    }
    // 48-bit big-endian milliseconds: split because bit operators work on 32 bits.
    const high = Math.floor(unixMs / 2 ** 32);
    const low = unixMs >>> 0;
    bytes[0] = (high >>> 8) & 0xff;
    bytes[1] = high & 0xff;
    bytes[2] = low >>> 24;
    bytes[3] = (low >>> 16) & 0xff;
    bytes[4] = (low >>> 8) & 0xff;
    bytes[5] = low & 0xff;
    bytes[6] = 0x70 | (counter >>> 8);
    bytes[7] = counter & 0xff;
    bytes.set(pool.subarray(poolIndex, poolIndex + RAND_B_BYTES), 8);
    poolIndex += RAND_B_BYTES;
    bytes[8] = 0x80 | (bytes[8]! & 0x3f);
    ids.push(hyphenated(bytes));
  }
  return ids;
}

/**
 * `count` ULIDs from a monotonic factory made for this response, so they are strictly increasing
 * and carry the handler clock's time. A factory per call (not one per process) keeps each answer
 * a function of the injected clock.
 */
export function generateUlids(nowMs: number, count: number): string[] {
  // The library treats a seed of 0 as "no seed" and reads Date.now(); 1970-01-01T00:00:00.000Z is
  // not a clock a server has, so the only effect is that no test may use it.
  const next = monotonicFactory();
  return Array.from({ length: count }, () => next(nowMs));
}

export function formatUuid(uuid: string, options: FormatOptions): string {
  let text = options.hyphens ? uuid : uuid.replaceAll('-', '');
  if (options.uppercase) text = text.toUpperCase();
  return options.braces ? `{${text}}` : text;
}

/** The issue applies `uppercase` to every type: ULIDs are lowercased unless it is set. */
export function formatUlid(ulid: string, options: FormatOptions): string {
  return options.uppercase ? ulid.toUpperCase() : ulid.toLowerCase();
}

export function generateIds(type: IdType, count: number, nowMs: number, options: FormatOptions): string[] {
  if (type === 'ulid') return generateUlids(nowMs, count).map((id) => formatUlid(id, options));
  const uuids = type === 'v7' ? generateV7(nowMs, count) : Array.from({ length: count }, () => randomUUID());
  return uuids.map((id) => formatUuid(id, options));
}
