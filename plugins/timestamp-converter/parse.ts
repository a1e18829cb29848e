/**
 * Reads the `input` of a conversion into an exact instant: integer nanoseconds since the Unix
 * epoch (BigInt), and the unit or format it was read as.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { daysFromCivil, daysInMonth, isoWeekday } from './calendar.js';

export type TimestampUnit = 's' | 'ms' | 'us' | 'ns';
export const DETECTED_UNITS = ['s', 'ms', 'us', 'ns', 'iso', 'rfc2822', 'now'] as const;
export type DetectedUnit = (typeof DETECTED_UNITS)[number];

export interface Instant {
  /** Nanoseconds since 1970-01-01T00:00:00Z, rounded toward negative infinity. */
  ns: bigint;
  detectedUnit: DetectedUnit;
}

export const NS_PER: Readonly<Record<TimestampUnit, bigint>> = { s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, ns: 1n };
const DECIMAL_EXPONENT: Readonly<Record<TimestampUnit, number>> = { s: 9, ms: 6, us: 3, ns: 0 };
/** ECMAScript's time range: ±8.64e15 ms = ±10^8 days around the epoch. */
export const LIMIT_NS = 8_640_000_000_000_000_000_000n;
/** Any value of more significant digits is out of range in every unit (8.64e21 has 22). */
const MAX_SIGNIFICANT_DIGITS = 22;
/** The longest date string accepted is 38 characters (`+275760-09-13T00:00:00.000000000+00:00`). */
const MAX_DATE_STRING = 64;
const NS_PER_DAY = 86_400_000_000_000n;

export function floorDiv(dividend: bigint, divisor: bigint): bigint {
  const quotient = dividend / divisor;
  return dividend % divisor < 0n ? quotient - 1n : quotient;
}

function invalidDate(message: string): never {
  throw new UnprocessableError('invalid_date', message);
}

function checkRange(ns: bigint): bigint {
  if (ns > LIMIT_NS || ns < -LIMIT_NS) {
    throw new UnprocessableError('date_out_of_range', 'The time lies outside ±8.64e15 ms (-271821-04-20 to +275760-09-13), the range of a JavaScript date');
  }
  return ns;
}

function autoUnit(magnitude: number | bigint): TimestampUnit {
  if (magnitude < 1e11) return 's';
  if (magnitude < 1e14) return 'ms';
  if (magnitude < 1e17) return 'us';
  return 'ns';
}

/**
 * A JSON number is taken as the decimal it is written as: the shortest decimal that round-trips
 * the double (what `String(n)` gives), scaled exactly to nanoseconds and rounded down. So
 * 1710504000.123456 s is …123456000 ns, not the binary double's …123456001281738 ns.
 */
function fromNumber(value: number, unit: TimestampUnit | 'auto'): Instant {
  const magnitude = Math.abs(value);
  const used = unit === 'auto' ? autoUnit(magnitude) : unit;
  // Checked before BigInt scaling so that 1e308 costs nothing: 8.64e21 ns needs well under 1e23.
  if (magnitude * 10 ** DECIMAL_EXPONENT[used] > 1e23) checkRange(LIMIT_NS + 1n);
  const decimal = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (decimal === null) invalidDate('The number is not finite');
  const [, sign, whole, fraction = '', exponent = '0'] = decimal;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  const scale = Number(exponent) - fraction.length + DECIMAL_EXPONENT[used];
  const ns = scale >= 0 ? digits * 10n ** BigInt(scale) : floorDiv(digits, 10n ** BigInt(-scale));
  return { ns: checkRange(ns), detectedUnit: used };
}

function fromDigits(text: string, unit: TimestampUnit | 'auto'): Instant {
  const negative = text.startsWith('-');
  let start = text.startsWith('-') || text.startsWith('+') ? 1 : 0;
  while (text[start] === '0' && start < text.length - 1) start++;
  // Leading zeros are free; a long significant part is out of range before it is ever parsed.
  if (text.length - start > MAX_SIGNIFICANT_DIGITS) checkRange(LIMIT_NS + 1n);
  const magnitude = BigInt(text.slice(start));
  const used = unit === 'auto' ? autoUnit(magnitude) : unit;
  const ns = magnitude * NS_PER[used];
  return { ns: checkRange(negative ? -ns : ns), detectedUnit: used };
}

// Calendar date, then optionally a time with a zone. Years are four digits or, as ECMAScript and
// ISO 8601's expanded form write them, a sign and six digits.
const ISO_FORM =
  /^(?:([+-]\d{6})|(\d{4}))-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?))?$/;
