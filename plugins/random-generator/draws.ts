/** Random numbers, dice and coins. */
import { InputError, UnprocessableError } from '@toolshed/plugin-sdk';
import { distinctOffsets, uniformBelow } from './uniform.js';

/**
 * `count` uniform integers in [min, max] (bounds within ±(2^53 − 1)), distinct when `unique`,
 * ascending when `sort`.
 *
 * @throws InputError naming /min and /max when min > max.
 * @throws UnprocessableError `range_too_small` when `unique` asks for more numbers than the range holds.
 */
export function randomNumbers(min: number, max: number, count: number, unique: boolean, sort: boolean): number[] {
  if (min > max) {
    throw new InputError('min must not be greater than max', [
      { path: '/min', message: 'must not be greater than max' },
      { path: '/max', message: 'must not be less than min' },
    ]);
  }
  // Up to 2^54 − 1 values: beyond the doubles' exact integers, hence BigInt.
  const size = BigInt(max) - BigInt(min) + 1n;
  if (unique && BigInt(count) > size) {
    throw new UnprocessableError('range_too_small', `The range holds ${size} distinct numbers, fewer than count (${count})`);
  }
  const offsets = unique ? distinctOffsets(size, count) : Array.from({ length: count }, () => uniformBelow(size));
  const numbers = offsets.map((offset) => Number(BigInt(min) + offset));
  return sort ? numbers.sort((a, b) => a - b) : numbers;
}

/** `count` rolls of a die with `sides` faces (1 … sides) and their sum. */
export function rollDice(count: number, sides: number): { rolls: number[]; sum: number } {
  const rolls = Array.from({ length: count }, () => 1 + Number(uniformBelow(BigInt(sides))));
  return { rolls, sum: rolls.reduce((total, roll) => total + roll, 0) };
}

/** `count` fair coin flips and the number of each side. */
export function flipCoins(count: number): { flips: ('heads' | 'tails')[]; heads: number; tails: number } {
  const flips = Array.from({ length: count }, () => (uniformBelow(2n) === 0n ? ('heads' as const) : ('tails' as const)));
  const heads = flips.filter((flip) => flip === 'heads').length;
  return { flips, heads, tails: count - heads };
}
