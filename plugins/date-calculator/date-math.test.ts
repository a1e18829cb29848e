import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import dateCalculator from './index.js';

const diff = (body: Record<string, unknown>) => invoke(dateCalculator, 'difference', body);
const add = (body: Record<string, unknown>) => invoke(dateCalculator, 'add', body);

describe('date-calculator', () => {
  it('answers every manifest example exactly', async () => {
    for (const [name, operation] of Object.entries(dateCalculator.operations)) {
      for (const example of operation.examples) assert.deepEqual(await invoke(dateCalculator, name, example.body), example.response);
    }
  });

  it('refuses malformed and non-existent dates with 400 on the field', async () => {
    await rejectsField(diff({ start: '2023-02-29', end: '2024-01-01' }), '/start'); // 2023 is not a leap year
    await rejectsField(diff({ start: '2024-01-01', end: '2024-13-01' }), '/end');
    await rejectsField(diff({ start: '2024-04-31', end: '2024-01-01' }), '/start');
    await rejectsField(diff({ start: '2024-01-00', end: '2024-01-01' }), '/start');
    await rejectsField(diff({ start: '1900-02-29', end: '2024-01-01' }), '/start'); // 1900: divisible by 100, not 400
    await rejectsField(diff({ start: '0000-01-01', end: '2024-01-01' }), '/start');
    await rejectsField(diff({ start: '2024-1-01', end: '2024-01-01' }), '/start');
    await rejectsField(diff({ start: '2024-01-01T00:00:00Z', end: '2024-01-01' }), '/start');
    await rejectsField(add({ date: '+12024-01-01', amount: 1, unit: 'days' }), '/date');
    await rejectsField(add({ date: 'x'.repeat(200), amount: 1, unit: 'days' }), '/date');
    await rejectsField(add({ date: '2024-01-01', amount: 100001, unit: 'days' }), '/amount');
    await rejectsField(add({ date: '2024-01-01', amount: 1.5, unit: 'days' }), '/amount');
    await rejectsField(add({ date: '2024-01-01', amount: 1, unit: 'hours' }), '/unit');
    // 2000-02-29 exists (divisible by 400).
    assert.equal(((await diff({ start: '2000-02-29', end: '2000-03-01' })) as { days: number }).days, 1);
  });

  it('gives direction, non-negative counts and weeks/restDays', async () => {
    // 2024-03-01 (Fri) → 2024-03-20 (Wed): 19 days = 2 weeks 5 days; counted Fri 1 … Tue 19:
    // two full weeks (10) + Fri 15 … Tue 19 (Fri, Mon, Tue = 3) = 13 workdays.
    const forward = { days: 19, weeks: 2, restDays: 5, years: 0, months: 0, monthDays: 19, workdays: 13, direction: 'forward' };
    assert.deepEqual(await diff({ start: '2024-03-01', end: '2024-03-20' }), forward);
    // Backward counts Sat 2 … Wed 20 (end + 1 … start): two full weeks (10) + Sat 16 … Wed 20 (Mon, Tue, Wed = 3) = 13.
    assert.deepEqual(await diff({ start: '2024-03-20', end: '2024-03-01' }), { ...forward, direction: 'backward' });
    assert.deepEqual(await diff({ start: '2024-03-16', end: '2024-03-16' }), {
      days: 0, weeks: 0, restDays: 0, years: 0, months: 0, monthDays: 0, workdays: 0, direction: 'forward',
    });
  });

  it('counts workdays with start included and end included only with includeEnd', async () => {
    // Fri 2024-03-15 → Mon 2024-03-18: counted Fri, Sat, Sun = 1; with includeEnd also Mon = 2.
    assert.equal(((await diff({ start: '2024-03-15', end: '2024-03-18' })) as { workdays: number }).workdays, 1);
    assert.equal(((await diff({ start: '2024-03-15', end: '2024-03-18', includeEnd: true })) as { workdays: number }).workdays, 2);
    // Backward Mon 18 → Fri 15: counted Sat, Sun, Mon = 1; with includeEnd Fri … Mon = 2.
    assert.equal(((await diff({ start: '2024-03-18', end: '2024-03-15' })) as { workdays: number }).workdays, 1);
    assert.equal(((await diff({ start: '2024-03-18', end: '2024-03-15', includeEnd: true })) as { workdays: number }).workdays, 2);
    // A single Saturday with includeEnd: 1 day, 0 workdays; a single Monday: 1 workday.
    assert.deepEqual(await diff({ start: '2024-03-16', end: '2024-03-16', includeEnd: true }), {
      days: 1, weeks: 0, restDays: 1, years: 0, months: 0, monthDays: 1, workdays: 0, direction: 'forward',
    });
    assert.equal(((await diff({ start: '2024-03-18', end: '2024-03-18', includeEnd: true })) as { workdays: number }).workdays, 1);
  });

  it('gives the calendar difference with end-of-month clamping, consistent with /add', async () => {
    // 2024-01-31 → 2024-02-29: +1 month clamps to 02-29 = end: 1 month 0 days.
    assert.deepEqual(await diff({ start: '2024-01-31', end: '2024-02-29' }), {
      days: 29, weeks: 4, restDays: 1, years: 0, months: 1, monthDays: 0, workdays: 21, direction: 'forward',
    });
    // 2024-01-31 → 2024-03-01: +1 month = 02-29, +1 day: 1 month 1 day. (+2 months = 03-31 is past the end.)
    const march = (await diff({ start: '2024-01-31', end: '2024-03-01' })) as { months: number; monthDays: number };
    assert.deepEqual([march.months, march.monthDays], [1, 1]);
    // 2020-02-29 → 2024-02-28: 4 years would be 2024-02-29 (past): 3 years 11 months (→ 2024-01-29) + 30 days.
    const leap = (await diff({ start: '2020-02-29', end: '2024-02-28' })) as { years: number; months: number; monthDays: number };
    assert.deepEqual([leap.years, leap.months, leap.monthDays], [3, 11, 30]);
    // includeEnd moves the later date one day out: 2024-01-01 … 2024-01-31 inclusive is exactly one month.
    const january = (await diff({ start: '2024-01-01', end: '2024-01-31', includeEnd: true })) as { days: number; months: number; monthDays: number };
    assert.deepEqual([january.days, january.months, january.monthDays], [31, 1, 0]);
    // Round trip: start + (12·years + months) months, then + monthDays days, lands on end.
    for (const [start, end] of [['2023-05-31', '2025-03-30'], ['2024-02-29', '2025-02-28'], ['1999-12-31', '2000-02-29']] as const) {
      const span = (await diff({ start, end })) as { years: number; months: number; monthDays: number };
      const monthsLater = (await add({ date: start, amount: span.years * 12 + span.months, unit: 'months' })) as { date: string };
      assert.equal(((await add({ date: monthsLater.date, amount: span.monthDays, unit: 'days' })) as { date: string }).date, end);
    }
  });

  it('answers the whole range 0001-01-01 → 9999-12-31 at once', async () => {
    const started = performance.now();
    // Date.UTC(9999, 11, 31) / 86400000 = 2932896 and 0001-01-01 is day −719162: 2932896 + 719162 = 3652058 days.
    // Workdays: 3652058 = 521722 weeks + 4 days; 521722 × 5 = 2608610; the 4 extra days start on a Monday
    // (0001-01-01 is a Monday and full weeks keep the weekday): Mon–Thu = 4 → 2608614.
    assert.deepEqual(await diff({ start: '0001-01-01', end: '9999-12-31' }), {
      days: 3652058, weeks: 521722, restDays: 4, years: 9998, months: 11, monthDays: 30, workdays: 2608614, direction: 'forward',
    });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('adds days, weeks, months and years', async () => {
    assert.deepEqual(await add({ date: '2024-02-28', amount: 2, unit: 'days' }), { date: '2024-03-01', weekday: 5, isoWeek: { year: 2024, week: 9 } });
    assert.deepEqual(await add({ date: '2024-01-01', amount: -1, unit: 'weeks' }), { date: '2023-12-25', weekday: 1, isoWeek: { year: 2023, week: 52 } });
    assert.deepEqual(await add({ date: '2024-02-29', amount: 1, unit: 'years' }), { date: '2025-02-28', weekday: 5, isoWeek: { year: 2025, week: 9 } });
    assert.deepEqual(await add({ date: '2024-03-31', amount: -1, unit: 'months' }), { date: '2024-02-29', weekday: 4, isoWeek: { year: 2024, week: 9 } });
    // 2020-12-31 − 2 days = 2020-12-29 (Tue), week 53 of 2020; + 3 days = 2021-01-03 (Sun), still week 53 of 2020.
    assert.deepEqual(await add({ date: '2020-12-31', amount: 3, unit: 'days' }), { date: '2021-01-03', weekday: 7, isoWeek: { year: 2020, week: 53 } });
    assert.deepEqual(await add({ date: '2024-03-16', amount: -1, unit: 'workdays' }), { date: '2024-03-15', weekday: 5, isoWeek: { year: 2024, week: 11 } });
    // 100000 workdays from a Monday = 20000 full weeks later, again a Monday.
    const far = (await add({ date: '2024-03-18', amount: 100000, unit: 'workdays' })) as { date: string; weekday: number };
    assert.equal(far.weekday, 1);
    assert.deepEqual(await add({ date: '2024-03-18', amount: 20000, unit: 'weeks' }), far);
  });

  it('refuses results outside 0001–9999 with 422 date_out_of_range', async () => {
    await rejectsWith(add({ date: '9999-12-31', amount: 1, unit: 'days' }), 422, 'date_out_of_range');
    await rejectsWith(add({ date: '0001-01-01', amount: -1, unit: 'days' }), 422, 'date_out_of_range');
    await rejectsWith(add({ date: '9999-12-01', amount: 1, unit: 'months' }), 422, 'date_out_of_range');
    await rejectsWith(add({ date: '2024-01-01', amount: 100000, unit: 'years' }), 422, 'date_out_of_range');
    await rejectsWith(add({ date: '1900-01-01', amount: -100000, unit: 'weeks' }), 422, 'date_out_of_range');
    await rejectsWith(add({ date: '9999-12-31', amount: 1, unit: 'workdays' }), 422, 'date_out_of_range'); // Fri → Mon 10000-01-03
    assert.deepEqual(await add({ date: '9999-12-30', amount: 1, unit: 'workdays' }), { date: '9999-12-31', weekday: 5, isoWeek: { year: 9999, week: 52 } });
    assert.deepEqual(await add({ date: '0002-01-01', amount: -1, unit: 'years' }), { date: '0001-01-01', weekday: 1, isoWeek: { year: 1, week: 1 } });
  });
});
