import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addMonths, addWorkdays, civilDate, dayNumber, isoWeek, isoWeekday, workdaysIn } from './calendar.js';

const day = (text: string): number => {
  const [year, month, dayOfMonth] = text.split('-').map(Number) as [number, number, number];
  return dayNumber({ year, month, day: dayOfMonth });
};
const text = (days: number): string => {
  const { year, month, day: d } = civilDate(days);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
};

describe('date-calculator calendar', () => {
  it('numbers days from 1970-01-01 and back, matching Date.UTC across the whole range', () => {
    assert.equal(day('1970-01-01'), 0);
    assert.equal(day('2000-03-01'), 11017); // Date.UTC(2000, 2, 1) / 86400000
    assert.equal(day('0001-01-01'), -719162); // Date.UTC(1, 0, 1) (setUTCFullYear) / 86400000, documented in Hinnant's paper
    for (const sample of ['0001-01-01', '0004-02-29', '1600-02-29', '1900-02-28', '1900-03-01', '2024-02-29', '9999-12-31']) {
      const date = new Date(0);
      const [y, m, d] = sample.split('-').map(Number) as [number, number, number];
      date.setUTCFullYear(y, m - 1, d);
      assert.equal(day(sample) * 86_400_000, date.getTime(), sample);
      assert.equal(text(day(sample)), sample);
    }
  });

  it('gives ISO weekdays: 1970-01-01 Thursday, 0001-01-01 Monday, 9999-12-31 Friday', () => {
    assert.equal(isoWeekday(day('1970-01-01')), 4);
    assert.equal(isoWeekday(day('0001-01-01')), 1);
    assert.equal(isoWeekday(day('9999-12-31')), 5);
    assert.equal(isoWeekday(day('2024-03-17')), 7);
  });

  it('follows ISO 8601 week edges (the week holds its Thursday)', () => {
    // 2021-01-03 is a Sunday; its Thursday is 2020-12-31, and 2020 has 53 weeks (it began on a Wednesday, leap year).
    assert.deepEqual(isoWeek(day('2021-01-03')), { year: 2020, week: 53 });
    assert.deepEqual(isoWeek(day('2021-01-04')), { year: 2021, week: 1 });
    // 2024-12-30 is a Monday whose Thursday is 2025-01-02.
    assert.deepEqual(isoWeek(day('2024-12-30')), { year: 2025, week: 1 });
    // 2008-12-29 (Monday) is week 1 of 2009; 2010-01-03 (Sunday) is week 53 of 2009 (Wikipedia "ISO week date" examples).
    assert.deepEqual(isoWeek(day('2008-12-29')), { year: 2009, week: 1 });
    assert.deepEqual(isoWeek(day('2010-01-03')), { year: 2009, week: 53 });
    assert.deepEqual(isoWeek(day('0001-01-01')), { year: 1, week: 1 });
    assert.deepEqual(isoWeek(day('9999-12-31')), { year: 9999, week: 52 });
  });

  it('clamps months to the last day of the target month', () => {
    assert.deepEqual(addMonths({ year: 2024, month: 1, day: 31 }, 1), { year: 2024, month: 2, day: 29 });
    assert.deepEqual(addMonths({ year: 2023, month: 1, day: 31 }, 1), { year: 2023, month: 2, day: 28 });
    assert.deepEqual(addMonths({ year: 2024, month: 2, day: 29 }, 12), { year: 2025, month: 2, day: 28 });
    assert.deepEqual(addMonths({ year: 2024, month: 3, day: 31 }, -1), { year: 2024, month: 2, day: 29 });
    assert.deepEqual(addMonths({ year: 2024, month: 1, day: 15 }, -13), { year: 2022, month: 12, day: 15 });
  });

  it('counts workdays in a span by hand-worked examples', () => {
    // 2024-03-11 is a Monday. Mon … Sun (7 days): 5. Sat+Sun alone: 0. Fri, Sat, Sun, Mon: 2.
    assert.equal(workdaysIn(day('2024-03-11'), 7), 5);
    assert.equal(workdaysIn(day('2024-03-16'), 2), 0);
    assert.equal(workdaysIn(day('2024-03-15'), 4), 2);
    assert.equal(workdaysIn(day('2024-03-15'), 0), 0);
    // Wed 2024-03-13 + 10 days (Wed … Fri of the next week): Wed Thu Fri, Mon–Fri = 8.
    assert.equal(workdaysIn(day('2024-03-13'), 10), 8);
    // Before the anchor Monday too: Thu 1969-12-25 … Wed 1969-12-31 (7 days) = 5.
    assert.equal(workdaysIn(day('1969-12-25'), 7), 5);
  });

  it('moves by workdays, skipping weekends both ways', () => {
    assert.equal(text(addWorkdays(day('2024-03-15'), 1)), '2024-03-18'); // Fri → Mon
    assert.equal(text(addWorkdays(day('2024-03-16'), 1)), '2024-03-18'); // Sat → Mon
    assert.equal(text(addWorkdays(day('2024-03-17'), 1)), '2024-03-18'); // Sun → Mon
    assert.equal(text(addWorkdays(day('2024-03-18'), -1)), '2024-03-15'); // Mon → Fri
    assert.equal(text(addWorkdays(day('2024-03-16'), -1)), '2024-03-15'); // Sat → Fri
    assert.equal(text(addWorkdays(day('2024-03-17'), -1)), '2024-03-15'); // Sun → Fri
    assert.equal(text(addWorkdays(day('2024-03-13'), 5)), '2024-03-20'); // Wed + 5 = next Wed
    assert.equal(text(addWorkdays(day('2024-03-13'), 3)), '2024-03-18'); // Wed → Thu, Fri, Mon
    assert.equal(text(addWorkdays(day('2024-03-13'), -3)), '2024-03-08'); // Wed → Tue, Mon, Fri
    assert.equal(text(addWorkdays(day('2024-03-16'), 0)), '2024-03-16'); // 0 keeps even a Saturday
    assert.equal(text(addWorkdays(day('1970-01-01'), -4)), '1969-12-26'); // Thu → Wed, Tue, Mon, Fri 26th
  });

  it('agrees with a day-by-day walk over Date.getUTCDay for every small span and amount', () => {
    const isWorkday = (days: number) => ![0, 6].includes(new Date(days * 86_400_000).getUTCDay());
    for (let first = day('2024-03-01'); first < day('2024-03-15'); first += 1) {
      for (let count = 0; count <= 20; count += 1) {
        let expected = 0;
        for (let offset = 0; offset < count; offset += 1) if (isWorkday(first + offset)) expected += 1;
        assert.equal(workdaysIn(first, count), expected, `${text(first)} + ${count}`);
      }
      for (let amount = -12; amount <= 12; amount += 1) {
        let walked = first;
        for (let left = Math.abs(amount); left > 0; ) {
          walked += Math.sign(amount);
          if (isWorkday(walked)) left -= 1;
        }
        assert.equal(addWorkdays(first, amount), walked, `${text(first)} ${amount} workdays`);
      }
    }
  });
});
