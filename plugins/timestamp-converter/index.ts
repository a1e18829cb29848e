import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { convert, TIME_ZONE_PATTERN, WEEKDAY_NAMES, type Conversion } from './format.js';
import { DETECTED_UNITS } from './parse.js';

const closed = { additionalProperties: false } as const;
/** Any whole number of 9 to 19 digits: the parser picks the unit by its size. */
const DIGITS = /^-?[1-9]\d{8,18}$/;
/** A date from 1980 to 2059, where timestamps people paste fall. */
const RECENT = '^(?:19[89]\\d|20[0-5]\\d)-';
const integerText = (description: string) => Type.String({ pattern: '^-?[0-9]+$', description });

/** Every example's `relative` is as seen from this clock; the contract test's live clock differs, so they are not exact. */
export const EXAMPLE_CLOCK = '2024-03-15T15:00:00.000Z';

const examples: { title: string; body: Record<string, unknown>; response: Conversion }[] = [
  {
    title: 'Seconds, shown in Berlin (relative as of 2024-03-15T15:00:00Z)',
    body: { input: 1710504000, timeZone: 'Europe/Berlin' },
    response: {
      iso: '2024-03-15T12:00:00.000Z',
      rfc2822: 'Fri, 15 Mar 2024 12:00:00 +0000',
      local: '2024-03-15T13:00:00.000+01:00',
      unix: { s: '1710504000', ms: '1710504000000', us: '1710504000000000', ns: '1710504000000000000' },
      detectedUnit: 's',
      relative: '3 hours ago',
      weekday: 'Friday',
      isoWeek: { year: 2024, week: 11 },
      dayOfYear: 75,
    },
  },
  {
    title: 'Nanoseconds beyond 2^53 as a digit string, exact; relative in German (as of 2024-03-15T15:00:00Z)',
    body: { input: '1710504000123456789', locale: 'de' },
    response: {
      iso: '2024-03-15T12:00:00.123Z',
      rfc2822: 'Fri, 15 Mar 2024 12:00:00 +0000',
      local: '2024-03-15T12:00:00.123+00:00',
      unix: { s: '1710504000', ms: '1710504000123', us: '1710504000123456', ns: '1710504000123456789' },
      detectedUnit: 'ns',
      relative: 'vor 2 Stunden',
      weekday: 'Friday',
      isoWeek: { year: 2024, week: 11 },
      dayOfYear: 75,
    },
  },
  {
    title: 'ISO 8601 with an offset, shown in New York (relative as of 2024-03-15T15:00:00Z)',
    body: { input: '2024-03-18T09:00:00+01:00', timeZone: 'America/New_York' },
    response: {
      iso: '2024-03-18T08:00:00.000Z',
      rfc2822: 'Mon, 18 Mar 2024 08:00:00 +0000',
      local: '2024-03-18T04:00:00.000-04:00',
      unix: { s: '1710748800', ms: '1710748800000', us: '1710748800000000', ns: '1710748800000000000' },
      detectedUnit: 'iso',
      relative: 'in 2 days',
      weekday: 'Monday',
      isoWeek: { year: 2024, week: 12 },
      dayOfYear: 78,
    },
  },
  {
    title: 'RFC 2822, shown in Kolkata (relative as of 2024-03-15T15:00:00Z)',
    body: { input: 'Thu, 14 Mar 2024 08:15:30 -0500', timeZone: 'Asia/Kolkata' },
    response: {
      iso: '2024-03-14T13:15:30.000Z',
      rfc2822: 'Thu, 14 Mar 2024 13:15:30 +0000',
      local: '2024-03-14T18:45:30.000+05:30',
      unix: { s: '1710422130', ms: '1710422130000', us: '1710422130000000', ns: '1710422130000000000' },
      detectedUnit: 'rfc2822',
      relative: 'yesterday',
      weekday: 'Thursday',
      isoWeek: { year: 2024, week: 11 },
      dayOfYear: 74,
    },
  },
  {
    title: 'A negative fraction: seconds and milliseconds round toward negative infinity (relative as of 2024-03-15T15:00:00Z)',
    body: { input: -1.5 },
    response: {
      iso: '1969-12-31T23:59:58.500Z',
      rfc2822: 'Wed, 31 Dec 1969 23:59:58 +0000',
      local: '1969-12-31T23:59:58.500+00:00',
      unix: { s: '-2', ms: '-1500', us: '-1500000', ns: '-1500000000' },
      detectedUnit: 's',
      relative: '54 years ago',
      weekday: 'Wednesday',
      isoWeek: { year: 1970, week: 1 },
      dayOfYear: 365,
    },
  },
];

