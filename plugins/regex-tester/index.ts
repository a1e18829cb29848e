import { definePlugin, defineOperation, workerRefusal, Type, UnprocessableError, type OperationContext, type Static } from '@toolshed/plugin-sdk';
import type { RegexJob, RegexResult } from './match.js';

const closed = { additionalProperties: false } as const;

const RegexConfig = Type.Object(
  {
    timeoutMs: Type.Integer({ minimum: 10, maximum: 60000, default: 1000, description: 'Time budget of one regex job' }),
    workers: Type.Integer({
      minimum: 1,
      maximum: 16,
      default: 2,
      description: 'Deprecated and ignored: regex jobs run on the shared worker pool, sized by `workers.threads`',
    }),
  },
  closed,
);
type RegexConfig = Static<typeof RegexConfig>;

/** Characters one answer may carry (matches, groups and replaced text together): twice the 10 MiB body cap. */
export const MAX_OUTPUT = 2 * 10 * 1024 * 1024;

const matcher = new URL('./worker.js', import.meta.url);

const Match = Type.Object(
  {
    index: Type.Integer({ description: 'Start, in UTF-16 code units' }),
    end: Type.Integer({ description: 'End (exclusive), in UTF-16 code units' }),
    text: Type.String(),
    groups: Type.Array(Type.String(), { description: 'Numbered groups; "" for a group that did not take part' }),
    named: Type.Record(Type.String(), Type.String(), { description: 'Named groups; "" for one that did not take part' }),
  },
  closed,
);

async function test(input: Omit<RegexJob, 'maxOutput'>, context: OperationContext<RegexConfig>): Promise<RegexResult> {
  const { timeoutMs } = context.config;
  try {
    return await context.runInWorker<RegexResult>(matcher, 'testRegex', [{ ...input, maxOutput: MAX_OUTPUT }], { deadlineMs: timeoutMs, signal: context.signal });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => new UnprocessableError('regex_timeout', `The pattern did not finish within ${timeoutMs} ms`),
      crashed: () => new UnprocessableError('output_too_large', 'The pattern needed more memory than a request may use'),
    });
  }
}

export default definePlugin({
  group: 'regex-tester',
  sdk: '^1.0.0',
  summary: 'Test JavaScript regular expressions: matches, groups, replacement',
  title: 'Regex tester',
  category: 'Text',
  keywords: ['regex', 'regexp', 'regular expression', 'pattern', 'match', 'replace'],
  config: { section: 'regex', schema: RegexConfig },
  errors: {
    invalid_regex: 'The pattern or the flags are not a valid JavaScript regular expression',
    regex_timeout: 'The pattern ran longer than the time budget (catastrophic backtracking)',
    output_too_large: 'The matches or the replaced text would make the answer too large',
    regex_too_complex: 'The pattern needs more backtracking stack than the text allows (a repeated group over megabytes)',
  },
  operations: {
    test: defineOperation({
      summary: 'Run a regular expression over a text',
      io: { input: 'text', output: 'matches' },
      recognizers: [
        // A literal as code writes it, /source/flags, with a metacharacter in it (so /usr/ stays a path).
        {
          kind: 'regex',
          title: 'Regular expression literal',
          pattern: /^(?=\/[^/]*[\\^$.*+?()[\]{}|])\/(?<source>(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\[\n])+)\/(?<flags>[dgimsuvy]{0,8})$/,
          confidence: 0.9,
          field: 'pattern',
          body: { text: '' },
          fill: { pattern: '$<source>', flags: '$<flags>' },
        },
        { kind: 'regex', title: 'Regular expression', pattern: /^(?=\^[\s\S]*(?:\\[dwsbDWSB]|\[[^\]]+\]|\(\?|[+*?]|\{\d+(?:,\d*)?\}))\^[\s\S]*\$$/, confidence: 0.85, field: 'pattern', body: { text: '' } },
        { kind: 'regex', title: 'Regular expression', pattern: /^(?=[\s\S]*(?:\\[dwsbDWSB]|\(\?[:=!<]))(?=[\s\S]*[+*?}\]])\S+$/, confidence: 0.6, field: 'pattern', body: { text: '' } },
      ],
      description:
        'JavaScript semantics (flags d, g, i, m, s, u, v, y). Without `g` at most one match. `replaced` is present only when `replacement` is given; it supports $1, $<name>, $& and the other JavaScript patterns.',
      body: Type.Object(
        {
          pattern: Type.String({ description: 'JavaScript syntax, without surrounding slashes' }),
          flags: Type.String({ default: 'g', maxLength: 8, description: 'JavaScript flags, any of d g i m s u v y' }),
          text: Type.String({ description: 'The text to search' }),
          replacement: Type.Optional(Type.String({ description: 'Replaces each match; $1, $<name> and $& refer to the match' })),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Most matches returned' }),
        },
        closed,
      ),
      response: Type.Object(
        { matches: Type.Array(Match), truncated: Type.Boolean(), replaced: Type.Optional(Type.String()) },
        closed,
      ),
      examples: [
        {
          title: 'Named groups and a replacement',
          body: { pattern: '(?<year>\\d{4})-(\\d{2})', text: 'from 2024-05 to 2025-01', replacement: '$2/$<year>' },
          response: {
            matches: [
              { index: 5, end: 12, text: '2024-05', groups: ['2024', '05'], named: { year: '2024' } },
              { index: 16, end: 23, text: '2025-01', groups: ['2025', '01'], named: { year: '2025' } },
            ],
            truncated: false,
            replaced: 'from 05/2024 to 01/2025',
          },
        },
      ],
      handler: (input, context: OperationContext<RegexConfig>) => test(input, context),
    }),
  },
});