const RFC2822_FORM =
  /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun),[ \t]*)?(\d{1,2})[ \t]+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ \t]+(-?\d{4,6})[ \t]+(\d{2}):(\d{2})(?::(\d{2}))?[ \t]+(?:([+-])(\d{2})(\d{2})|(UT|GMT|[ECMP][SD]T))$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** RFC 2822 §4.3 obsolete zone names, in hours east of UTC. */
const ZONE_NAMES: Readonly<Record<string, number>> = { ut: 0, gmt: 0, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7 };

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fractionNs: bigint;
  offsetMinutes: number;
}

function toNs(fields: Fields, form: string): bigint {
  const { year, month, day, hour, minute, second } = fields;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) invalidDate(`The ${form} date does not exist`);
  if (hour > 23 || minute > 59 || second > 59) invalidDate(`The ${form} time of day is out of range (00:00:00–23:59:59; no leap second)`);
  const days = BigInt(daysFromCivil(year, month, day));
  const seconds = BigInt(hour * 3600 + minute * 60 + second - fields.offsetMinutes * 60);
  return days * NS_PER_DAY + seconds * NS_PER.s + fields.fractionNs;
}

function offsetMinutes(sign: string, hours: string, minutes: string, form: string): number {
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 23 || m > 59) invalidDate(`The ${form} zone offset is out of range (at most ±23:59)`);
  return (sign === '-' ? -1 : 1) * (h * 60 + m);
}

function fromIso(match: RegExpExecArray): bigint {
  const [, expandedYear, year, month, day, hour, minute = '0', second = '0', fraction = '', zulu, sign, offsetHours, offsetMins = '00'] = match;
  if (expandedYear === '-000000') invalidDate('The ISO 8601 year -000000 is not allowed; write 0000');
  // A date alone is midnight UTC; a time without a zone would be a guess about the client's zone.
  if (hour !== undefined && zulu === undefined && sign === undefined) invalidDate('An ISO 8601 date with a time needs a zone: Z or an offset such as +01:00');
  return toNs(
    {
      year: Number(expandedYear ?? year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour ?? '0'),
      minute: Number(minute),
      second: Number(second),
      fractionNs: BigInt(fraction.padEnd(9, '0') || '0'),
      offsetMinutes: sign === undefined ? 0 : offsetMinutes(sign, offsetHours!, offsetMins, 'ISO 8601'),
    },
    'ISO 8601',
  );
}

function fromRfc2822(match: RegExpExecArray): bigint {
  const [, weekday, day, monthName, year, hour, minute, second = '0', sign, offsetHours, offsetMins, zoneName] = match;
  if (year === '-0000') invalidDate('The RFC 2822 year -0000 is not allowed; write 0000');
  const fields: Fields = {
    year: Number(year),
    month: MONTHS.indexOf(monthName!.toLowerCase()) + 1,
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    fractionNs: 0n,
    offsetMinutes: sign === undefined ? ZONE_NAMES[zoneName!.toLowerCase()]! * 60 : offsetMinutes(sign, offsetHours!, offsetMins!, 'RFC 2822'),
  };
  const ns = toNs(fields, 'RFC 2822');
  if (weekday !== undefined) {
    const actual = isoWeekday(daysFromCivil(fields.year, fields.month, fields.day));
    if (WEEKDAYS.indexOf(weekday.toLowerCase()) + 1 !== actual) invalidDate('The RFC 2822 day of the week does not match the date');
  }
  return ns;
}

function fromDateString(text: string): Instant {
  if (text.length > MAX_DATE_STRING) invalidDate(`Not a date: ${text.length} characters is longer than any accepted form`);
  const iso = ISO_FORM.exec(text);
  if (iso !== null) return { ns: checkRange(fromIso(iso)), detectedUnit: 'iso' };
  const rfc = RFC2822_FORM.exec(text);
  if (rfc !== null) return { ns: checkRange(fromRfc2822(rfc)), detectedUnit: 'rfc2822' };
  return invalidDate(
    'Not a timestamp or date: expected an integer, ISO 8601 (2024-03-15, 2024-03-15T12:00:00Z, …+01:00) or RFC 2822 (Fri, 15 Mar 2024 12:00:00 +0000)',
  );
}

export function readInput(input: number | string | undefined, unit: TimestampUnit | 'auto', nowMs: number): Instant {
  if (input === undefined) return { ns: checkRange(BigInt(nowMs) * NS_PER.ms), detectedUnit: 'now' };
  if (typeof input === 'number') return fromNumber(input, unit);
  if (/^[+-]?\d+$/.test(input)) return fromDigits(input, unit);
  return fromDateString(input);
}
