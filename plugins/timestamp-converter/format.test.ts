import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import timestampConverter, { EXAMPLE_CLOCK } from './index.js';
import { relativeText, type Conversion } from './format.js';

const NOW = new Date('2024-03-15T15:00:00.000Z');
const convert = async (body: Record<string, unknown>, now = NOW): Promise<Conversion> =>
  (await invoke(timestampConverter, 'convert', body, { now: () => now })) as Conversion;
const badZone = (timeZone: string): Promise<void> => rejectsWith(convert({ input: 0, timeZone }), 400, 'validation_failed', ['/timeZone']);

describe('timestamp-converter output', () => {
  it('answers every manifest example exactly at the clock the examples were written for', async () => {
    for (const example of timestampConverter.operations.convert!.examples) {
      assert.deepEqual(await convert(example.body, new Date(EXAMPLE_CLOCK)), example.response, JSON.stringify(example.body));
    }
  });

  it('converts the clock when input is omitted', async () => {
    assert.deepEqual(await convert({ timeZone: 'Europe/Berlin', locale: 'de' }), {
      iso: '2024-03-15T15:00:00.000Z',
      rfc2822: 'Fri, 15 Mar 2024 15:00:00 +0000',
      local: '2024-03-15T16:00:00.000+01:00',
      unix: { s: '1710514800', ms: '1710514800000', us: '1710514800000000', ns: '1710514800000000000' },
      detectedUnit: 'now',
      relative: 'jetzt',
      weekday: 'Friday',
      isoWeek: { year: 2024, week: 11 },
      dayOfYear: 75,
    });
  });

  it('writes iso and rfc2822 as Date#toISOString and Date#toUTCString do, expanded years included', async () => {
    // Date is the independent reference; our rendering works on day numbers, not on Date.
    for (const ms of [0, -1, 1_710_504_000_123, -62_167_219_200_000, -62_198_755_200_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15, -8.64e15 + 86_399_999]) {
      const answer = await convert({ input: String(ms), unit: 'ms' });
      const date = new Date(ms);
      assert.equal(answer.iso, date.toISOString());
      assert.equal(answer.rfc2822, date.toUTCString().replace(/GMT$/, '+0000'));
      assert.equal(answer.unix.ms, String(ms));
    }
    const last = await convert({ input: 8.64e15, unit: 'ms' });
    assert.equal(last.iso, '+275760-09-13T00:00:00.000Z');
    assert.equal(last.rfc2822, 'Sat, 13 Sep 275760 00:00:00 +0000');
    const first = await convert({ input: -8.64e15, unit: 'ms' });
    assert.equal(first.iso, '-271821-04-20T00:00:00.000Z');
    assert.equal(first.rfc2822, 'Tue, 20 Apr -271821 00:00:00 +0000');
  });

  it('keeps sub-millisecond digits in us and ns, and floors s and ms toward negative infinity', async () => {
    const answer = await convert({ input: '-1500000001', unit: 'ns' });
    // −1.500000001 s: floors are −2 s, −1501 ms, −1500001 µs.
    assert.deepEqual(answer.unix, { s: '-2', ms: '-1501', us: '-1500001', ns: '-1500000001' });
    assert.equal(answer.iso, '1969-12-31T23:59:58.499Z');
    const iso = await convert({ input: '2024-03-15T12:00:00.000000999Z' });
    assert.deepEqual(iso.unix, { s: '1710504000', ms: '1710504000000', us: '1710504000000000', ns: '1710504000000000999' });
  });

  it('renders local time with the zone offset of that instant (DST, half hours, day changes)', async () => {
    const local = async (input: string, timeZone: string): Promise<string> => (await convert({ input, timeZone })).local;
    assert.equal(await local('2024-07-01T12:00:00Z', 'Europe/Berlin'), '2024-07-01T14:00:00.000+02:00'); // CEST
    assert.equal(await local('2024-01-01T12:00:00Z', 'Europe/Berlin'), '2024-01-01T13:00:00.000+01:00'); // CET
    // The EU switch: 2024-03-31 01:00 UTC, from +01:00 to +02:00.
    assert.equal(await local('2024-03-31T00:59:59.999Z', 'Europe/Berlin'), '2024-03-31T01:59:59.999+01:00');
    assert.equal(await local('2024-03-31T01:00:00Z', 'Europe/Berlin'), '2024-03-31T03:00:00.000+02:00');
    assert.equal(await local('2024-03-15T12:00:00Z', 'Asia/Kathmandu'), '2024-03-15T17:45:00.000+05:45');
    assert.equal(await local('2024-03-15T02:00:00Z', 'America/Los_Angeles'), '2024-03-14T19:00:00.000-07:00'); // PDT since 03-10
    assert.equal(await local('2024-03-15T12:00:00Z', 'UTC'), '2024-03-15T12:00:00.000+00:00');
    assert.equal(await local('2024-03-15T12:00:00Z', 'europe/berlin'), '2024-03-15T13:00:00.000+01:00'); // IANA names match case-insensitively in Intl
    assert.equal(await local('2024-03-15T12:00:00Z', 'Etc/GMT+5'), '2024-03-15T07:00:00.000-05:00'); // POSIX sign: GMT+5 is UTC−5
  });

  it('gives local mean time offsets with their seconds and BC years in astronomical numbering', async () => {
    // tzdata: Europe/Brussels (Amsterdam links to it) kept LMT +0:17:30 until 1880.
    assert.equal((await convert({ input: '1850-01-01T00:00:00Z', timeZone: 'Europe/Brussels' })).local, '1850-01-01T00:17:30.000+00:17:30');
    // Intl names year 0 "1 BC" and year −1 "2 BC"; a wrong era mapping would shift the offset by a year.
    assert.equal((await convert({ input: '0000-06-01T00:00:00Z', timeZone: 'Asia/Tokyo' })).local, '0000-06-01T09:18:59.000+09:18:59');
    assert.equal((await convert({ input: '0000-12-31T23:00:00Z', timeZone: 'Asia/Tokyo' })).local, '0001-01-01T08:18:59.000+09:18:59');
    assert.equal((await convert({ input: '-000001-06-01', timeZone: 'America/New_York' })).local, '-000001-05-31T19:03:58.000-04:56:02');
  });

  it('refuses an unknown or non-IANA time zone with 400 on /timeZone', async () => {
    await badZone('Mars/Olympus_Mons');
    await badZone('Europe/Berlinn');
    await badZone('');
    await badZone('+01:00'); // Node 22+ would take offsets; every version refuses them here
    await badZone('-05:00');
    await badZone('Europe/Berlin ');
    const started = performance.now();
    await badZone('A'.repeat(10_000_000));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    // The zone is checked before the input, so a bad zone is 400 even with a bad input.
    await rejectsWith(convert({ input: 'garbage', timeZone: 'Nowhere/Land' }), 400, 'validation_failed', ['/timeZone']);
  });

  it('gives day-of-week, ISO week and day of the year in UTC, not in the local zone', async () => {
    // 2021-01-03T23:30Z is Sunday, ISO week 53 of 2020, in UTC — already Monday 2021-01-04 in Berlin.
    const answer = await convert({ input: '2021-01-03T23:30:00Z', timeZone: 'Europe/Berlin' });
    assert.equal(answer.local, '2021-01-04T00:30:00.000+01:00');
    assert.deepEqual([answer.weekday, answer.isoWeek, answer.dayOfYear], ['Sunday', { year: 2020, week: 53 }, 3]);
  });
});

