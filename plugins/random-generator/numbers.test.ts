/**
 * Statistical tests use a fixed number of draws and bounds whose failure probability for a correct
 * generator is worked out next to each assertion; every one is below 1e-9.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import random from './index.js';

const SAFE = 9007199254740991; // 2^53 − 1

async function numbers(body: Record<string, unknown>): Promise<number[]> {
  return ((await invoke(random, 'numbers', body)) as { numbers: number[] }).numbers;
}

describe('random-generator.numbers', () => {
  it('answers the manifest example exactly', async () => {
    const example = random.operations.numbers!.examples[0]!;
    assert.deepEqual(await invoke(random, 'numbers', example.body), example.response);
  });

  it('defaults to one integer in 1–100', async () => {
    const drawn = await numbers({});
    assert.equal(drawn.length, 1);
    assert.ok(Number.isInteger(drawn[0]) && drawn[0]! >= 1 && drawn[0]! <= 100);
  });

  it('reaches every value of 1–100 in 10000 draws', async () => {
    // P(a given value is missing) = 0.99^10000 ≈ 2.2e-44; for any of 100 values ≤ 2.2e-42.
    const drawn = await numbers({ count: 10000 });
    assert.equal(drawn.length, 10000);
    assert.deepEqual([...new Set(drawn)].sort((a, b) => a - b), Array.from({ length: 100 }, (_, index) => index + 1));
  });

  it('uses the whole span of ±(2^53 − 1), not just the 2^48 that crypto.randomInt covers', async () => {
    const drawn = await numbers({ min: -SAFE, max: SAFE, count: 10000 });
    assert.ok(drawn.every((value) => Number.isSafeInteger(value)));
    // Each draw is above 2^52 with probability ≈ 1/4 and below −2^52 with ≈ 1/4; missing either
    // side in 10000 draws has probability 2 · 0.75^10000 ≈ 10^-1249. A sampler confined to
    // [min, min + 2^48) would never leave the bottom end.
    assert.ok(drawn.some((value) => value > 2 ** 52));
    assert.ok(drawn.some((value) => value < -(2 ** 52)));
  });

  it('has no modulo bias on the wide path (range ≈ 2/3 · 2^53)', async () => {
    // n = 6004799503160661 ≈ (2/3)·2^53. A 53-bit draw taken mod n would make values below
    // 2^53 − n = 3002399751580331 (about half the range) twice as likely: 2/3 of the draws instead of 1/2.
    // Unbiased: the count below 3002399751580330 is Binomial(10000, 1/2), mean 5000, sd 50;
    // |count − 5000| ≥ 400 is 8 sd: probability ≈ 1.2e-15. Biased: ≈ 6667.
    const drawn = await numbers({ min: 0, max: 6004799503160660, count: 10000 });
    const below = drawn.filter((value) => value < 3002399751580330).length;
    assert.ok(below > 4600 && below < 5400, `${below} of 10000 below the middle`);
  });

  it('has no modulo bias on the narrow path (range ≈ 2/3 · 2^32)', async () => {
    // Same argument with n = 2863311531 ≈ (2/3)·2^32 and a 32-bit draw mod n: 8 sd, ≈ 1.2e-15.
    const drawn = await numbers({ min: 0, max: 2863311530, count: 10000 });
    const below = drawn.filter((value) => value < 1431655765).length;
    assert.ok(below > 4600 && below < 5400, `${below} of 10000 below the middle`);
  });

  it('answers a range of one value with that value', async () => {
    assert.deepEqual(await numbers({ min: SAFE, max: SAFE, count: 3 }), [SAFE, SAFE, SAFE]);
    assert.deepEqual(await numbers({ min: -SAFE, max: -SAFE }), [-SAFE]);
  });

  it('draws unique numbers: count equal to the range size is a permutation, in random order', async () => {
    const drawn = await numbers({ min: 1, max: 10000, count: 10000, unique: true });
    const sorted = [...drawn].sort((a, b) => a - b);
    assert.deepEqual(sorted, Array.from({ length: 10000 }, (_, index) => index + 1));
    // Probability that a uniform permutation of 10000 comes out sorted: 1/10000!.
    assert.notDeepEqual(drawn, sorted);
  });

  it('draws 10000 unique numbers from the widest range quickly', async () => {
    const started = performance.now();
    const drawn = await numbers({ min: -SAFE, max: SAFE, count: 10000, unique: true });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    assert.equal(new Set(drawn).size, 10000);
  });

  it('sorts ascending when asked', async () => {
    const drawn = await numbers({ min: -50, max: 50, count: 1000, sort: true });
    assert.ok(drawn.every((value, index) => index === 0 || drawn[index - 1]! <= value));
    assert.deepEqual(await numbers({ min: 1, max: 10, count: 10, unique: true, sort: true }), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('answers unique with count above the range size at once with 422 range_too_small', async () => {
    const started = performance.now();
    await rejectsWith(numbers({ min: 1, max: 9999, count: 10000, unique: true }), 422, 'range_too_small');
    await rejectsWith(numbers({ min: 5, max: 5, count: 2, unique: true }), 422, 'range_too_small');
    // A guard, not a speed figure: without the check the draw would look for a 10,000th distinct number for ever.
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    // Without unique, repeats are fine.
    assert.deepEqual(await numbers({ min: 5, max: 5, count: 2 }), [5, 5]);
  });

  it('refuses min > max with 400 naming both', async () => {
    await rejectsWith(numbers({ min: 2, max: 1 }), 400, 'validation_failed', ['/min', '/max']);
    await rejectsWith(numbers({ min: 101 }), 400, 'validation_failed', ['/min', '/max']); // against the default max
  });

  it('checks the bounds: ±(2^53 − 1), count 1–10000, integers only', async () => {
    await rejectsWith(numbers({ min: -SAFE - 1 }), 400, 'validation_failed', ['/min']);
    await rejectsWith(numbers({ max: SAFE + 1 }), 400, 'validation_failed', ['/max']);
    await rejectsWith(numbers({ count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(numbers({ count: 10001 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(numbers({ count: 1.5 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(numbers({ min: 1.5 }), 400, 'validation_failed', ['/min']);
    await rejectsWith(numbers({ max: '100' }), 400, 'validation_failed', ['/max']);
    await rejectsWith(numbers({ unique: 'yes' }), 400, 'validation_failed', ['/unique']);
    await rejectsWith(numbers({ sort: 1 }), 400, 'validation_failed', ['/sort']);
    await rejectsWith(numbers({ seed: 1 }), 400, 'validation_failed', ['/seed']);
  });

  it('refuses extreme numbers with 400, never a wrong answer', async () => {
    await rejectsWith(numbers({ min: -1e308, max: 1e308 }), 400, 'validation_failed', ['/min', '/max']);
    await rejectsWith(numbers({ count: 1e308 }), 400, 'validation_failed', ['/count']);
  });
});
