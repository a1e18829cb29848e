import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { DATE_PATTERN, add, difference } from './date-math.js';

const closed = { additionalProperties: false } as const;
const date = (description: string) =>
  Type.String({ pattern: DATE_PATTERN, description: `${description}: an existing YYYY-MM-DD date, proleptic Gregorian, years 0001–9999` });
const count = (description: string) => Type.Integer({ minimum: 0, description });

export default definePlugin({
  group: 'date-calculator',
  sdk: '^1.0.0',
  summary: 'Date arithmetic: the span between two dates, and a date plus days, weeks, months, years or workdays',
  title: 'Date calculator',
  category: 'Dates and time',
  keywords: ['days between', 'add days', 'workdays', 'business days', 'calendar'],
  errors: {
    date_out_of_range: 'The result of /add falls outside the years 0001–9999',
  },
  operations: {
    difference: defineOperation({
      summary: 'Days, weeks, calendar years/months/days and workdays between two dates',
      errors: [],
      description:
        'All counts are non-negative; `direction` is `backward` when end is before start (equal dates are `forward`). ' +
        'The counted days run from start toward end, start included and end excluded (end included with `includeEnd`); ' +
        '`workdays` counts the Mondays–Fridays among them (public holidays ignored). `years`, `months` and `monthDays` ' +
        'are the calendar difference from the earlier to the later date (one day later with `includeEnd`): ' +
        'earlier + (12·years + months) months, clamped to the month end, + monthDays days = later.',
      body: Type.Object(
        {
          start: date('First date'),
          end: date('Second date'),
          includeEnd: Type.Boolean({ default: false, description: 'Count the end date as a full day' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          days: count('Days counted (+1 with includeEnd)'),
          weeks: count('floor(days / 7)'),
          restDays: count('days mod 7'),
          years: count('Whole calendar years'),
          months: count('Whole calendar months after the years (0–11)'),
          monthDays: count('Days remaining after the whole years and months'),
          workdays: count('Monday–Friday days among the counted days'),
          direction: Type.Enum(['forward', 'backward'], { description: '`backward` when end is before start' }),
        },
        closed,
      ),
      examples: [
        {
          title: 'From New Year to Christmas Eve 2024',
          body: { start: '2024-01-01', end: '2024-12-24' },
          // 2024 is a leap year: Jan 1 → Dec 24 is 366 − 8 = 358 days; 51 weeks + 1 day; 11 months 23 days.
          // 51 full weeks hold 255 workdays; the extra day, 2024-12-23, is a Monday: 256.
          response: { days: 358, weeks: 51, restDays: 1, years: 0, months: 11, monthDays: 23, workdays: 256, direction: 'forward' },
        },
        {
          title: 'Backward, counting the end date',
          body: { start: '2024-03-31', end: '2024-02-29', includeEnd: true },
          // Counted: Feb 29 … Mar 31 = 32 days; calendar 2024-02-29 → 2024-04-01 is 1 month (→ 03-29) + 3 days.
          // Feb 29 (Thu) … Mar 31 (Sun): 4 full weeks (20 workdays) + Thu Mar 28 … Sun Mar 31 (2 workdays) = 22.
          response: { days: 32, weeks: 4, restDays: 4, years: 0, months: 1, monthDays: 3, workdays: 22, direction: 'backward' },
        },
      ],
      handler: ({ start, end, includeEnd }) => difference(start, end, includeEnd),
    }),
    add: defineOperation({
      summary: 'Add days, weeks, months, years or workdays to a date',
      io: { input: 'date', output: 'date' },
      errors: ['date_out_of_range'],
      description:
        'Months and years clamp to the last day of the target month (2024-01-31 + 1 month = 2024-02-29). Workdays ' +
        'skip Saturdays and Sundays: +n is the n-th Monday–Friday day after the date, −n the n-th before it (from a ' +
        'Saturday, +1 is the next Monday and −1 the previous Friday); 0 returns the date unchanged. A result outside ' +
        '0001–9999 is 422 `date_out_of_range`.',
      body: Type.Object(
        {
          date: date('Starting date'),
          amount: Type.Integer({ minimum: -100000, maximum: 100000, description: 'How many units to add; negative subtracts' }),
          unit: Type.Enum(['days', 'weeks', 'months', 'years', 'workdays'], { description: 'Unit of amount' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          date: Type.String({ description: 'The resulting date, YYYY-MM-DD' }),
          weekday: Type.Integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 = Monday … 7 = Sunday' }),
          isoWeek: Type.Object(
            {
              year: Type.Integer({ description: 'ISO week-numbering year' }),
              week: Type.Integer({ minimum: 1, maximum: 53, description: 'ISO 8601 week' }),
            },
            closed,
          ),
        },
        closed,
      ),
      examples: [
        {
          title: 'One month after January 31 in a leap year clamps to February 29',
          body: { date: '2024-01-31', amount: 1, unit: 'months' },
          response: { date: '2024-02-29', weekday: 4, isoWeek: { year: 2024, week: 9 } },
        },
        {
          title: 'One workday after a Saturday is the next Monday',
          body: { date: '2024-03-16', amount: 1, unit: 'workdays' },
          response: { date: '2024-03-18', weekday: 1, isoWeek: { year: 2024, week: 12 } },
        },
      ],
      handler: ({ date: start, amount, unit }) => add(start, amount, unit),
    }),
  },
});
