import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, workerJobRecorder, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import numberBase, { INLINE_LIMIT } from './index.js';
import { digitsToBigInt, parseInteger } from './parse.js';

interface Converted {
  results: Record<string, string>;
  twosComplement: Record<string, string | null>;
}

const convert = async (body: unknown): Promise<Converted> => (await invoke(numberBase, 'convert', body)) as Converted;
const results = async (body: unknown): Promise<Record<string, string>> => (await convert(body)).results;

/** Asserts a 422 invalid_number. */
async function invalid(body: unknown): Promise<void> {
  await assert.rejects(convert(body), (error: { status?: number; code?: string }) => {
    assert.deepEqual([error.status, error.code], [422, 'invalid_number'], JSON.stringify(body).slice(0, 80));
    return true;
  });
}

/** Asserts a 400 whose details name `path`. */
async function rejectsField(body: unknown, path: string): Promise<void> {
  await assert.rejects(convert(body), (error: { status?: number; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

/** Horner's rule, digit by digit: slow but obviously right, to check the chunked parser against. */
function horner(digits: string, base: number): bigint {
  let value = 0n;
  for (const digit of digits) value = value * BigInt(base) + BigInt(parseInt(digit, base));
  return value;
}

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
/** A deterministic pseudo-random digit string of `length` digits of `base`, not starting with 0. */
function digitString(length: number, base: number, seed: number): string {
  let text = alphabet[1 + (seed % (base - 1))]!;
  for (let index = 1; index < length; index += 1) text += alphabet[(index * 7919 + seed * 104729) % base]!;
  return text;
}

describe('number-base-converter.convert: values', () => {
  it('converts 255 to the default bases 2, 8, 10, 16 with two’s complement patterns', async () => {
    // 255 = 1111 1111b = 3·64 + 7·8 + 7 = 377o = ffh.
    assert.deepEqual(await convert({ value: '255' }), {
      results: { '2': '11111111', '8': '377', '10': '255', '16': 'ff' },
      twosComplement: { '8': 'ff', '16': '00ff', '32': '000000ff', '64': '00000000000000ff' },
    });
  });

  it('reads and writes every base up to 36, with uppercase on request', async () => {
    // 36^10 − 1 = 60466176² − 1 = 3656158440062975 is "zzzzzzzzzz" in base 36.
    assert.deepEqual(await results({ value: 'zzzzzzzzzz', base: 36, to: [10, 36] }), { '10': '3656158440062975', '36': 'zzzzzzzzzz' });
    assert.deepEqual(await results({ value: 'ZzZzZzZzZz', base: 36, to: [36], uppercase: true }), { '36': 'ZZZZZZZZZZ' });
    // 35 = 1·35 + 0 → "10" in base 35; 35 = 2·16 + 3 → "23" in base 16; in base 3: 35 = 27 + 2·3 + 2 → "1022".
    assert.deepEqual(await results({ value: '35', to: [35, 16, 3, 36] }), { '35': '10', '16': '23', '3': '1022', '36': 'z' });
  });

  it('handles signs, zero and big values exactly', async () => {
    assert.deepEqual(await results({ value: '-42', to: [2, 16] }), { '2': '-101010', '16': '-2a' }); // 42 = 32 + 8 + 2
    assert.deepEqual(await results({ value: '+42', to: [8] }), { '8': '52' }); // 5·8 + 2
    assert.deepEqual(await convert({ value: '-0', to: [2] }), {
      results: { '2': '0' },
      twosComplement: { '8': '00', '16': '0000', '32': '00000000', '64': '0000000000000000' },
    });
    // 2^127 − 1 (a Mersenne prime) is 7 followed by 31 f in hex.
    assert.deepEqual(await results({ value: '170141183460469231731687303715884105727', to: [16] }), { '16': `7${'f'.repeat(31)}` });
  });

  it('gives one key per base when the list repeats a base', async () => {
    assert.deepEqual(await results({ value: '10', to: [16, 16, 2] }), { '16': 'a', '2': '1010' });
  });

  it('writes a value of 1,000 characters here and a longer one on the pool, with the same digits', async () => {
    // 10,000 base-36 digits into all 35 bases held the main thread 38 ms; 1,000 take about 1 ms.
    assert.equal(INLINE_LIMIT, 1000);
    const { runInWorker, jobs } = workerJobRecorder();
    const inBase36 = async (length: number) => ((await invoke(numberBase, 'convert', { value: 'z'.repeat(length), base: 36, to: [36, 2] }, { runInWorker })) as Converted).results;
    // z…z in base 36 is 36^n − 1: n z's back in base 36.
    const here = await inBase36(INLINE_LIMIT);
    assert.deepEqual(jobs, []);
    assert.equal(here['36'], 'z'.repeat(INLINE_LIMIT));
    const there = await inBase36(INLINE_LIMIT + 1);
    assert.deepEqual(jobs, ['toBases']);
    assert.equal(there['36'], 'z'.repeat(INLINE_LIMIT + 1));
    assert.equal(there['2'], (36n ** BigInt(INLINE_LIMIT + 1) - 1n).toString(2));
  });
});

describe('number-base-converter.convert: prefixes and separators', () => {
  it('lets a prefix set the base when the base is the default', async () => {
    assert.deepEqual(await results({ value: '0xFF', to: [10] }), { '10': '255' });
    assert.deepEqual(await results({ value: '0X1f', to: [10] }), { '10': '31' });
    assert.deepEqual(await results({ value: '0b1010', to: [10] }), { '10': '10' });
    assert.deepEqual(await results({ value: '0o17', to: [10] }), { '10': '15' });
    assert.deepEqual(await results({ value: '-0x80', to: [10] }), { '10': '-128' });
  });

  it('accepts a prefix that agrees with an explicit base', async () => {
    assert.deepEqual(await results({ value: '0xff', base: 16, to: [10] }), { '10': '255' });
    assert.deepEqual(await results({ value: '0b101', base: 2, to: [10] }), { '10': '5' });
    assert.deepEqual(await results({ value: '0o17', base: 8, to: [10] }), { '10': '15' });
  });

  it('answers 422 invalid_number for a prefix that contradicts an explicit base', async () => {
    await invalid({ value: '0x1', base: 2 });
    await invalid({ value: '0b1', base: 8 });
    await invalid({ value: '0o7', base: 16 });
  });

  it('reads "0b…" in base 16 and "0x…" in base 36 as digits, since b and x are digits there', async () => {
    assert.deepEqual(await results({ value: '0b1', base: 16, to: [10] }), { '10': '177' }); // 0xB1 = 11·16 + 1
    assert.deepEqual(await results({ value: '0x', base: 36, to: [10] }), { '10': '33' }); // x = 33
  });

  it('accepts single separators between digits and whitespace around the value', async () => {
    for (const value of ['1 000 000', '1_000_000', "1'000'000", '1,000,000', '1,000_000', '  1000000\n']) {
      assert.deepEqual(await results({ value, to: [10] }), { '10': '1000000' }, value);
    }
    assert.deepEqual(await results({ value: '0xFF_FF', to: [10] }), { '10': '65535' });
  });

  it('refuses separators that are not between two digits', async () => {
    for (const value of ['1__0', '_1', '1_', '1 _0', '0x_1', '-_1', "1,'0"]) await invalid({ value });
  });

  it('refuses digits outside the base, signs without digits and non-integers', async () => {
    for (const value of ['2', '12']) await invalid({ value, base: 2 });
    for (const value of ['1.5', '1e3', '12a', '-', '+', '--1', '+-1', '0x', ' ', '1-']) await invalid({ value });
    await invalid({ value: 'g', base: 16 });
    await invalid({ value: 'z', base: 35 });
  });

  it('names the offending character without echoing invisible ones', async () => {
    await assert.rejects(convert({ value: '12a' }), { message: 'The character "a" at position 3 is not a digit of base 10' });
    await assert.rejects(convert({ value: ' 1\u00002' }), { message: 'The character U+0000 at position 3 is not a digit of base 10' });
    await assert.rejects(convert({ value: '1😀' }), { message: 'The character U+1F600 at position 2 is not a digit of base 10' });
  });
});

describe('number-base-converter.convert: two’s complement', () => {
  it('fits signed from −2^(w−1) and unsigned up to 2^w − 1, else null', async () => {
    const twos = async (value: string): Promise<Record<string, string | null>> => (await convert({ value, to: [10] })).twosComplement;
    assert.deepEqual(await twos('-1'), { '8': 'ff', '16': 'ffff', '32': 'ffffffff', '64': 'ffffffffffffffff' });
    assert.deepEqual(await twos('-128'), { '8': '80', '16': 'ff80', '32': 'ffffff80', '64': 'ffffffffffffff80' });
    assert.deepEqual(await twos('-129'), { '8': null, '16': 'ff7f', '32': 'ffffff7f', '64': 'ffffffffffffff7f' });
    assert.deepEqual(await twos('256'), { '8': null, '16': '0100', '32': '00000100', '64': '0000000000000100' });
    // 2^64 − 1 and 2^64; −2^63 and −2^63 − 1.
    assert.deepEqual(await twos('18446744073709551615'), { '8': null, '16': null, '32': null, '64': 'ffffffffffffffff' });
    assert.deepEqual(await twos('18446744073709551616'), { '8': null, '16': null, '32': null, '64': null });
    assert.deepEqual(await twos('-9223372036854775808'), { '8': null, '16': null, '32': null, '64': '8000000000000000' });
    assert.deepEqual(await twos('-9223372036854775809'), { '8': null, '16': null, '32': null, '64': null });
  });

  it('writes the patterns in uppercase when asked', async () => {
    assert.deepEqual((await convert({ value: '-2', uppercase: true })).twosComplement, {
      '8': 'FE',
      '16': 'FFFE',
      '32': 'FFFFFFFE',
      '64': 'FFFFFFFFFFFFFFFE',
    });
  });
});

describe('number-base-converter.convert: bounds', () => {
  it('accepts the bounds just inside', async () => {
    assert.deepEqual(await results({ value: '11', base: 2, to: [36] }), { '36': '3' });
    assert.deepEqual(await results({ value: '10', base: 36, to: [2] }), { '2': '100100' }); // 36 = 32 + 4
    const all = Array.from({ length: 35 }, (_, index) => index + 2);
    assert.equal(Object.keys(await results({ value: '7', to: all })).length, 35);
    assert.equal((await results({ value: '1'.repeat(10000), to: [10] }))['10'], '1'.repeat(10000));
  });

  it('refuses just outside with details on the field', async () => {
    await rejectsField({ value: '' }, '/value');
    await rejectsField({ value: '1'.repeat(10001) }, '/value');
    await rejectsField({ value: '1', base: 1 }, '/base');
    await rejectsField({ value: '1', base: 37 }, '/base');
    await rejectsField({ value: '1', base: 2.5 }, '/base');
    await rejectsField({ value: '1', to: [] }, '/to');
    await rejectsField({ value: '1', to: Array.from({ length: 36 }, () => 10) }, '/to');
    await rejectsField({ value: '1', to: [10, 1] }, '/to/1');
    await rejectsField({ value: '1', to: [37] }, '/to/0');
    await rejectsField({ value: '1', uppercase: 'yes' }, '/uppercase');
    await rejectsField({ value: 255 }, '/value');
    await rejectsField({}, '/value');
    await rejectsField({ value: '1', from: 10 }, '/from');
  });
});

describe('number-base-converter.convert: hostile input and speed', () => {
  it('refuses a 10 MB value at the schema, quickly', async () => {
    const started = performance.now();
    await rejectsField({ value: '9'.repeat(10_000_000) }, '/value');
    assert.ok(performance.now() - started < HANG_GUARD_MS); // mostly the 10 MB structuredClone in invoke()
  });

  it('refuses lone surrogates, Unicode digits, full-width digits and 10000 separators', async () => {
    for (const value of ['\ud800', '1\udc00', '٣', '１２', '١٢٣', 'Ⅻ', '_'.repeat(10000), '−5']) await invalid({ value });
  });

  it('converts a 10000-digit base-36 value to all 35 bases in well under a second', async () => {
    const value = digitString(10000, 36, 1);
    const all = Array.from({ length: 35 }, (_, index) => index + 2);
    const started = performance.now();
    const answer = await results({ value, base: 36, to: all, uppercase: true });
    const elapsed = performance.now() - started;
    assert.ok(elapsed < HANG_GUARD_MS, `took ${elapsed} ms`);
    assert.equal(answer['36'], value.toUpperCase());
    // The value starts with the digit 2: 2 · 36^9999 ≤ value < 3 · 36^9999, so log2(value) lies between
    // 1 + 9999 · 5.169925 = 51695.08 and 1.585 + 51694.08 = 51695.66: exactly 51696 binary digits.
    assert.equal(value[0], '2');
    assert.equal(answer['2']!.length, 51696);
  });
});

describe('parseInteger and digitsToBigInt', () => {
  it('agrees with digit-by-digit Horner evaluation in chunked bases, across chunk boundaries', () => {
    for (const base of [3, 5, 7, 12, 20, 35, 36]) {
      for (const length of [1, 9, 10, 11, 33, 34, 65, 1000]) {
        const digits = digitString(length, base, base + length);
        assert.equal(digitsToBigInt(digits, base), horner(digits, base), `base ${base}, ${length} digits`);
      }
    }
  });

  it('reports the base a prefix selected', () => {
    assert.deepEqual(parseInteger('0b11', 10), { value: 3n, base: 2 });
    assert.deepEqual(parseInteger('-0o10', 10), { value: -8n, base: 8 });
    assert.deepEqual(parseInteger('0b11', 16), { value: 0xb11n, base: 16 });
  });
});
