import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import timestampConverter from './index.js';
import type { Conversion } from './format.js';

const NOW = new Date('2024-03-15T15:00:00.000Z');
const convert = async (body: Record<string, unknown>): Promise<Conversion> =>
  (await invoke(timestampConverter, 'convert', body, { now: () => NOW })) as Conversion;
const read = async (input: unknown, unit = 'auto'): Promise<[string, string]> => {
  const answer = await convert({ input, unit });
  return [answer.unix.ns, answer.detectedUnit];
};
const invalid = (input: string): Promise<void> => rejectsWith(convert({ input }), 422, 'invalid_date');
const outOfRange = (input: unknown, unit = 'auto'): Promise<void> => rejectsWith(convert({ input, unit }), 422, 'date_out_of_range');

describe('timestamp-converter input: numbers and digit strings', () => {
  it('picks the unit by magnitude: < 1e11 s, < 1e14 ms, < 1e17 µs, else ns', async () => {
    assert.deepEqual(await read(99_999_999_999), ['99999999999000000000', 's']);
    assert.deepEqual(await read(1e11), ['100000000000000000', 'ms']);
    assert.deepEqual(await read(99_999_999_999_999), ['99999999999999000000', 'ms']);
    assert.deepEqual(await read(1e14), ['100000000000000000', 'us']);
    assert.deepEqual(await read(1e17), ['100000000000000000', 'ns']);
    assert.deepEqual(await read(-99_999_999_999), ['-99999999999000000000', 's']);
    assert.deepEqual(await read(-1e11), ['-100000000000000000', 'ms']);
    assert.deepEqual(await read(0), ['0', 's']);
    // The same thresholds for digit strings.
    assert.deepEqual(await read('99999999999'), ['99999999999000000000', 's']);
    assert.deepEqual(await read('100000000000'), ['100000000000000000', 'ms']);
    assert.deepEqual(await read('-100000000000000'), ['-100000000000000000', 'us']);
  });

  it('uses an explicit unit whatever the magnitude', async () => {
    assert.deepEqual(await read(5, 'ms'), ['5000000', 'ms']);
    assert.deepEqual(await read(5, 'us'), ['5000', 'us']);
    assert.deepEqual(await read(5, 'ns'), ['5', 'ns']);
    assert.deepEqual(await read(1_710_504_000_000, 's'), ['1710504000000000000000', 's']);
  });

  it('keeps digit strings exact beyond 2^53, with a sign and leading zeros', async () => {
    assert.deepEqual(await read('9007199254740993123'), ['9007199254740993123', 'ns']); // 2^53 + 1 followed by 123
    assert.deepEqual(await read('+1710504000123456789'), ['1710504000123456789', 'ns']);
    assert.deepEqual(await read('-1710504000123456789'), ['-1710504000123456789', 'ns']);
    assert.deepEqual(await read('0001710504000'), ['1710504000000000000', 's']);
    assert.deepEqual(await read('-0'), ['0', 's']);
    assert.deepEqual(await read('0'.repeat(100_000) + '7'), ['7000000000', 's']);
  });

  it('takes a fractional number as the decimal it is written as, rounded down to the nanosecond', async () => {
    assert.deepEqual(await read(1_710_504_000.123456), ['1710504000123456000', 's']);
    assert.deepEqual(await read(-1.5), ['-1500000000', 's']);
    assert.deepEqual(await read(1.5, 'ns'), ['1', 'ns']);
    assert.deepEqual(await read(-1.5, 'ns'), ['-2', 'ns']);
    assert.deepEqual(await read(1e-10), ['0', 's']); // 0.1 ns
    assert.deepEqual(await read(-1e-10), ['-1', 's']);
    assert.deepEqual(await read(1.2e21), ['1200000000000000000000', 'ns']); // String(1.2e21) is "1.2e+21"
    assert.deepEqual(await read(1_710_504_000_123.25), ['1710504000123250000', 'ms']);
  });

  it('refuses times beyond ±8.64e15 ms with 422 date_out_of_range, the limits themselves included in range', async () => {
    assert.deepEqual(await read(8.64e15, 'ms'), ['8640000000000000000000', 'ms']);
    assert.deepEqual(await read('-8640000000000000000000'), ['-8640000000000000000000', 'ns']);
    await outOfRange('8640000000000000000001');
    await outOfRange('-8640000000000000000001');
    await outOfRange(8.64e15 + 1, 'ms');
    await outOfRange(8640000000000.001, 's');
    await outOfRange(1e308);
    await outOfRange(-1e308, 's');
    await outOfRange('9'.repeat(40));
  });

  it('refuses a 10 MB digit string at once', async () => {
    const started = performance.now();
    await outOfRange('1'.repeat(10_000_000));
    await invalid('1'.repeat(10_000_000) + 'x');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});

describe('timestamp-converter input: ISO 8601', () => {
  it('accepts a date (midnight UTC), minutes, seconds, 1–9 fraction digits, Z or an offset', async () => {
    const cases: [string, string][] = [
      ['2024-03-15', '1710460800000000000'],
      ['2024-03-15T12:00Z', '1710504000000000000'],
      ['2024-03-15T12:00:00Z', '1710504000000000000'],
      ['2024-03-15t12:00:00z', '1710504000000000000'],
      ['2024-03-15 12:00:00Z', '1710504000000000000'],
      ['2024-03-15T12:00:00.5Z', '1710504000500000000'],
      ['2024-03-15T12:00:00,5Z', '1710504000500000000'],
      ['2024-03-15T12:00:00.123456789Z', '1710504000123456789'],
      ['2024-03-15T13:00:00+01:00', '1710504000000000000'],
      ['2024-03-15T13:00:00+0100', '1710504000000000000'],
      ['2024-03-15T13:00:00+01', '1710504000000000000'],
      ['2024-03-15T06:30:00-05:30', '1710504000000000000'],
      ['2024-03-15T12:00:00-00:00', '1710504000000000000'],
      ['1969-12-31T23:59:59.999999999Z', '-1'],
      ['0000-01-01', '-62167219200000000000'], // Date.UTC(0, 0, 1) would be 1900; −62167219200 s is year 0
      ['+275760-09-13T00:00:00Z', '8640000000000000000000'],
      ['-271821-04-20', '-8640000000000000000000'],
      ['+002024-03-15', '1710460800000000000'],
    ];
    for (const [input, ns] of cases) assert.deepEqual(await read(input), [ns, 'iso'], input);
  });

  it('refuses what Date.parse would guess at, impossible dates and times, and a time without a zone', async () => {
    for (const input of [
      '2024-03-15T12:00:00', // no zone: local time of whom?
      '2024-03-15T12:00',
      'March 15, 2024',
      '2024/03/15',
      '15.03.2024',
      '2024-3-15',
      '20240315T120000Z',
      '2024-W11-5',
      '2024-075',
      '2024-03',
      '2024-03-15Z',
      '2024-03-15T12Z',
      '2024-03-15T12:00:00.Z',
      '2024-03-15T12:00:00.1234567890Z', // ten fraction digits
      '2024-02-30',
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-03-00',
      '2024-03-15T24:00:00Z',
      '2024-03-15T12:60:00Z',
      '2024-12-31T23:59:60Z', // a leap second: no JavaScript date holds it
      '2024-03-15T12:00:00+24:00',
      '2024-03-15T12:00:00+01:60',
      '-000000-01-01',
      '2024-03-15T12:00:00 Z',
      ' 2024-03-15',
      '2024-03-15\n',
      '',
      '1.5',
      '1e5',
      '0x10',
      'now',
    ]) {
      await invalid(input);
    }
  });

  it('reads a bare digit string such as 2024 or 20240315 as a timestamp, never as an ISO basic date', async () => {
    assert.deepEqual(await read('2024'), ['2024000000000', 's']);
    assert.deepEqual(await read('20240315'), ['20240315000000000', 's']);
  });

  it('refuses ISO dates past the range with date_out_of_range', async () => {
    await outOfRange('+275760-09-13T00:00:00.000000001Z');
    await outOfRange('-271821-04-19T23:59:59Z');
    await outOfRange('+999999-12-31');
  });
});

describe('timestamp-converter input: RFC 2822', () => {
  it('accepts the RFC 2822 date-time with or without weekday and seconds, numeric or named zones, any case', async () => {
    const cases: [string, string][] = [
      ['Fri, 15 Mar 2024 12:00:00 +0000', '1710504000'],
      ['15 Mar 2024 12:00:00 +0000', '1710504000'],
      ['Fri, 15 Mar 2024 12:00 +0000', '1710504000'],
      ['Fri,15 Mar 2024 12:00:00 +0000', '1710504000'],
      ['Fri, 15  Mar  2024  12:00:00   +0000', '1710504000'],
      ['fri, 15 MAR 2024 12:00:00 gmt', '1710504000'],
      ['Fri, 15 Mar 2024 12:00:00 UT', '1710504000'],
      ['Fri, 15 Mar 2024 07:00:00 EST', '1710504000'],
      ['Fri, 15 Mar 2024 08:00:00 EDT', '1710504000'],
      ['Fri, 15 Mar 2024 05:00:00 PDT', '1710504000'],
      ['Fri, 15 Mar 2024 13:00:00 +0100', '1710504000'],
      ['Fri, 15 Mar 2024 06:30:00 -0530', '1710504000'],
      ['Fri, 1 Mar 2024 00:00:00 +0000', '1709251200'],
      ['Sat, 01 Jan 0000 00:00:00 +0000', '-62167219200'],
      ['Fri, 01 Jan -0001 00:00:00 +0000', '-62198755200'], // what Date#toUTCString writes for year −1
    ];
    for (const [input, s] of cases) {
      const answer = await convert({ input });
      assert.deepEqual([answer.unix.s, answer.detectedUnit], [s, 'rfc2822'], input);
    }
  });

  it('refuses a wrong weekday, impossible dates, military zones, comments and two-digit years', async () => {
    for (const input of [
      'Thu, 15 Mar 2024 12:00:00 +0000',
      'Fri, 30 Feb 2024 12:00:00 +0000',
      'Fri, 15 Mar 2024 12:00:60 +0000',
      'Fri, 15 Mar 2024 12:00:00 Z',
      'Fri, 15 Mar 2024 12:00:00 CET',
      'Fri, 15 Mar 2024 12:00:00 +0000 (UTC)',
      'Fri, 15 Mar 24 12:00:00 +0000',
      'Fri, 15 Mar 2024 12:00:00',
      'Fri, 15 March 2024 12:00:00 +0000',
      'Friday, 15 Mar 2024 12:00:00 +0000',
      'Fri, 15 Mar 2024 12:00:00 +01:00',
      'Fri, 15 Mar 2024 12:00:00 +2400',
      'Sat, 01 Jan -0000 00:00:00 +0000',
    ]) {
      await invalid(input);
    }
  });
});

describe('timestamp-converter input: schema', () => {
  it('refuses other types and unknown units or locales with 400 on the field', async () => {
    await rejectsField(convert({ input: true }), '/input');
    await rejectsField(convert({ input: null }), '/input');
    // JSON.parse reads 1e400 as Infinity; the schema refuses non-finite numbers.
    await rejectsField(convert({ input: Infinity }), '/input');
    await rejectsField(convert({ input: [1] }), '/input');
    await rejectsField(convert({ input: 1, unit: 'min' }), '/unit');
    await rejectsField(convert({ locale: 'fr' }), '/locale');
    await rejectsField(convert({ timeZone: 1 }), '/timeZone');
    await rejectsField(convert({ when: 1 }), '/when');
  });
});
