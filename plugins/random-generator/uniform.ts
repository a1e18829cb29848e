/**
 * Uniform random integers from node:crypto, without modulo bias. `crypto.randomInt` is unbiased but
 * stops at a range of 2^48 − 1; wider ranges (up to 2^54, the span of ±(2^53 − 1)) draw the bits in
 * two randomInt calls and reject candidates outside the range.
 */
import { randomInt } from 'node:crypto';

/** The widest range `crypto.randomInt` accepts (max − min ≤ 2^48 − 1). */
const RANDOM_INT_MAX_RANGE = 2 ** 48 - 1;
const LOW_BITS = 32;
const LOW_SPAN = 2 ** LOW_BITS;

/**
 * A uniform integer in [0, bound), for 1 ≤ bound ≤ 2^54.
 *
 * @param bound the number of possible values, as a BigInt because it may exceed 2^53.
 */
export function uniformBelow(bound: bigint): bigint {
  if (bound <= BigInt(RANDOM_INT_MAX_RANGE)) return BigInt(randomInt(Number(bound)));
  // Rejection over the fewest bits that cover bound − 1: each try succeeds with probability > 1/2,
  // so 100 tries fail with probability below 2^-100.
  const bits = (bound - 1n).toString(2).length;
  const highSpan = 2 ** (bits - LOW_BITS);
  for (;;) {
    const candidate = BigInt(randomInt(highSpan)) * BigInt(LOW_SPAN) + BigInt(randomInt(LOW_SPAN));
    if (candidate < bound) return candidate;
  }
}

/**
 * `count` distinct uniform offsets in [0, size), in random order: a partial Fisher–Yates shuffle of
 * the virtual array 0 … size − 1 that stores only the swapped slots, so it costs O(count) time and
 * memory however large `size` is.
 */
export function distinctOffsets(size: bigint, count: number): bigint[] {
  const swapped = new Map<bigint, bigint>();
  const offsets: bigint[] = [];
  for (let index = 0n; index < BigInt(count); index += 1n) {
    const chosen = index + uniformBelow(size - index);
    offsets.push(swapped.get(chosen) ?? chosen);
    swapped.set(chosen, swapped.get(index) ?? index);
  }
  return offsets;
}

/** A uniformly shuffled copy of `items` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = items.slice();
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    const held = copy[index];
    copy[index] = copy[other];
    copy[other] = held;
  }
  return copy;
}

/** `count` items at distinct positions of `items`, in random order (sampling without replacement). */
export function sample<T>(items: readonly T[], count: number): T[] {
  return distinctOffsets(BigInt(items.length), count).map((offset) => items[Number(offset)]);
}
