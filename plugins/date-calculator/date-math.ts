/** The two operations of date-calculator: /difference and /add, on top of calendar.ts. */
import { CALENDAR_DATE, InputError, UnprocessableError } from '@toolshed/plugin-sdk';
import {
  FIRST_DAY,
  LAST_DAY,
  MAX_YEAR,
  MIN_YEAR,
  addMonths,
  addWorkdays,
  civilDate,
  dayNumber,
  daysInMonth,
  isoWeek,
  isoWeekday,
  workdaysIn,
  type CivilDate,
  type IsoWeek,
} from './calendar.js';

/** A date the schema accepts: one that exists, in the years 0001–9999. */
export const DATE_PATTERN = `^${CALENDAR_DATE}$`;

export type AddUnit = 'days' | 'weeks' | 'months' | 'years' | 'workdays';

export interface Difference {
  days: number;
  weeks: number;
  restDays: number;
  years: number;
  months: number;
  monthDays: number;
  workdays: number;
  direction: 'forward' | 'backward';
}

export interface AddResult {
  date: string;
  weekday: number;
  isoWeek: IsoWeek;
}

/** Parses `YYYY-MM-DD` (the schema has checked the form) into a day number; 400 on `field` if the date does not exist. */
export function parseDate(text: string, field: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const refuse = (message: string): never => {
    throw new InputError(`${field} ${message}`, [{ path: `/${field}`, message }]);
  };
  if (match === null) return refuse('must be a date of the form YYYY-MM-DD');
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_YEAR) return refuse('must be in the years 0001–9999');
  if (month < 1 || month > 12) return refuse('has no month 1–12');
  if (day < 1 || day > daysInMonth(year, month)) return refuse(`is not a day of ${match[1]}-${match[2]}`);
  return dayNumber({ year, month, day });
}

export function formatDate({ year, month, day }: CivilDate): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * Whole calendar months from `from` to `to` (from ≤ to) such that `from` + months (clamped) ≤ `to`,
 * and the days left over. Adding the months in one step is what /add does with unit `months`.
 */
function calendarDifference(from: number, to: number): { totalMonths: number; restDays: number } {
  const start = civilDate(from);
  const end = civilDate(to);
  let totalMonths = (end.year - start.year) * 12 + (end.month - start.month);
  if (dayNumber(addMonths(start, totalMonths)) > to) totalMonths -= 1;
  return { totalMonths, restDays: to - dayNumber(addMonths(start, totalMonths)) };
}

/**
 * The span between `start` and `end`. The counted days run from `start` toward `end`, `start`
 * included and `end` excluded, `end` included too with `includeEnd`; so a backward span counts
 * end + 1 … start (end … start with includeEnd). days and workdays count those days; the calendar
 * fields are the difference from the earlier date to the later one, the later one moved one day
 * further out with includeEnd (2024-01-01 → 2024-01-31 with includeEnd is exactly 1 month).
 */
export function difference(startText: string, endText: string, includeEnd: boolean): Difference {
  const start = parseDate(startText, 'start');
  const end = parseDate(endText, 'end');
  const forward = end >= start;
  const extra = includeEnd ? 1 : 0;
  const days = Math.abs(end - start) + extra;
  const firstCounted = forward ? start : end + 1 - extra;
  const earlier = Math.min(start, end);
  const calendar = calendarDifference(earlier, earlier + days);
  return {
    days,
    weeks: Math.floor(days / 7),
    restDays: days % 7,
    years: Math.floor(calendar.totalMonths / 12),
    months: calendar.totalMonths % 12,
    monthDays: calendar.restDays,
    workdays: workdaysIn(firstCounted, days),
    direction: forward ? 'forward' : 'backward',
  };
}

function outOfRange(): never {
  throw new UnprocessableError('date_out_of_range', 'The result falls outside the years 0001–9999');
}

/** `dateText` moved by `amount` `unit`s. */
export function add(dateText: string, amount: number, unit: AddUnit): AddResult {
  const days = parseDate(dateText, 'date');
  let result: number;
  if (unit === 'days' || unit === 'weeks') result = days + amount * (unit === 'weeks' ? 7 : 1);
  else if (unit === 'workdays') result = addWorkdays(days, amount);
  else {
    const moved = addMonths(civilDate(days), amount * (unit === 'years' ? 12 : 1));
    if (moved.year < MIN_YEAR || moved.year > MAX_YEAR) outOfRange();
    result = dayNumber(moved);
  }
  if (result < FIRST_DAY || result > LAST_DAY) outOfRange();
  return { date: formatDate(civilDate(result)), weekday: isoWeekday(result), isoWeek: isoWeek(result) };
}
