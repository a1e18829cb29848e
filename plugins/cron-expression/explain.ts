/** /explain: checks the expression, proves it can fire, lists the next runs and describes it. */
import { CALENDAR_DATE, InputError, TIME_OF_DAY, UnprocessableError, UTC_OFFSET } from '@toolshed/plugin-sdk';
import cronstrue from 'cronstrue';
// The German locale registers itself on the cronstrue module it requires (by path: the package
// has no export map, and the `cronstrue/i18n` bundle would load every locale).
import 'cronstrue/locales/de.js';
import { parseCron, type ParsedCron } from './cron-syntax.js';
import { Schedule } from './schedule.js';

/** The `from` the schema accepts: an existing date and time, years 0001–9999, with Z or an offset up to ±23:59. */
export const FROM_PATTERN = `^${CALENDAR_DATE}T${TIME_OF_DAY}${UTC_OFFSET}$`;

export interface Explanation {
  expression: string;
  description: string;
  nextRuns: string[];
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** The longest each month ever gets: February has its 29th in leap years. */
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Refuses a schedule that can never fire, without searching. Minute and hour always allow some
 * value, and when both day fields are restricted either one may match (and every weekday occurs
 * in every month), so only "day-of-month restricted, day-of-week `*`" can be empty: it is when the
 * smallest allowed day exceeds the longest of the allowed months. A 29th of February alone is
 * possible (leap years), whatever the weekday rule.
 */
export function assertCanFire(cron: ParsedCron): void {
  const [, , dayOfMonth, , dayOfWeek] = cron.fields;
  if (dayOfMonth === '*' || dayOfWeek !== '*') return;
  const firstDay = cron.values[2]![0]!;
  const months = cron.values[3]!;
  if (months.some((value) => firstDay <= LONGEST_MONTH[value - 1]!)) return;
  const monthList = months.length === 1 ? MONTH_NAMES[months[0]! - 1] : 'any of the allowed months';
  throw new UnprocessableError('impossible_schedule', `The schedule never fires: day ${firstDay} never occurs in ${monthList}`);
}

/** Parses `from` (the schema has checked the form): 400 on /from for a date or offset that does not exist. */
export function parseFrom(text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  const refuse = (message: string): never => {
    throw new InputError(`from ${message}`, [{ path: '/from', message }]);
  };
  if (match === null) return refuse('must be an ISO 8601 date-time with Z or a numeric offset');
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const monthLength = month === 2 && (year % 4 !== 0 || (year % 100 === 0 && year % 400 !== 0)) ? 28 : LONGEST_MONTH[month - 1];
  if (year < 1) refuse('must be in the years 0001–9999');
  if (monthLength === undefined || day < 1 || day > monthLength) refuse('is not a calendar date');
  if (hour > 23 || minute > 59 || second > 59) refuse('is not a time of day (00:00:00–23:59:59)');
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) refuse('has an offset outside ±23:59');
  const instant = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0–99 to 1900–1999.
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3)));
  const sign = match[8] === '-' ? -1 : 1;
  return new Date(instant.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

/** cronstrue in English with 12-hour times, or German with 24-hour times. */
export function describe(cron: ParsedCron, locale: 'en' | 'de'): string {
  try {
    return cronstrue.toString(cron.normalized, { locale, use24HourTimeFormat: locale === 'de', throwExceptionOnParseError: true });
  } catch {
    // cronstrue throws strings; after our own check it should never throw, and its text may quote input.
    throw new UnprocessableError('invalid_cron', 'The expression cannot be described');
  }
}

export function explain(expression: string, count: number, from: Date | string, locale: 'en' | 'de'): Explanation {
  // A malformed `from` is a 400 and goes first, before the 422s about the expression.
  const start = typeof from === 'string' ? parseFrom(from) : from;
  const cron = parseCron(expression);
  assertCanFire(cron);
  return { expression: cron.normalized, description: describe(cron, locale), nextRuns: new Schedule(cron).runs(start, count) };
}
