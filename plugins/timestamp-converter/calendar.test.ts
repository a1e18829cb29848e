import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { civilFromDays, dayOfYear, daysFromCivil, isoWeek, isoWeekday } from './calendar.js';

const MS_PER_DAY = 86_400_000;

describe('calendar arithmetic', () => {
  it('agrees with Date on every 997th day across the whole ECMAScript range', () => {
    // Date is the independent reference inside its range (±10^8 days); 997 is prime, so the probes
    // fall on every month, weekday and leap-year position.
    let probes = 0;
    for (let days = -100_000_000; days <= 100_000_000; days += 997 * 101) {
      const date = new Date(days * MS_PER_DAY);
      const civil = civilFromDays(days);
      assert.deepEqual(civil, { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
      assert.equal(daysFromCivil(civil.year, civil.month, civil.day), days);
      assert.equal(isoWeekday(days) % 7, date.getUTCDay());
      probes++;
    }
    assert.ok(probes > 1900);
  });

  it('puts the epoch and the range ends on the right days', () => {
    assert.equal(daysFromCivil(1970, 1, 1), 0);
    assert.equal(daysFromCivil(275760, 9, 13), 100_000_000);
    assert.equal(daysFromCivil(-271821, 4, 20), -100_000_000);
    assert.equal(isoWeekday(0), 4); // 1970-01-01 was a Thursday
    assert.deepEqual(civilFromDays(daysFromCivil(0, 2, 29)), { year: 0, month: 2, day: 29 }); // year 0 is a leap year
  });

  it('numbers ISO weeks at year ends (ISO 8601: the week belongs to the year of its Thursday)', () => {
    const week = (y: number, m: number, d: number) => isoWeek(daysFromCivil(y, m, d));
    assert.deepEqual(week(2021, 1, 3), { year: 2020, week: 53 }); // a Sunday; 2020 began on a Wednesday and was leap
    assert.deepEqual(week(2021, 1, 4), { year: 2021, week: 1 });
    assert.deepEqual(week(2008, 12, 29), { year: 2009, week: 1 }); // a Monday whose Thursday is 2009-01-01
    assert.deepEqual(week(2010, 1, 3), { year: 2009, week: 53 }); // 2009 began on a Thursday
    assert.deepEqual(week(2005, 1, 1), { year: 2004, week: 53 });
    assert.deepEqual(week(2024, 12, 30), { year: 2025, week: 1 });
    // 275760-09-13 is a Saturday; its Thursday (09-11) is in range, but the Sunday after is not for Date.
    assert.deepEqual(week(275760, 9, 13), { year: 275760, week: 37 });
  });

  it('counts the day of the year from 1 to 365 or 366', () => {
    assert.equal(dayOfYear(daysFromCivil(2024, 1, 1)), 1);
    assert.equal(dayOfYear(daysFromCivil(2024, 3, 15)), 75); // 31 + 29 + 15
    assert.equal(dayOfYear(daysFromCivil(2024, 12, 31)), 366);
    assert.equal(dayOfYear(daysFromCivil(2023, 12, 31)), 365);
    assert.equal(dayOfYear(daysFromCivil(1900, 12, 31)), 365); // 1900 is not a leap year
  });
});
