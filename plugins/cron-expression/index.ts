import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { FROM_PATTERN, explain } from './explain.js';

const closed = { additionalProperties: false } as const;
const field = '[\\d*][\\d*/,-]*|[a-z]{3}(?:[-,][a-z]{3})*';
/** Six-field forms, seconds first, as recognizers filling the five standard fields. */
const sixFields = [
  [`^[\\d*][\\d*/,-]*[ \\t]+(?<five>(?:${field})(?:[ \\t]+(?:${field})){4})$`, '$<five>'],
  [`^[\\d*][\\d*/,-]*[ \\t]+(?<four>(?:${field})(?:[ \\t]+(?:${field})){3})[ \\t]+\\?$`, '$<four> *'],
  [`^[\\d*][\\d*/,-]*[ \\t]+(?<two>(?:${field})[ \\t]+(?:${field}))[ \\t]+\\?[ \\t]+(?<last>(?:${field})[ \\t]+(?:${field}))$`, '$<two> * $<last>'],
].map(([pattern, expression]) => ({
  kind: 'cron',
  title: 'Cron expression with seconds (explained without them)',
  pattern: new RegExp(pattern!, 'i'),
  confidence: 0.75,
  fill: { expression: expression! },
}));

/** A crontab line's schedule: a macro, or five fields (the last two may be names). */
const CRONTAB_SCHEDULE = String.raw`@(?:yearly|annually|monthly|weekly|daily|midnight|hourly)|[\d*][\d*/,-]*(?:[ \t]+(?:[\d*][\d*/,-]*|[a-z]{3}(?:[-,][a-z]{3})*)){4}`;

export default definePlugin({
  group: 'cron-expression',
  sdk: '^1.0.0',
  summary: 'Explain a five-field cron expression: normalized form, description, next runs in UTC',
  title: 'Cron explainer',
  category: 'Developer',
  keywords: ['crontab', 'schedule', 'cron job'],
  errors: {
    invalid_cron:
      'The expression is not five standard cron fields or a known macro (six fields, Jenkins H, Quartz ? L W #, @reboot, ' +
      'a value, range or step out of bounds); the message names the field',
    impossible_schedule: 'The expression is valid but can never fire (such as 0 0 30 2 *, February 30th)',
  },
  operations: {
    explain: defineOperation({
      summary: 'Normalize, describe and schedule a cron expression',
      io: { input: 'expression', output: 'description' },
      recognizers: [
        // A crontab line: five fields (or a macro) and the command they run.
        {
          kind: 'cron',
          title: 'Crontab line (schedule and command)',
          // The command is not a list of month or day names, nor `?` (then the line is six fields):
          // said by a lookahead at the start, the only place the service's linear engine takes one.
          pattern: new RegExp(String.raw`^(?!(?:${CRONTAB_SCHEDULE})[ \t]+(?:[a-z]{3}(?:[-,][a-z]{3})*|\?)$)(?<schedule>${CRONTAB_SCHEDULE})[ \t]+(?<command>[a-z/.$~"'[(][^\n]*)$`, 'i'),
          confidence: 0.85,
          fill: { expression: '$<schedule>' },
        },
        // Six fields, seconds first (Spring, Quartz, node-cron): explained without the seconds; a
        // Quartz `?` in either day field stands for `*`.
        ...sixFields,
        { kind: 'cron', title: 'Cron expression', pattern: /^(?:@(?:yearly|annually|monthly|weekly|daily|hourly)|[\d*?][\d*/,?LW#-]*(?:\s+(?:[\d*?][\d*/,?LW#-]*|[A-Za-z]{3}(?:[-,][A-Za-z]{3})*)){4,5})$/, confidence: 0.9 },
      ],
      deterministic: false, // the next runs count from now when `from` is left out
      readsClock: true,
      description:
        'Five fields (minute hour day-of-month month day-of-week; `*`, numbers, names, `a-b`, `*/s`, `a-b/s`, lists) ' +
        'or @yearly @annually @monthly @weekly @daily @midnight @hourly. When day-of-month and day-of-week are ' +
        'both other than `*`, a day matching either one fires (Vixie cron). `nextRuns` are UTC instants strictly after ' +
        '`from` (default: now), up to the end of year 9999. The description is English with 12-hour times or German ' +
        'with 24-hour times.',
      body: Type.Object(
        {
          expression: Type.String({ minLength: 1, maxLength: 200, description: '5-field cron expression or a macro such as @daily' }),
          count: Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'Number of upcoming runs' }),
          // Optional rather than a `default`: the default is the clock's now, known only per request.
          from: Type.Optional(
            Type.String({
              pattern: FROM_PATTERN,
              description:
                'Start instant: ISO 8601 date-time with Z or a numeric offset (±HH:MM), optional fractional seconds, ' +
                'an existing calendar date in the years 0001–9999 and a time 00:00:00–23:59:59; default now',
            }),
          ),
          locale: Type.Enum(['en', 'de'], { default: 'en', description: 'Language of the description' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          expression: Type.String({ description: 'Normalized five-field form (macros expanded, names as numbers)' }),
          description: Type.String({ description: 'Human-readable description' }),
          nextRuns: Type.Array(Type.String(), { description: 'Upcoming run times in UTC, ISO 8601' }),
        },
        closed,
      ),
      examples: [
        {
          title: 'Every quarter hour in office hours on weekdays',
          body: { expression: '*/15 9-17 * * MON-FRI', count: 3, from: '2024-03-15T16:50:00Z' },
          response: {
            expression: '*/15 9-17 * * 1-5',
            description: 'Every 15 minutes, between 09:00 AM and 05:59 PM, Monday through Friday',
            nextRuns: ['2024-03-15T17:00:00.000Z', '2024-03-15T17:15:00.000Z', '2024-03-15T17:30:00.000Z'],
          },
        },
        {
          title: 'A macro, described in German, from a time with an offset',
          body: { expression: '@daily', count: 2, from: '2024-02-28T23:30:00+01:00', locale: 'de' },
          response: {
            expression: '0 0 * * *',
            description: 'Um 00:00',
            nextRuns: ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
          },
        },
      ],
      handler: ({ expression, count, from, locale }, context) => explain(expression, count, from ?? context.now(), locale),
    }),
  },
});
