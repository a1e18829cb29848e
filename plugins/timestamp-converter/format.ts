/**
 * Renders an exact instant in every form of the response: ISO 8601 (UTC and a time zone),
 * RFC 2822, Unix integers, relative text, weekday, ISO week and day of the year.
 */
import { InputError } from '@toolshed/plugin-sdk';
import { civilFromDays, dayOfYear, daysFromCivil, isoWeek, isoWeekday } from './calendar.js';
import { floorDiv, NS_PER, readInput, type Instant, type TimestampUnit } from './parse.js';

export type RelativeLocale = 'en' | 'de';

export interface Conversion {
  iso: string;
  rfc2822: string;
  local: string;
  unix: { s: string; ms: string; us: string; ns: string };
  detectedUnit: Instant['detectedUnit'];
  relative: string;
  weekday: Weekday;
  isoWeek: { year: number; week: number };
  dayOfYear: number;
}

const MS_PER_DAY = 86_400_000;
/**
 * The form of an IANA zone name: a letter, then letters, digits and `/ _ + -` (Etc/GMT+5,
 * America/Port-au-Prince). Newer ICU versions also take offsets such as "+01:00"; refusing them
 * keeps every Node version alike.
 */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9/_+-]*$';
const timeZoneForm = new RegExp(TIME_ZONE_PATTERN);

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAY_NAMES)[number];
const MONTH_ABBREVIATIONS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** ECMAScript's and ISO 8601's expanded form outside 0000–9999: a sign and six digits. */
function isoYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

/** RFC 2822 has four-digit years from 1900; beyond its grammar we write what Date#toUTCString writes. */
function rfcYear(year: number): string {
  return year < 0 ? `-${pad(-year, 4)}` : pad(year, 4);
}

interface WallClock {
  days: number;
  year: number;
  month: number;
  day: number;
  time: string;
}

function wallClock(ms: number): WallClock {
  const days = Math.floor(ms / MS_PER_DAY);
  const msOfDay = ms - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const time = `${pad(Math.floor(msOfDay / 3_600_000), 2)}:${pad(Math.floor(msOfDay / 60_000) % 60, 2)}:${pad(Math.floor(msOfDay / 1000) % 60, 2)}`;
  return { days, year, month, day, time: `${time}.${pad(msOfDay % 1000, 3)}` };
}

function isoText(ms: number, zone: string): string {
  const clock = wallClock(ms);
  return `${isoYear(clock.year)}-${pad(clock.month, 2)}-${pad(clock.day, 2)}T${clock.time}${zone}`;
}

function rfc2822Text(ms: number): string {
  const clock = wallClock(ms);
  const weekday = WEEKDAY_NAMES[isoWeekday(clock.days) - 1]!.slice(0, 3);
  return `${weekday}, ${pad(clock.day, 2)} ${MONTH_ABBREVIATIONS[clock.month - 1]} ${rfcYear(clock.year)} ${clock.time.slice(0, 8)} +0000`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_ZONES = 1000;

/** A formatter for `timeZone`, or 400 on `/timeZone` when it is not an IANA zone name. */
function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  const cached = zoneFormats.get(timeZone);
  if (cached !== undefined) return cached;
  const refuse = (): never => {
    throw new InputError('Unknown time zone', [{ path: '/timeZone', message: 'must be an IANA time zone name such as Europe/Berlin or UTC' }]);
  };
  if (timeZone.length > 64 || !timeZoneForm.test(timeZone)) refuse();
  let format: Intl.DateTimeFormat | undefined;
  try {
    format = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    refuse();
  }
  if (zoneFormats.size >= MAX_CACHED_ZONES) zoneFormats.clear();
  zoneFormats.set(timeZone, format!);
  return format!;
}

/** Seconds the zone is ahead of UTC at `ms` (whole seconds: old local mean times have them). */
function offsetSeconds(format: Intl.DateTimeFormat, ms: number): number {
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(ms)) part[type] = value;
  // Intl counts years by era (2 BC is year 2 of era BC); ISO 8601 counts 1 BC as year 0.
  const eraYear = Number(part.year);
  const year = part.era === 'BC' ? 1 - eraYear : eraYear;
  const localSeconds =
    daysFromCivil(year, Number(part.month), Number(part.day)) * 86_400 + Number(part.hour) * 3600 + Number(part.minute) * 60 + Number(part.second);
  return localSeconds - Math.floor(ms / 1000);
}

function offsetText(seconds: number): string {
  const magnitude = Math.abs(seconds);
  const text = `${seconds < 0 ? '-' : '+'}${pad(Math.floor(magnitude / 3600), 2)}:${pad(Math.floor(magnitude / 60) % 60, 2)}`;
  return magnitude % 60 === 0 ? text : `${text}:${pad(magnitude % 60, 2)}`;
}

/**
 * Largest unit first. Years and months are the mean Gregorian ones (365.2425 days and a twelfth of
 * that, 30.436875 days), so that long spans count the calendar years between the dates.
 */
const MEAN_YEAR_MS = 365.2425 * MS_PER_DAY;
const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', MEAN_YEAR_MS],
  ['month', MEAN_YEAR_MS / 12],
  ['week', 7 * MS_PER_DAY],
  ['day', MS_PER_DAY],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];
const relativeFormats: Readonly<Record<RelativeLocale, Intl.RelativeTimeFormat>> = {
  en: new Intl.RelativeTimeFormat('en', { numeric: 'auto' }),
  de: new Intl.RelativeTimeFormat('de', { numeric: 'auto' }),
};

/** The largest unit of which at least one whole fits, counted in whole units toward zero. */
export function relativeText(diffMs: number, locale: RelativeLocale): string {
  const format = relativeFormats[locale];
  for (const [unit, size] of RELATIVE_UNITS) {
    // `|| 0` turns −0 into 0, which numeric "auto" words as "now" rather than "0 seconds ago".
    if (Math.abs(diffMs) >= size) return format.format(Math.trunc(diffMs / size) || 0, unit);
  }
  return format.format(0, 'second');
}

export interface ConvertRequest {
  input?: number | string;
  unit: TimestampUnit | 'auto';
  timeZone: string;
  locale: RelativeLocale;
}

export function convert({ input, unit, timeZone, locale }: ConvertRequest, nowMs: number): Conversion {
  // The zone is checked first so a bad parameter is a 400 whatever the input.
  const format = zoneFormat(timeZone);
  const instant = readInput(input, unit, nowMs);
  const { ns } = instant;
  const ms = Number(floorDiv(ns, NS_PER.ms));
  const days = Math.floor(ms / MS_PER_DAY);
  const offset = offsetSeconds(format, ms);
  return {
    iso: isoText(ms, 'Z'),
    rfc2822: rfc2822Text(ms),
    local: isoText(ms + offset * 1000, offsetText(offset)),
    unix: {
      s: floorDiv(ns, NS_PER.s).toString(),
      ms: String(ms),
      us: floorDiv(ns, NS_PER.us).toString(),
      ns: ns.toString(),
    },
    detectedUnit: instant.detectedUnit,
    relative: relativeText(ms - nowMs, locale),
    weekday: WEEKDAY_NAMES[isoWeekday(days) - 1]!,
    isoWeek: isoWeek(days),
    dayOfYear: dayOfYear(days),
  };
}
