import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CronExpressionParser } from 'cron-parser';
import { parseCron } from './cron-syntax.js';
import { Schedule } from './schedule.js';
import { assertCanFire, describe as describeCron } from './explain.js';

/** cron-parser's answer: the reference our jump-by-month walk must agree with. */
function reference(expression: string, from: Date, count: number): string[] {
  const schedule = CronExpressionParser.parse(expression, { currentDate: from, tz: 'UTC' });
  return Array.from({ length: count }, () => schedule.next().toDate().toISOString());
}

// Every day rule (either / day-of-month / day-of-week / both), steps, lists, ranges, month ends, leap days.
const EXPRESSIONS = [
  '* * * * *', '*/7 * * * *', '5,10-12,50-59/3 */5 * * *', '0 0 1 1 *', '30 12 15 * *', '0 0 31 * *', '0 0 29 2 *',
  '59 23 29 2 *', '0 0 31 2,4,5 *', '0 0 13 * 5', '0 0 */2 * 1', '0 0 1-7 * 1', '15 3 * * 0', '15 3 * * 7', '0 9-17 * * 1-5',
  '0 0 * * */2', '0 0 30 2 1', '0 0 1,15 * 1-5', '0 22 * 12 6,0', '1 0 28-31 * *', '0 0 * 2 *', '0 12 29 2 1',
];
const FROMS = ['2024-01-01T00:00:00Z', '2023-12-31T23:59:59.999Z', '2024-02-28T22:30:00Z', '2096-03-01T00:00:00Z', '0099-12-31T23:00:00Z'];

describe('cron-expression schedule', () => {
  it('agrees with cron-parser on every sample expression and start', () => {
    for (const expression of EXPRESSIONS) {
      for (const fromText of FROMS) {
        const from = new Date(fromText);
        assert.deepEqual(new Schedule(parseCron(expression)).runs(from, 12), reference(expression, from, 12), `${expression} from ${fromText}`);
      }
    }
  });

  it('stops at the end of year 9999 and lists years before 100 correctly', () => {
    const yearly = new Schedule(parseCron('0 0 1 1 *'));
    assert.deepEqual(yearly.runs(new Date('9998-06-01T00:00:00Z'), 5), ['9999-01-01T00:00:00.000Z']);
    assert.deepEqual(new Schedule(parseCron('59 23 31 12 *')).runs(new Date('9999-12-31T23:59:00Z'), 5), []);
    const early = new Date(0);
    early.setUTCFullYear(50, 5, 1);
    assert.deepEqual(yearly.runs(early, 2), ['0051-01-01T00:00:00.000Z', '0052-01-01T00:00:00.000Z']);
  });

  it('agrees with cron-parser, and cronstrue describes, on 400 generated expressions', () => {
    const samples = [
      ['*', '0', '59', '*/15', '5-10', '1,30,45', '0-59/20', '7-9/1'],
      ['*', '0', '23', '*/6', '9-17', '0,12', '1-23/11'],
      ['*', '1', '31', '*/10', '28-31', '1,15', '2-30/7', '29', '30'],
      ['*', '1', '2', '12', '*/3', '2-4', '1,7', '2,4,6,9,11'],
      ['*', '0', '7', '1-5', '*/2', '5-7', '0,6', '3', '*'],
    ];
    let seed = 12345;
    const pick = (options: readonly string[]): string => {
      seed = (seed * 1103515245 + 12345) % 2147483648; // a fixed linear congruential sequence: the same 400 every run
      return options[Math.floor(seed / 65536) % options.length]!; // the high bits: the low ones cycle quickly
    };
    const from = new Date('2024-02-27T13:07:00Z');
    let impossible = 0;
    for (let round = 0; round < 400; round += 1) {
      const expression = samples.map(pick).join(' ');
      const cron = parseCron(expression);
      try {
        assertCanFire(cron);
      } catch {
        impossible += 1;
        assert.throws(() => reference(cron.normalized, from, 1), expression); // cron-parser refuses it as well
        continue;
      }
      assert.deepEqual(new Schedule(cron).runs(from, 6), reference(cron.normalized, from, 6), expression);
      for (const locale of ['en', 'de'] as const) assert.ok(describeCron(cron, locale).length > 0, expression);
    }
    assert.ok(impossible > 0, 'the sample includes impossible schedules');
  });
});

