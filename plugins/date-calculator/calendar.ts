/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), all in closed
 * form: no loop over days, months or years, so 0001-01-01 → 9999-12-31 costs the same as one day.
 * The day-number conversions are Howard Hinnant's `days_from_civil` / `civil_from_days`.
 */

/** A calendar date; month 1–12, day 1–31. */
export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** ISO 8601 week: the week-numbering year and the week 1–53. */
export interface IsoWeek {
  year: number;
  week: number;
}

export const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const floorDiv = (a: number, b: number): number => Math.floor(a / b);
const mod = (a: number, b: number): number => ((a % b) + b) % b;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 (negative before it). */
export function dayNumber({ year, month, day }: CivilDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = floorDiv(153 * (month + (month > 2 ? -3 : 9)) + 2, 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + floorDiv(yearOfEra, 4) - floorDiv(yearOfEra, 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** The date of a day number. */
export function civilDate(days: number): CivilDate {
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = floorDiv(dayOfEra - floorDiv(dayOfEra, 1460) + floorDiv(dayOfEra, 36524) - floorDiv(dayOfEra, 146096), 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + floorDiv(yearOfEra, 4) - floorDiv(yearOfEra, 100));
  const shiftedMonth = floorDiv(5 * dayOfYear + 2, 153);
  const day = dayOfYear - floorDiv(153 * shiftedMonth + 2, 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export const FIRST_DAY = dayNumber({ year: MIN_YEAR, month: 1, day: 1 });
export const LAST_DAY = dayNumber({ year: MAX_YEAR, month: 12, day: 31 });

/** ISO weekday, 1 = Monday … 7 = Sunday (day 0, 1970-01-01, was a Thursday). */
export function isoWeekday(days: number): number {
  return mod(days + 3, 7) + 1;
}

/** ISO 8601 week: the week belongs to the year that holds its Thursday. */
export function isoWeek(days: number): IsoWeek {
  const thursday = days - isoWeekday(days) + 4;
  const year = civilDate(thursday).year;
  return { year, week: floorDiv(thursday - dayNumber({ year, month: 1, day: 1 }), 7) + 1 };
}

/**
 * `date` plus `months` calendar months, the day clamped to the last day of the target month
 * (2024-01-31 + 1 month = 2024-02-29). The target year may fall outside 1–9999; callers check.
 */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = floorDiv(monthIndex, 12);
  const month = mod(monthIndex, 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** A Monday (1970-01-05) that anchors the workday count. */
const ANCHOR_MONDAY = 4;

/** Monday–Friday days in [ANCHOR_MONDAY, days) (negative before the anchor): 5 per full week. */
function workdaysBefore(days: number): number {
  const offset = days - ANCHOR_MONDAY;
  return 5 * floorDiv(offset, 7) + Math.min(mod(offset, 7), 5);
}

/** Monday–Friday days among the `count` days `first`, first + 1, …, first + count − 1. */
export function workdaysIn(first: number, count: number): number {
  return workdaysBefore(first + count) - workdaysBefore(first);
}

/** The `ordinal`-th workday counted from the anchor Monday (ordinal 1 is that Monday; may be ≤ 0). */
function nthWorkday(ordinal: number): number {
  const zeroBased = ordinal - 1;
  const weeks = floorDiv(zeroBased, 5);
  return ANCHOR_MONDAY + 7 * weeks + (zeroBased - 5 * weeks);
}

/**
 * `days` moved by `amount` workdays: +n is the n-th Monday–Friday day after `days`, −n the n-th
 * one before it, so from a Saturday +1 is the next Monday and −1 the previous Friday. 0 leaves the
 * date as it is, even on a weekend.
 */
export function addWorkdays(days: number, amount: number): number {
  if (amount === 0) return days;
  // workdaysBefore(days + 1) counts the workdays up to and including `days`.
  if (amount > 0) return nthWorkday(workdaysBefore(days + 1) + amount);
  return nthWorkday(workdaysBefore(days) + amount + 1);
}
