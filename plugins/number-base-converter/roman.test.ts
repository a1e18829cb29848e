import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import numberBase from './index.js';
import { fromRoman, toRoman } from './roman.js';

const roman = (body: unknown): Promise<unknown> => invoke(numberBase, 'roman', body);

/** Asserts a 422 invalid_roman. */
async function invalidRoman(value: string): Promise<void> {
  await assert.rejects(roman({ value }), (error: { status?: number; code?: string }) => {
    assert.deepEqual([error.status, error.code], [422, 'invalid_roman'], value);
    return true;
  });
}

/** Asserts a 400 whose details name `path`. */
async function rejectsField(body: unknown, path: string): Promise<void> {
  await assert.rejects(roman(body), (error: { status?: number; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

// Worked by hand: M=1000, CM=900, D=500, CD=400, C=100, XC=90, L=50, XL=40, X=10, IX=9, V=5, IV=4, I=1.
const pairs: [number, string][] = [
  [1, 'I'],
  [4, 'IV'],
  [9, 'IX'],
  [14, 'XIV'],
  [40, 'XL'],
  [90, 'XC'],
  [400, 'CD'],
  [900, 'CM'],
  [1994, 'MCMXCIV'], // 1000 + 900 + 90 + 4
  [2024, 'MMXXIV'],
  [3888, 'MMMDCCCLXXXVIII'], // the longest numeral: 15 letters
  [3999, 'MMMCMXCIX'], // 3000 + 900 + 90 + 9
];

describe('number-base-converter.roman', () => {
  it('writes numbers as canonical uppercase numerals, both fields present', async () => {
    for (const [number, numeral] of pairs) assert.deepEqual(await roman({ value: number }), { number, roman: numeral });
  });

  it('reads numerals in any case and answers the canonical uppercase form', async () => {
    for (const [number, numeral] of pairs) {
      assert.deepEqual(await roman({ value: numeral }), { number, roman: numeral });
      assert.deepEqual(await roman({ value: numeral.toLowerCase() }), { number, roman: numeral });
    }
    assert.deepEqual(await roman({ value: 'MmXxIv' }), { number: 2024, roman: 'MMXXIV' });
    assert.deepEqual(await roman({ value: ' xiv\n' }), { number: 14, roman: 'XIV' });
  });

  it('refuses non-canonical numerals with 422 invalid_roman', async () => {
    for (const value of ['IIII', 'VX', 'IC', 'MMMM', 'VV', 'IIV', 'XM', 'LL', 'DD', 'IL', 'XD', 'IM', 'XXXX', 'CCCC', 'VIV', 'IXI']) {
      await invalidRoman(value);
    }
  });

  it('refuses text that is no numeral: digits as a string, Unicode Roman letters, dotless i, whitespace', async () => {
    for (const value of ['14', 'Ⅻ', 'ⅰ', 'ı', ' ', 'X I V', 'N', 'nulla', '\ud800', 'I'.repeat(20)]) await invalidRoman(value);
  });

  it('accepts the bounds just inside and refuses just outside', async () => {
    assert.deepEqual(await roman({ value: 1 }), { number: 1, roman: 'I' });
    assert.deepEqual(await roman({ value: 3999 }), { number: 3999, roman: 'MMMCMXCIX' });
    await rejectsField({ value: 0 }, '/value');
    await rejectsField({ value: 4000 }, '/value');
    await rejectsField({ value: -1 }, '/value');
    await rejectsField({ value: 1.5 }, '/value');
    await rejectsField({ value: '' }, '/value');
    await rejectsField({ value: 'I'.repeat(21) }, '/value');
  });

  it('refuses hostile and wrong-typed values with 400', async () => {
    await rejectsField({}, '/value');
    await rejectsField({ value: null }, '/value');
    await rejectsField({ value: true }, '/value');
    await rejectsField({ value: ['X'] }, '/value');
    await rejectsField({ value: 1e308 }, '/value');
    await rejectsField({ value: 'M'.repeat(10_000_000) }, '/value');
    await rejectsField({ value: 'X', extra: 1 }, '/extra');
  });

  it('round-trips every number from 1 to 3999 to a distinct numeral (pure functions, for speed)', () => {
    const seen = new Set<string>();
    for (let number = 1; number <= 3999; number += 1) {
      const numeral = toRoman(number);
      seen.add(numeral);
      assert.equal(fromRoman(numeral), number);
    }
    assert.equal(seen.size, 3999);
  });
});
