import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALENDAR_DATE, TIME_OF_DAY, UTC_OFFSET } from './patterns.js';

const date = new RegExp(`^${CALENDAR_DATE}$`);
const pad = (value: number, width: number): string => String(value).padStart(width, '0');

describe('CALENDAR_DATE', () => {
  it('matches exactly the days the calendar has, around each leap-year rule', () => {
    // Years by rule: 4 and 2024 (divisible by 4), 100 and 1900 (by 100, not 400), 400 and 2000 (by 400),
    // 1 and 2023 and 9999 (common years), and the ends of the range.
    for (const year of [1, 4, 100, 400, 1900, 2000, 2023, 2024, 9999]) {
      for (let month = 1; month <= 12; month++) {
        // Date.UTC's day 0 of the next month is the last day of this one (setUTCFullYear: years below 100 stay as given).
        const last = new Date(0);
        last.setUTCFullYear(year, month, 0);
        const length = last.getUTCDate();
        for (let day = 0; day <= 32; day++) {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
          assert.equal(date.test(text), day >= 1 && day <= length, text);
        }
      }
    }
  });

  it('refuses year 0000, other widths and other separators', () => {
    for (const text of ['0000-01-01', '0000-02-29', '10000-01-01', '2024-1-01', '2024/01/01', '2024-01-01T00:00:00Z', '+2024-01-01']) assert.equal(date.test(text), false, text);
  });
});

describe('TIME_OF_DAY and UTC_OFFSET', () => {
  const instant = new RegExp(`^${TIME_OF_DAY}${UTC_OFFSET}$`);
  it('take 00:00:00–23:59:59 with up to 9 fraction digits, and offsets up to ±23:59', () => {
    for (const text of ['00:00:00Z', '23:59:59.123456789+23:59', '12:30:00-00:00']) assert.equal(instant.test(text), true, text);
    for (const text of ['24:00:00Z', '23:60:00Z', '23:59:60Z', '12:00:00.1234567890Z', '12:00:00+24:00', '12:00:00', '12:00:00z']) assert.equal(instant.test(text), false, text);
  });
});
