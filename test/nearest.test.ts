// The "did you mean" of configuration problems, on hand-worked distances.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { didYouMean, typoDistance } from '../kernel/host/nearest.js';

describe('typoDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    // kitten → sitten (k→s) → sittin (e→i) → sitting (+g): the textbook Levenshtein example.
    assert.equal(typoDistance('kitten', 'sitting'), 3);
    assert.equal(typoDistance('hots', 'host'), 1, 't and s swapped');
    assert.equal(typoDistance('', 'abc'), 3);
  });

  it('lets * match any run of characters at no cost', () => {
    assert.equal(typoDistance('*', 'hash-generator'), 0);
    assert.equal(typoDistance('hsh-*', 'hash-generator'), 1, 'an "a" inserted, then the star takes "generator"');
    assert.equal(typoDistance('*-converter', 'unit-converter'), 0);
  });
});

describe('didYouMean', () => {
  it('names a known name at most a third of the length away, else nothing', () => {
    assert.equal(didYouMean('hots', ['port', 'host']), '; did you mean "host"?');
    // "colour" is 6 letters: 2 edits allowed, and "color"-like keys are absent.
    assert.equal(didYouMean('colour', ['server', 'auth', 'log']), '');
  });
});
