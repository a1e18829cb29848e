/**
 * Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01), in closed form
 * (Howard Hinnant's days_from_civil / civil_from_days). Unlike Date.UTC it has no two-digit-year
 * quirk and no range limit, so the ISO week of 275760-09-13 (whose Thursday lies past Date's
 * range) is still exact.
 */

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

const DAYS_PER_ERA = 146_097; // 400 Gregorian years
const EPOCH_SHIFT = 719_468; // days from 0000-03-01 to 1970-01-01

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function daysFromCivil(year: number, month: number, day: number): number {
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * DAYS_PER_ERA + dayOfEra - EPOCH_SHIFT;
}

export function civilFromDays(days: number): CivilDate {
  const shifted = days + EPOCH_SHIFT;
  const era = Math.floor(shifted / DAYS_PER_ERA);
  const dayOfEra = shifted - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO weekday, Monday = 1 … Sunday = 7; 1970-01-01 (day 0) was a Thursday. */
export function isoWeekday(days: number): number {
  return (((days + 3) % 7) + 7) % 7 + 1;
}

export function dayOfYear(days: number): number {
  return days - daysFromCivil(civilFromDays(days).year, 1, 1) + 1;
}

/** ISO 8601 week: the week (Monday–Sunday) belongs to the year that holds its Thursday. */
export function isoWeek(days: number): { year: number; week: number } {
  const thursday = days - isoWeekday(days) + 4;
  const year = civilFromDays(thursday).year;
  return { year, week: Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1 };
}
