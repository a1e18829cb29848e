import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { MAX_EDIT_DISTANCE, WorkBudget } from './align.js';
import { CHAR_FLOOR_FROM_UNITS, refuseHopelessCharDiff } from './char-floor.js';
import { compareTokens } from './parts.js';
import { chars, type CompareOptions } from './tokens.js';

/** diff_too_complex, or undefined when `run` returns. */
function refusal(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    assert.ok(isToolshedError(error), String(error));
    return error.code;
  }
}

/** Counts the calls of chars.tokens while `run` runs: the tokens align() needs are made there. */
function tokensMade(run: () => unknown): number {
  const made = chars.tokens;
  let calls = 0;
  chars.tokens = (text) => (calls++, made(text));
  try {
    refusal(run);
  } finally {
    chars.tokens = made;
  }
  return calls;
}

describe('the floor of a character diff', () => {
  // Case pairs (ς and σ fold together, İ folds to two code points), whitespace, an astral code
  // point and both lone surrogates: every way a key is made.
  const alphabet = ['a', 'A', 'b', 'B', ' ', '\n', '\u00a0', 'ς', 'σ', 'Σ', 'İ', 'i', '\u0307', 'é', '😀', '\ud800', '\udc00'];
  const optionSets: CompareOptions[] = [
    { ignoreCase: false, ignoreWhitespace: false },
    { ignoreCase: true, ignoreWhitespace: false },
    { ignoreCase: false, ignoreWhitespace: true },
    { ignoreCase: true, ignoreWhitespace: true },
  ];

  it('refuses only what align() refuses: 3,000 seeded pairs under every option, with small budgets and spent ones', () => {
    let seed = 7;
    const next = (below: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % below;
    };
    const text = (): string => Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]!).join('');
    // Half the pairs are one text and a few edits of it: long common ends, floors near the distance.
    const edited = (from: string): string => {
      const units = [...from];
      for (let edits = next(4); edits >= 0; edits--) units.splice(next(units.length + 1), next(2), ...(next(2) === 0 ? [alphabet[next(alphabet.length)]!] : []));
      return units.join('');
    };
    let refused = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const left = text();
      const [right, options, units] = [trial % 2 === 0 ? text() : edited(left), optionSets[trial % 4]!, next(400)];
      const byFloor = refusal(() => refuseHopelessCharDiff(left, right, options, new WorkBudget(units)));
      if (byFloor === undefined) continue;
      refused++;
      assert.equal(byFloor, 'diff_too_complex');
      // These texts are under the floor's size: compareTokens runs align() alone.
      assert.equal(refusal(() => compareTokens(left, right, chars, options, new WorkBudget(units))), 'diff_too_complex', JSON.stringify({ left, right, options, units }));
    }
    assert.ok(refused >= 300, `the floor refused ${refused} pairs: too few to say anything`);
  });

  it('refuses nothing align() answers without a diff, whatever budget is left', () => {
    const plain = { ignoreCase: false, ignoreWhitespace: false };
    const spent = new WorkBudget(0);
    // No key on both sides: align() sets them all aside.
    assert.equal(refusal(() => refuseHopelessCharDiff('ab', 'cd', plain, spent)), undefined);
    // The same keys, once case is folded: cut off as common ends, nothing is left to diff.
    assert.equal(refusal(() => refuseHopelessCharDiff('Aaa', 'aAa', { ignoreCase: true, ignoreWhitespace: false }, new WorkBudget(3))), undefined);
    assert.equal(refusal(() => refuseHopelessCharDiff('aB', 'Ab', { ignoreCase: true, ignoreWhitespace: true }, spent)), undefined);
    // Nothing left on one side, with more keys on the other than align() sets aside: no diff either.
    assert.equal(refusal(() => refuseHopelessCharDiff('a'.repeat(10), `${'a'.repeat(10)}${'b'.repeat(2_600_000)}`, plain, new WorkBudget())), undefined);
    // The common ends never overlap: 'ab' is cut off once, as a beginning, not again as an end.
    assert.equal(refusal(() => refuseHopelessCharDiff('ab', `ab${'c'.repeat(2_600_000)}ab`, plain, new WorkBudget())), undefined);
  });

  it('takes the keys it counts as align() does: their common ends cut off, which gives a diff its budget', () => {
    // 'ab' against 'ba' needs two edits; with 100 c's around them as common ends, 4 keys are
    // diffed and a budget of 10 allows 2 edits, where 204 keys would allow none.
    const plain = { ignoreCase: false, ignoreWhitespace: false };
    const around = 'c'.repeat(100);
    for (const [left, right] of [[`ab${around}`, `ba${around}`], [`${around}ab`, `${around}ba`]] as const) {
      assert.equal(refusal(() => compareTokens(left, right, chars, plain, new WorkBudget(10))), undefined);
      assert.equal(refusal(() => refuseHopelessCharDiff(left, right, plain, new WorkBudget(10))), undefined);
    }
  });

  it('refuses two different 3.5 MB lines before a token is made', () => {
    const words = (count: number, from: number): string => Array.from({ length: count }, (_, index) => `w${(index + from).toString(36)}`).join(' ');
    const [left, right] = [words(500_000, 0), words(500_000, 250_000)];
    assert.ok(left.length + right.length > CHAR_FLOOR_FROM_UNITS);
    const options = { ignoreCase: true, ignoreWhitespace: true };
    assert.equal(tokensMade(() => assert.throws(() => compareTokens(left, right, chars, options, new WorkBudget()), { code: 'diff_too_complex' })), 0);
  });

  it('counts keys found on one side only when align() would not set them aside (over 2.5 M keys)', () => {
    // 4,002 keys no alignment can match past 2.6 million that all match: align() diffs all of them
    // (too many to set any aside), so the distance is at least 4,002, past the 3,000 any diff may reach.
    const left = `x${'a'.repeat(1_300_000)}${'b'.repeat(4000)}`;
    const right = `y${'a'.repeat(1_300_000)}z`;
    assert.ok(4002 > MAX_EDIT_DISTANCE);
    const plain = { ignoreCase: false, ignoreWhitespace: false };
    assert.equal(tokensMade(() => assert.throws(() => compareTokens(left, right, chars, plain, new WorkBudget()), { code: 'diff_too_complex' })), 0);
    // Nothing left on one side once the common ends are cut off: align() runs no diff at all.
    assert.equal(refusal(() => refuseHopelessCharDiff('a'.repeat(1_300_000), `${'a'.repeat(1_300_000)}${'b'.repeat(4000)}`, plain, new WorkBudget())), undefined);
    // Under 2.5 M keys, x, y, z and the b's are set aside and the rest matches: answered, not refused.
    const [shortLeft, shortRight] = [left.slice(0, 1_000_000) + left.slice(-4000), right.slice(0, 1_000_000) + 'z'];
    assert.equal(refusal(() => compareTokens(shortLeft, shortRight, chars, plain, new WorkBudget())), undefined);
  });
});
