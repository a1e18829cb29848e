import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EFF_LARGE_WORDLIST } from './eff-large-wordlist.data.js';

/** Index of a five-dice roll such as "64142" in dice order: its digits minus one, read in base 6. */
function indexOfRoll(roll: string): number {
  return [...roll].reduce((index, digit) => index * 6 + Number(digit) - 1, 0);
}

describe("EFF's large word list", () => {
  it('holds 7776 = 6^5 unique words, from "abacus" (11111) to "zoom" (66666)', () => {
    assert.equal(EFF_LARGE_WORDLIST.length, 7776);
    assert.equal(new Set(EFF_LARGE_WORDLIST).size, 7776);
    assert.equal(EFF_LARGE_WORDLIST[0], 'abacus');
    assert.equal(EFF_LARGE_WORDLIST[7775], 'zoom');
  });

  it('matches eff_large_wordlist.txt at sample dice rolls', () => {
    // Lines of the published file (https://www.eff.org/files/2016/07/18/eff_large_wordlist.txt).
    const lines: [string, string][] = [
      ['11111', 'abacus'],
      ['11112', 'abdomen'],
      ['64142', 'uniformed'],
      ['65232', 'upon'],
      ['66544', 'xbox'],
      ['66622', 'yo-yo'],
      ['66666', 'zoom'],
    ];
    for (const [roll, word] of lines) assert.equal(EFF_LARGE_WORDLIST[indexOfRoll(roll)], word, roll);
  });

  it('is sorted, lowercase ASCII of 3–9 letters, with exactly four hyphenated words', () => {
    assert.ok(EFF_LARGE_WORDLIST.every((word, index) => index === 0 || EFF_LARGE_WORDLIST[index - 1]! < word));
    assert.ok(EFF_LARGE_WORDLIST.every((word) => /^[a-z]+(-[a-z]+)?$/.test(word) && word.length >= 3 && word.length <= 9));
    assert.deepEqual(
      EFF_LARGE_WORDLIST.filter((word) => word.includes('-')),
      ['drop-down', 'felt-tip', 't-shirt', 'yo-yo'],
    );
  });

  it('cannot be changed at run time', () => {
    assert.ok(Object.isFrozen(EFF_LARGE_WORDLIST));
  });
});
