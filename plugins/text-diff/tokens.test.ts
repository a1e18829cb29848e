import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { align, WorkBudget } from './align.js';
import { chars, commonEnds, countLines, foldCase, isWhitespace, splitLines, textKey, words } from './tokens.js';

describe('text-diff tokens', () => {
  it('splits lines at \\r\\n and \\n only; "a\\n" has an empty second line; "" has none', () => {
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('a'), ['a']);
    assert.deepEqual(splitLines('a\n'), ['a', '']);
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a', 'b', 'c']);
    assert.deepEqual(splitLines('a\rb\r'), ['a\rb\r']); // a lone CR ends no line
    assert.deepEqual(splitLines('\r\n'), ['', '']);
    for (const text of ['', 'a', 'a\n', 'a\r\nb\nc', '\n\n']) assert.equal(countLines(text), splitLines(text).length, JSON.stringify(text));
  });

  it('cuts words, whitespace runs, newlines and single other code points', () => {
    assert.deepEqual(words.tokens('Hello,  wörld\r\n42_x 👍🏽'), ['Hello', ',', '  ', 'wörld', '\r\n', '42_x', ' ', '👍', '🏽']);
    assert.deepEqual(words.tokens('e\u0301t\u00e9'), ['e\u0301t\u00e9']); // combining marks stay in the word
    assert.deepEqual(words.tokens(''), []);
    assert.deepEqual(chars.tokens('a👍\ud800'), ['a', '👍', '\ud800']);
  });

  it('treats a token as whitespace by JavaScript\'s \\s', () => {
    for (const token of [' ', '\t', '\r\n', '\u00a0', '\u3000', '\ufeff']) assert.equal(isWhitespace(token), true, JSON.stringify(token));
    for (const token of ['a', '_', '\u200b', '']) assert.equal(isWhitespace(token), false, JSON.stringify(token));
  });

  it('folds case per code point, the Greek final sigma included', () => {
    assert.equal(foldCase('ΟΔΟΣ'), 'οδοσ'); // toLowerCase alone gives "οδος"
    assert.equal(foldCase('οδος'), 'οδοσ');
    assert.equal(foldCase('Straße'), 'straße');
    assert.equal(textKey(' A b\tC ', { ignoreCase: true, ignoreWhitespace: true }), 'abc');
    assert.equal(textKey(' A b ', { ignoreCase: false, ignoreWhitespace: false }), ' A b ');
  });

  it('finds common ends on token boundaries of both texts', () => {
    // "the quick " (10) is common and ends before a word in both; " fox" (4) likewise.
    assert.deepEqual(commonEnds('the quick brown fox', 'the quick red fox', words), [10, 4]);
    // "ab" is common but cuts the words "abcd"/"abxd"; "d" likewise: no cut at all.
    assert.deepEqual(commonEnds('abcd', 'abxd', words), [0, 0]);
    // "foo " is common, but in "foo  bar" it would split the double space: back to 3; same for " bar".
    assert.deepEqual(commonEnds('foo bar', 'foo  bar', words), [3, 3]);
    // 👍 is D83D DC4D, 👎 is D83D DC4E: the shared high surrogate is not a place to cut.
    assert.deepEqual(commonEnds('a👍b', 'a👎b', chars), [1, 1]);
    assert.deepEqual(commonEnds('same', 'same', chars), [4, 0]);
  });
});

describe('text-diff alignment', () => {
  it('returns runs of kept, removed and added keys around the common ends', () => {
    assert.deepEqual(align(['a', 'b', 'c'], ['a', 'b', 'c'], new WorkBudget()), [{ kind: 'same', count: 3 }]);
    assert.deepEqual(align(['a', 'x', 'c'], ['a', 'c'], new WorkBudget()), [
      { kind: 'same', count: 1 },
      { kind: 'del', count: 1 },
      { kind: 'same', count: 1 },
    ]);
    assert.deepEqual(align([], ['a'], new WorkBudget()), [{ kind: 'add', count: 1 }]);
    assert.deepEqual(align(['a', 'b'], ['c', 'b'], new WorkBudget()), [
      { kind: 'del', count: 1 },
      { kind: 'add', count: 1 },
      { kind: 'same', count: 1 },
    ]);
  });

  it('sets keys found on one side only aside, and writes removals before additions in a gap', () => {
    // x, y and z occur on one side only; "a" is the one common key.
    assert.deepEqual(align(['x', 'a', 'y'], ['a', 'z'], new WorkBudget()), [
      { kind: 'del', count: 1 },
      { kind: 'same', count: 1 },
      { kind: 'del', count: 1 },
      { kind: 'add', count: 1 },
    ]);
    // No common key: everything removed, then everything added, without a diff.
    assert.deepEqual(align(['a', 'b', 'c'], ['d', 'e'], new WorkBudget()), [{ kind: 'del', count: 3 }, { kind: 'add', count: 2 }]);
    // a b c d / a c b d: the common ends are a and d; the middle b c / c b keeps one of them.
    const runs = align(['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd'], new WorkBudget());
    assert.equal(runs.filter((run) => run.kind === 'same').reduce((sum, run) => sum + run.count, 0), 3);
    assert.equal(runs.filter((run) => run.kind === 'del').reduce((sum, run) => sum + run.count, 0), 1);
  });

  it('counts work, not time: a diff gets the edit distance the budget pays for, then the budget is spent', () => {
    // b a / a b: 4 keys; the shortest script needs 2 edits (one removal, one addition).
    // With 7 units, at most floor(7 / 4) = 1 edit is allowed: too few, refused.
    assert.throws(() => align(['b', 'a'], ['a', 'b'], new WorkBudget(7)), { status: 422, code: 'diff_too_complex' });
    // With 10 units, floor(10 / 4) = 2 edits fit; the diff costs 4·2 + 2² = 12 units, more than was left.
    const budget = new WorkBudget(10);
    const runs = align(['b', 'a'], ['a', 'b'], budget);
    assert.equal(runs.filter((run) => run.kind === 'same').reduce((sum, run) => sum + run.count, 0), 1);
    assert.throws(() => align(['b', 'a'], ['a', 'b'], budget), { status: 422, code: 'diff_too_complex' });
    // Common ends and keys found on one side only need no diff, so they cost nothing.
    assert.deepEqual(align(['a'], ['a', 'b'], budget), [{ kind: 'same', count: 1 }, { kind: 'add', count: 1 }]);
    assert.deepEqual(align(['a'], ['b'], budget), [{ kind: 'del', count: 1 }, { kind: 'add', count: 1 }]);
  });
});