describe('timestamp-converter relative text', () => {
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;
  const YEAR = 365.2425 * DAY;

  it('uses the largest unit of which a whole one fits, truncated toward zero (en)', () => {
    const cases: [number, string][] = [
      [0, 'now'],
      [999, 'now'],
      [-999, 'now'],
      [SECOND, 'in 1 second'],
      [-59 * SECOND - 999, '59 seconds ago'],
      [-MINUTE, '1 minute ago'],
      [-3 * HOUR, '3 hours ago'],
      [-(3 * HOUR + 59 * MINUTE), '3 hours ago'],
      [-DAY, 'yesterday'],
      [DAY, 'tomorrow'],
      [2 * DAY + 23 * HOUR, 'in 2 days'],
      [6 * DAY, 'in 6 days'],
      [-7 * DAY, 'last week'],
      [-29 * DAY, '4 weeks ago'],
      [31 * DAY, 'next month'], // a mean month is 30.436875 days
      [-11 * 31 * DAY, '11 months ago'],
      [-YEAR, 'last year'],
      [-YEAR + 1, '11 months ago'],
      [3 * YEAR, 'in 3 years'],
    ];
    for (const [diff, text] of cases) assert.equal(relativeText(diff, 'en'), text, String(diff));
  });

  it('speaks German with the same units', () => {
    assert.equal(relativeText(0, 'de'), 'jetzt');
    assert.equal(relativeText(-3 * HOUR, 'de'), 'vor 3 Stunden');
    assert.equal(relativeText(2 * DAY, 'de'), 'übermorgen');
    assert.equal(relativeText(5 * DAY, 'de'), 'in 5 Tagen');
    assert.equal(relativeText(-2 * YEAR, 'de'), 'vor 2 Jahren');
  });

  it('measures from the handler clock', async () => {
    const answer = await convert({ input: '2024-03-15T12:00:00Z' }, new Date('2024-03-18T12:00:00Z'));
    assert.equal(answer.relative, '3 days ago');
    assert.equal((await convert({ input: '+275760-09-13T00:00:00Z' })).relative, 'in 273,736 years');
  });
});