export default definePlugin({
  group: 'timestamp-converter',
  sdk: '^1.0.0',
  summary: 'Convert Unix timestamps and ISO 8601 / RFC 2822 dates into every common form',
  title: 'Timestamp converter',
  category: 'Dates and time',
  keywords: ['epoch', 'unix time', 'unix timestamp', 'iso 8601', 'rfc 2822', 'date', 'time zone'],
  errors: {
    invalid_date: 'The input string is neither an integer nor a date in the accepted ISO 8601 or RFC 2822 forms, or names a date or time that does not exist',
    date_out_of_range: 'The time lies outside ±8.64e15 ms around 1970 (-271821-04-20 to +275760-09-13), the range of a JavaScript date',
  },
  operations: {
    convert: defineOperation({
      summary: 'Convert a Unix timestamp or a date string to ISO 8601, RFC 2822, local time, Unix units and relative text',
      io: { input: 'input', output: 'iso' },
      // Identify asks the parser: any run of digits or date-like text goes in, and the answer's
      // detectedUnit says what it read. A number counts as a timestamp when its date is 1980–2059.
      recognizers: [
        { kind: 'unix-timestamp', title: 'Unix timestamp (seconds)', pattern: DIGITS, confidence: 0.8, answer: { detectedUnit: '^s$', iso: RECENT } },
        { kind: 'unix-timestamp', title: 'Unix timestamp (milliseconds)', pattern: DIGITS, confidence: 0.8, answer: { detectedUnit: '^ms$', iso: RECENT } },
        { kind: 'unix-timestamp', title: 'Unix timestamp (microseconds)', pattern: DIGITS, confidence: 0.75, answer: { detectedUnit: '^us$', iso: RECENT } },
        { kind: 'unix-timestamp', title: 'Unix timestamp (nanoseconds)', pattern: DIGITS, confidence: 0.75, answer: { detectedUnit: '^ns$', iso: RECENT } },
        { kind: 'iso-8601-date', title: 'ISO 8601 date', pattern: /^[+-]?\d{4,6}-\d{2}-\d{2}(?:[T ]\d|$)/i, confidence: 0.9, answer: { detectedUnit: '^iso$' } },
        { kind: 'rfc-2822-date', title: 'RFC 2822 date', pattern: /^(?:[a-z]{3},?\s*)?\d{1,2}\s+[a-z]{3}\s+\d{2,4}\s+\d{1,2}:\d{2}/i, confidence: 0.9, answer: { detectedUnit: '^rfc2822$' } },
      ],
      deterministic: false, // "now" and relative answers read the clock
      description:
        'A number or a string of digits is a Unix timestamp; with `unit` `auto` its magnitude picks the unit (|n| < 1e11 s, ' +
        '< 1e14 ms, < 1e17 µs, else ns). Digit strings are exact at any size; a fractional number is taken as the decimal it ' +
        'is written as. Other strings: ISO 8601 (`2024-03-15`, `2024-03-15T12:00[:00[.fraction]]` with `Z` or an offset) or ' +
        'RFC 2822 (`Fri, 15 Mar 2024 12:00:00 +0000`). Omitted input is now. `unix` values are rounded toward negative ' +
        'infinity; `relative` counts whole units of the largest unit that fits, from the clock (mean Gregorian months and years).',
      body: Type.Object(
        {
          input: Type.Optional(
            Type.Union([Type.Number(), Type.String()], { description: 'Unix timestamp (number or digit string) or ISO 8601 / RFC 2822 date; omit for now' }),
          ),
          unit: Type.Union([Type.Literal('auto'), Type.Literal('s'), Type.Literal('ms'), Type.Literal('us'), Type.Literal('ns')], {
            default: 'auto',
            description: 'Unit of a numeric timestamp (ignored for date strings)',
          }),
          timeZone: Type.String({
            default: 'UTC',
            maxLength: 64,
            pattern: TIME_ZONE_PATTERN,
            description:
              'IANA time zone of the `local` field, such as Europe/Berlin or UTC, in any letter case. It must be a zone ' +
              "the server's time-zone data (the ICU of its Node.js) knows; an unknown one is 400 on /timeZone. That list " +
              'differs between Node.js versions, so the schema states only the form of a name.',
          }),
          locale: Type.Union([Type.Literal('en'), Type.Literal('de')], { default: 'en', description: 'Language of `relative`' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          iso: Type.String({ description: 'ISO 8601 in UTC, milliseconds' }),
          rfc2822: Type.String({ description: 'RFC 2822 in UTC (+0000)' }),
          local: Type.String({ description: 'ISO 8601 in `timeZone` with its offset' }),
          unix: Type.Object(
            {
              s: integerText('Seconds'),
              ms: integerText('Milliseconds'),
              us: integerText('Microseconds'),
              ns: integerText('Nanoseconds'),
            },
            closed,
          ),
          detectedUnit: Type.Enum(DETECTED_UNITS, {
            description: 'The unit a timestamp was read in, the date format, or `now` for omitted input',
          }),
          relative: Type.String({ description: 'Relative to the clock, in `locale`' }),
          weekday: Type.Enum(WEEKDAY_NAMES, { description: 'English day name (UTC)' }),
          isoWeek: Type.Object({ year: Type.Integer(), week: Type.Integer({ minimum: 1, maximum: 53 }) }, closed),
          dayOfYear: Type.Integer({ minimum: 1, maximum: 366, description: 'UTC' }),
        },
        closed,
      ),
      examples: examples.map((example) => ({ ...example, exact: false })),
      handler: (body, context) => convert(body, context.now().getTime()),
    }),
  },
});
