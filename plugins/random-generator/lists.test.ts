/**
 * Dice, coins, pick, shuffle and teams. Statistical assertions use a fixed number of draws; the
 * failure probability of each for a correct generator is worked out beside it (all below 1e-9).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import random from './index.js';
import { MAX_OUTPUT_CHARS } from './lists.js';

const letters = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

async function call<T>(operation: string, body: Record<string, unknown>): Promise<T> {
  return (await invoke(random, operation, body)) as T;
}

const sorted = (items: readonly string[]): string[] => [...items].sort();

describe('random-generator: examples', () => {
  it('answers the examples of the deterministic cases exactly, and the random ones in shape', async () => {
    for (const name of ['pick', 'shuffle', 'teams'] as const) {
      for (const example of random.operations[name]!.examples) assert.deepEqual(await invoke(random, name, example.body), example.response);
    }
    const dice = await call<{ rolls: number[]; sum: number }>('dice', random.operations.dice!.examples[0]!.body);
    assert.equal(dice.rolls.length, 2);
    const coins = await call<{ flips: string[] }>('coins', random.operations.coins!.examples[0]!.body);
    assert.equal(coins.flips.length, 3);
  });
});

describe('random-generator.dice', () => {
  it('defaults to one six-sided die', async () => {
    const { rolls, sum } = await call<{ rolls: number[]; sum: number }>('dice', {});
    assert.equal(rolls.length, 1);
    assert.ok(rolls[0]! >= 1 && rolls[0]! <= 6);
    assert.equal(sum, rolls[0]);
  });

  it('reaches every face and sums the rolls', async () => {
    // 300 rolls of a d6: P(a face never shows) ≤ 6 · (5/6)^300 ≈ 1.1e-23.
    const seen = new Set<number>();
    for (let round = 0; round < 3; round += 1) {
      const { rolls, sum } = await call<{ rolls: number[]; sum: number }>('dice', { count: 100 });
      assert.equal(rolls.length, 100);
      assert.equal(sum, rolls.reduce((total, roll) => total + roll, 0));
      for (const roll of rolls) seen.add(roll);
    }
    assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6]);
  });

  it('handles the extreme sizes: 100 dice of 1000 sides, and 2 sides', async () => {
    const big = await call<{ rolls: number[] }>('dice', { count: 100, sides: 1000 });
    assert.ok(big.rolls.every((roll) => Number.isInteger(roll) && roll >= 1 && roll <= 1000));
    // 100 rolls of a d2: P(one face never shows) = 2 · 2^-100.
    const two = await call<{ rolls: number[] }>('dice', { count: 100, sides: 2 });
    assert.deepEqual([...new Set(two.rolls)].sort(), [1, 2]);
  });

  it('checks the bounds: count 1–100, sides 2–1000', async () => {
    await rejectsWith(call('dice', { count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(call('dice', { count: 101 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(call('dice', { sides: 1 }), 400, 'validation_failed', ['/sides']);
    await rejectsWith(call('dice', { sides: 1001 }), 400, 'validation_failed', ['/sides']);
    await rejectsWith(call('dice', { sides: 6.5 }), 400, 'validation_failed', ['/sides']);
  });
});

describe('random-generator.coins', () => {
  it('defaults to one coin', async () => {
    const { flips, heads, tails } = await call<{ flips: string[]; heads: number; tails: number }>('coins', {});
    assert.equal(flips.length, 1);
    assert.equal(heads + tails, 1);
  });

  it('counts heads and tails, and shows both sides in 1000 flips', async () => {
    const { flips, heads, tails } = await call<{ flips: string[]; heads: number; tails: number }>('coins', { count: 1000 });
    assert.equal(flips.length, 1000);
    assert.equal(heads, flips.filter((flip) => flip === 'heads').length);
    assert.equal(tails, flips.filter((flip) => flip === 'tails').length);
    // P(all 1000 flips alike) = 2 · 2^-1000. Binomial(1000, 1/2) has sd ≈ 15.8; outside 300–700 is 12.6 sd (< 1e-35).
    assert.ok(heads > 300 && heads < 700);
  });

  it('checks the bounds: count 1–1000', async () => {
    await rejectsWith(call('coins', { count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(call('coins', { count: 1001 }), 400, 'validation_failed', ['/count']);
  });
});

describe('random-generator.pick', () => {
  it('defaults to one item', async () => {
    const { picked } = await call<{ picked: string[] }>('pick', { items: letters });
    assert.equal(picked.length, 1);
    assert.ok(letters.includes(picked[0]!));
  });

  it('draws distinct items and reaches every item', async () => {
    // Each item is among 3 drawn of 10 with probability 3/10; missed by 200 draws: 0.7^200 ≈ 1.4e-31, ×10 items.
    const seen = new Set<string>();
    for (let round = 0; round < 200; round += 1) {
      const { picked } = await call<{ picked: string[] }>('pick', { items: letters, count: 3 });
      assert.equal(new Set(picked).size, 3);
      for (const item of picked) seen.add(item);
    }
    assert.deepEqual(sorted([...seen]), letters);
    const { picked } = await call<{ picked: string[] }>('pick', { items: letters, count: 10 });
    assert.deepEqual(sorted(picked), letters);
  });

  it('draws by position: a value listed twice can come out twice', async () => {
    assert.deepEqual(await call('pick', { items: ['x', 'x'], count: 2 }), { picked: ['x', 'x'] });
  });

  it('answers count above the number of items with 422 not_enough_items', async () => {
    await rejectsWith(call('pick', { items: letters, count: 11 }), 422, 'not_enough_items');
    await rejectsWith(call('pick', { items: [] }), 422, 'not_enough_items');
  });

  it('checks the bounds: count 1–10000, items required, strings only', async () => {
    const many = Array.from({ length: 10000 }, (_, index) => String(index));
    assert.equal((await call<{ picked: string[] }>('pick', { items: many, count: 10000 })).picked.length, 10000);
    await rejectsWith(call('pick', { items: letters, count: 0 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(call('pick', { items: many, count: 10001 }), 400, 'validation_failed', ['/count']);
    await rejectsWith(call('pick', {}), 400, 'validation_failed', ['/items']);
    await rejectsWith(call('pick', { items: ['a', 1] }), 400, 'validation_failed', ['/items/1']);
    await rejectsWith(call('pick', { items: 'abc' }), 400, 'validation_failed', ['/items']);
  });
});

describe('random-generator.shuffle', () => {
  it('returns a permutation and can put an item in every position', async () => {
    // 'a' lands in a given position with probability 1/10; missing it in 500 shuffles: 0.9^500 ≈ 1.3e-23, ×10 positions.
    const positions = new Set<number>();
    for (let round = 0; round < 500; round += 1) {
      const { items } = await call<{ items: string[] }>('shuffle', { items: letters });
      assert.deepEqual(sorted(items), letters);
      positions.add(items.indexOf('a'));
    }
    assert.equal(positions.size, 10);
  });

  it('shuffles an empty list and a single item', async () => {
    assert.deepEqual(await call('shuffle', { items: [] }), { items: [] });
    assert.deepEqual(await call('shuffle', { items: ['only'] }), { items: ['only'] });
  });
});

describe('random-generator.teams', () => {
  it('defaults to two teams whose sizes differ by at most one', async () => {
    const { teams } = await call<{ teams: string[][] }>('teams', { items: ['a', 'b', 'c', 'd', 'e'] });
    assert.deepEqual(teams.map((team) => team.length), [3, 2]);
    assert.deepEqual(sorted(teams.flat()), ['a', 'b', 'c', 'd', 'e']);
  });

  it('deals 10 items into 3 teams of 4, 3, 3 and leaves teams empty when items run out', async () => {
    const { teams } = await call<{ teams: string[][] }>('teams', { items: letters, teams: 3 });
    assert.deepEqual(teams.map((team) => team.length), [4, 3, 3]);
    assert.deepEqual(sorted(teams.flat()), letters);
    const few = await call<{ teams: string[][] }>('teams', { items: ['a', 'b'], teams: 5 });
    assert.deepEqual(few.teams.map((team) => team.length), [1, 1, 0, 0, 0]);
    assert.deepEqual(await call('teams', { items: [], teams: 2 }), { teams: [[], []] });
    assert.deepEqual(sorted((await call<{ teams: string[][] }>('teams', { items: letters, teams: 1 })).teams[0]!), letters);
  });

  it('shuffles the members: "a" reaches both teams', async () => {
    // P("a" in the same team all 200 times) = 2 · 2^-200.
    const homes = new Set<number>();
    for (let round = 0; round < 200; round += 1) {
      const { teams } = await call<{ teams: string[][] }>('teams', { items: ['a', 'b', 'c', 'd'] });
      homes.add(teams.findIndex((team) => team.includes('a')));
    }
    assert.deepEqual([...homes].sort(), [0, 1]);
  });

  it('checks the bounds: teams 1–1000', async () => {
    assert.equal((await call<{ teams: string[][] }>('teams', { items: letters, teams: 1000 })).teams.length, 1000);
    await rejectsWith(call('teams', { items: letters, teams: 0 }), 400, 'validation_failed', ['/teams']);
    await rejectsWith(call('teams', { items: letters, teams: 1001 }), 400, 'validation_failed', ['/teams']);
    await rejectsWith(call('teams', { teams: 2 }), 400, 'validation_failed', ['/items']);
  });
});

describe('random-generator: hostile input', () => {
  it('refuses a 10 MB list with 422 output_too_large, quickly', async () => {
    // Five items of 2 MB: 10M characters of answer, ten times the cap. (A list of 2.5 million short
    // items is refused the same way; over HTTP it takes about 2 s, nearly all of it JSON parsing and
    // the SDK filling defaults into the array, so it is measured outside this suite.)
    const items = Array.from({ length: 5 }, (_, index) => String(index).repeat(2_000_000));
    const bodies: [string, Record<string, unknown>][] = [
      ['shuffle', { items }],
      ['teams', { items, teams: 1000 }],
      ['pick', { items, count: 5 }],
    ];
    for (const [operation, body] of bodies) {
      const started = performance.now();
      await rejectsWith(call(operation, body), 422, 'output_too_large');
      assert.ok(performance.now() - started < HANG_GUARD_MS, `${operation} took too long`);
    }
  });

  it('refuses teams just over the cap', async () => {
    const items = Array.from({ length: MAX_OUTPUT_CHARS / 4 + 1 }, () => 'a'); // (1 + 3) characters each
    await rejectsWith(call('teams', { items }), 422, 'output_too_large');
  });

  it('caps the picked items too: 200 items of 10000 characters are 2 MB', async () => {
    const items = Array.from({ length: 200 }, (_, index) => String(index).padEnd(10000, '.'));
    await rejectsWith(call('pick', { items, count: 200 }), 422, 'output_too_large');
    assert.equal((await call<{ picked: string[] }>('pick', { items, count: 50 })).picked.length, 50);
  });

  it('shuffles a list just under the cap in well under a second', async () => {
    const count = Math.floor(MAX_OUTPUT_CHARS / 4); // one-letter items cost 1 + 3 characters
    const items = Array.from({ length: count }, (_, index) => String.fromCharCode(97 + (index % 26)));
    const started = performance.now();
    const { items: shuffledItems } = await call<{ items: string[] }>('shuffle', { items });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    assert.equal(shuffledItems.length, count);
  });

  it('passes lone surrogates and odd Unicode through untouched', async () => {
    const odd = ['\uD800', '\uDFFF', 'e\u0301', '👩‍👩‍👧', '\u0000', ''];
    assert.deepEqual(sorted((await call<{ items: string[] }>('shuffle', { items: odd })).items), sorted(odd));
    assert.deepEqual(sorted((await call<{ picked: string[] }>('pick', { items: odd, count: 6 })).picked), sorted(odd));
  });
});
