import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import cronExpression from './index.js';

interface Explanation {
  expression: string;
  description: string;
  nextRuns: string[];
}

const FIXED_NOW = new Date('2024-03-15T10:07:30.000Z'); // a Friday
const explain = async (body: Record<string, unknown>): Promise<Explanation> =>
  (await invoke(cronExpression, 'explain', body, { now: () => FIXED_NOW })) as Explanation;
const runs = async (expression: string, from: string, count = 5): Promise<string[]> => (await explain({ expression, from, count })).nextRuns;

describe('cron-expression.explain', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of cronExpression.operations.explain!.examples) assert.deepEqual(await explain(example.body), example.response);
  });

  it('starts from the clock by default, strictly after it, with count 5', async () => {
    const result = await explain({ expression: '*/20 * * * *' });
    // now is 10:07:30: the next multiples of 20 minutes are 10:20, 10:40, 11:00, 11:20, 11:40.
    assert.deepEqual(result.nextRuns, ['10:20', '10:40', '11:00', '11:20', '11:40'].map((time) => `2024-03-15T${time}:00.000Z`));
    // A run exactly at `from` is not listed; the fraction of a second does not matter.
    assert.deepEqual(await runs('0 12 * * *', '2024-03-15T12:00:00Z', 1), ['2024-03-16T12:00:00.000Z']);
    assert.deepEqual(await runs('0 12 * * *', '2024-03-15T11:59:59.999999Z', 1), ['2024-03-15T12:00:00.000Z']);
  });

  it('normalizes macros and names to five numeric fields', async () => {
    const cases: [string, string][] = [
      ['@yearly', '0 0 1 1 *'],
      ['@annually', '0 0 1 1 *'],
      ['@monthly', '0 0 1 * *'],
      ['@weekly', '0 0 * * 0'],
      ['@daily', '0 0 * * *'],
      ['@midnight', '0 0 * * *'],
      ['@hourly', '0 * * * *'],
      ['  5  4 *\t* sun ', '5 4 * * 0'],
      ['0 0 1 jan,Jul,DEC *', '0 0 1 1,7,12 *'],
      ['00 08 * * mon-fri/2', '0 8 * * 1-5/2'],
    ];
    for (const [input, normalized] of cases) assert.equal((await explain({ expression: input })).expression, normalized, input);
  });

  it('fires when either restricted day field matches (Vixie cron), by hand-worked calendars', async () => {
    // Day 13 or Friday, from Mon 2024-09-02: Fri 6th, Fri 13th (both), Fri 20th, Fri 27th, Fri Oct 4th; then Fri 11th, Sun 13th.
    assert.deepEqual(await runs('0 0 13 * 5', '2024-09-02T00:00:00Z'), ['2024-09-06', '2024-09-13', '2024-09-20', '2024-09-27', '2024-10-04'].map((day) => `${day}T00:00:00.000Z`));
    assert.deepEqual((await runs('0 0 13 * 5', '2024-10-05T00:00:00Z', 2)), ['2024-10-11T00:00:00.000Z', '2024-10-13T00:00:00.000Z']);
    // A day-of-week `*` means day-of-month alone decides; a day-of-month `*` leaves the weekday alone.
    assert.deepEqual(await runs('0 0 1 * *', '2024-09-02T00:00:00Z', 2), ['2024-10-01T00:00:00.000Z', '2024-11-01T00:00:00.000Z']);
    assert.deepEqual(await runs('0 0 * * 0', '2024-09-02T00:00:00Z', 2), ['2024-09-08T00:00:00.000Z', '2024-09-15T00:00:00.000Z']);
    // 7 is Sunday as well.
    assert.deepEqual(await runs('0 0 * * 7', '2024-09-02T00:00:00Z', 1), ['2024-09-08T00:00:00.000Z']);
    // `*/2` counts as restricted (it is not `*`): odd days OR Mondays, so even Monday the 16th fires too.
    assert.deepEqual(await runs('0 0 */2 * 1', '2024-09-10T00:00:00Z', 4), ['2024-09-11', '2024-09-13', '2024-09-15', '2024-09-16'].map((day) => `${day}T00:00:00.000Z`));
  });

  it('lists runs in UTC from a `from` with an offset, and the 29th of February in leap years only', async () => {
    // 2024-03-15T01:30:00+05:30 is 2024-03-14T20:00:00Z.
    assert.deepEqual(await runs('0 21 * * *', '2024-03-15T01:30:00+05:30', 1), ['2024-03-14T21:00:00.000Z']);
    assert.deepEqual(await runs('0 0 29 2 *', '2023-01-01T00:00:00Z', 3), ['2024-02-29', '2028-02-29', '2032-02-29'].map((day) => `${day}T00:00:00.000Z`));
    // 2100 is not a leap year: after 2096 the next February 29th is in 2104.
    assert.deepEqual(await runs('0 0 29 2 *', '2096-03-01T00:00:00Z', 1), ['2104-02-29T00:00:00.000Z']);
    // The 31st in a list with months that lack it fires in the months that have it.
    assert.deepEqual(await runs('0 0 31 2,4,5 *', '2024-01-01T00:00:00Z', 2), ['2024-05-31T00:00:00.000Z', '2025-05-31T00:00:00.000Z']);
  });

  it('stops at the end of year 9999', async () => {
    assert.deepEqual(await runs('0 0 1 1 *', '9998-06-01T00:00:00Z'), ['9999-01-01T00:00:00.000Z']);
    assert.deepEqual(await runs('* * * * *', '9999-12-31T23:59:00Z'), []);
  });

  it('describes in English with 12-hour times and in German with 24-hour times', async () => {
    assert.equal((await explain({ expression: '30 14 * * *' })).description, 'At 02:30 PM');
    assert.equal((await explain({ expression: '30 14 * * *', locale: 'de' })).description, 'Um 14:30');
    assert.equal((await explain({ expression: '0 9 * * 1-5', locale: 'de' })).description, 'Um 09:00, Montag bis Freitag');
  });

  it('refuses non-standard syntax with 422 invalid_cron naming the field', async () => {
    const cases: [string, RegExp][] = [
      ['0 0 0 * * *', /5 fields.*got 6.*seconds/],
      ['0 0 * *', /5 fields.*got 4/],
      ['H * * * *', /minute field: Jenkins/],
      ['0 H(0-7) * * *', /hour field: Jenkins/],
      ['@reboot', /@reboot/],
      ['@every 5m', /unknown macro/],
      ['0 0 ? * 1', /day-of-month field: .*Quartz/],
      ['0 0 L * *', /day-of-month field: .*Quartz/],
      ['0 0 * * 5#3', /day-of-week field: .*Quartz/],
      ['*/0 * * * *', /minute field: the step "0" is outside 1–60/],
      ['*/61 * * * *', /minute field: the step "61"/],
      ['5/15 * * * *', /minute field: a step needs \* or a range/],
      ['60 * * * *', /minute field: value "60" is outside 0–59/],
      ['1-60000 * * * *', /minute field: value "60000"/],
      ['0 24 * * *', /hour field/],
      ['0 0 0 * *', /day-of-month field: value "0" is outside 1–31/],
      ['0 0 * 13 *', /month field/],
      ['0 0 * * 8', /day-of-week field/],
      ['0 0 * foo *', /month field: "foo" is not a number or a name/],
      ['10-5 * * * *', /minute field: the range "10-5" runs backwards/],
      ['1,,2 * * * *', /minute field: an empty list element/],
      ['0 0 * * 1-', /day-of-week field/],
      [`${'9'.repeat(191)} * * * *`, /minute field: value "9{37}\.\.\."/],
    ];
    for (const [expression, message] of cases) {
      await assert.rejects(explain({ expression }), (error: { status: number; code: string; message: string }) => {
        assert.equal(error.status, 422, expression);
        assert.equal(error.code, 'invalid_cron', expression);
        assert.match(error.message, message, expression);
        assert.ok(error.message.length < 200, 'the message does not quote the whole input');
        return true;
      });
    }
  });

  it('refuses a schedule that never fires with 422 impossible_schedule, without searching', async () => {
    for (const expression of ['0 0 30 2 *', '0 0 31 4 *', '0 0 31 2,4,6,9,11 *', '0 0 30-31 2 *']) {
      await rejectsWith(explain({ expression }), 422, 'impossible_schedule');
    }
    await assert.rejects(explain({ expression: '0 0 30 2 *' }), /day 30 never occurs in February/);
    // With a restricted day-of-week too, either field may match: Mondays in February.
    assert.deepEqual(await runs('0 0 30 2 1', '2024-01-01T00:00:00Z', 1), ['2024-02-05T00:00:00.000Z']);
  });

  it('refuses a `from` without an offset or with an impossible date as 400 on /from', async () => {
    for (const from of ['2024-03-15T10:00:00', '2024-03-15', '2024-02-30T00:00:00Z', '2023-02-29T00:00:00Z', '2024-03-15T24:00:00Z',
      '2024-03-15T10:00:60Z', '2024-03-15T10:00:00+24:00', '0000-01-01T00:00:00Z', '2024-03-15 10:00:00Z', 'x'.repeat(200)]) {
      await rejectsField(explain({ expression: '* * * * *', from }), '/from');
    }
    // The 400 comes before any 422 about the expression.
    await rejectsField(explain({ expression: 'H * * * *', from: 'soon' }), '/from');
  });

  it('checks the bounds of expression, count and locale', async () => {
    await rejectsField(explain({ expression: '' }), '/expression');
    await rejectsField(explain({ expression: `* * * * *${' '.repeat(192)}` }), '/expression');
    await rejectsField(explain({ expression: '* * * * *', count: 0 }), '/count');
    await rejectsField(explain({ expression: '* * * * *', count: 51 }), '/count');
    await rejectsField(explain({ expression: '* * * * *', locale: 'fr' }), '/locale');
    assert.equal((await explain({ expression: '* * * * *', count: 50 })).nextRuns.length, 50);
  });

  it('answers hostile input at once', async () => {
    const started = performance.now();
    const list = Array.from({ length: 60 }, (_, index) => index).join(','); // 169 characters
    const many = await explain({ expression: `${list} * * * *`, count: 50 });
    assert.equal(many.nextRuns.length, 50);
    await rejectsWith(explain({ expression: '*/9999999999999999999999 * * * *' }), 422, 'invalid_cron');
    await rejectsWith(explain({ expression: '@'.repeat(200) }), 422, 'invalid_cron');
    await rejectsWith(explain({ expression: ' '.repeat(200) }), 422, 'invalid_cron');
    // The sparsest schedule that can fire: the 29th of February at 23:59, 50 times.
    const sparse = await explain({ expression: '59 23 29 2 *', count: 50, from: '2024-03-01T00:00:00Z' });
    // Years divisible by 4 from 2028 to 2232: (2232 − 2028) / 4 + 1 = 52, less 2100 and 2200 (not leap years) = 50.
    assert.equal(sparse.nextRuns.at(-1), '2232-02-29T23:59:00.000Z');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
