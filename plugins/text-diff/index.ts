import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { WorkBudget } from './align.js';
import { diffInline } from './inline.js';
import { diffLines } from './lines.js';
import { PartBudget } from './parts.js';

const closed = { additionalProperties: false } as const;

const texts = {
  original: Type.String({ description: 'The text before' }),
  changed: Type.String({ description: 'The text after' }),
  ignoreCase: Type.Boolean({ default: false, description: 'Compare case-insensitively' }),
  ignoreWhitespace: Type.Boolean({ default: false, description: 'Ignore all whitespace inside lines (not line breaks)' }),
};

const part = Type.Object(
  { type: Type.Union([Type.Literal('same'), Type.Literal('del'), Type.Literal('add')]), value: Type.String() },
  closed,
);

const side = Type.Object(
  {
    no: Type.Integer({ minimum: 1, description: '1-based line number on this side' }),
    text: Type.String(),
    parts: Type.Optional(Type.Array(part, { description: 'Word-level parts of a mod row: same and del on the left, same and add on the right' })),
  },
  closed,
);

const row = Type.Object(
  {
    type: Type.Union([Type.Literal('same'), Type.Literal('mod'), Type.Literal('del'), Type.Literal('add')]),
    left: Type.Optional(side),
    right: Type.Optional(side),
  },
  closed,
);

export default definePlugin({
  group: 'text-diff',
  sdk: '^1.0.0',
  summary: 'Line, word and character diffs of two texts',
  title: 'Text diff',
  category: 'Text',
  keywords: ['diff', 'compare', 'difference', 'changes'],
  errors: {
    diff_too_complex: 'The texts differ in too many places to compare within the work budget of one request',
    output_too_large: 'The diff would have more than 100,000 rows or 500,000 parts',
  },
  operations: {
    lines: defineOperation({
      summary: 'Line-by-line diff; a removed line followed by an added one becomes a mod row with word-level parts',
      errors: ['diff_too_complex', 'output_too_large'],
      description:
        '`\\r\\n` and `\\n` both end a line; `added` counts add and mod rows, `removed` del and mod rows. ' +
        'Large, very different texts answer 422 `diff_too_complex` instead of stalling.',
      body: Type.Object(texts, closed),
      response: Type.Object(
        {
          identical: Type.Boolean(),
          added: Type.Integer({ minimum: 0, description: 'Lines only on the right (add and mod rows)' }),
          removed: Type.Integer({ minimum: 0, description: 'Lines only on the left (del and mod rows)' }),
          rows: Type.Array(row),
        },
        closed,
      ),
      examples: [
        {
          title: 'One line changed, one added',
          body: { original: 'the quick brown fox\njumps', changed: 'the quick red fox\njumps\nhigh' },
          response: {
            identical: false,
            added: 2,
            removed: 1,
            rows: [
              {
                type: 'mod',
                left: {
                  no: 1,
                  text: 'the quick brown fox',
                  parts: [{ type: 'same', value: 'the quick ' }, { type: 'del', value: 'brown' }, { type: 'same', value: ' fox' }],
                },
                right: {
                  no: 1,
                  text: 'the quick red fox',
                  parts: [{ type: 'same', value: 'the quick ' }, { type: 'add', value: 'red' }, { type: 'same', value: ' fox' }],
                },
              },
              { type: 'same', left: { no: 2, text: 'jumps' }, right: { no: 2, text: 'jumps' } },
              { type: 'add', right: { no: 3, text: 'high' } },
            ],
          },
        },
      ],
      // Its work is (N + M) · D, told by how the texts differ, not by their size: a 48 KB body of two
      // random two-letter line sequences takes the whole work budget, 1.4-1.6 s of CPU. Bodies over
      // 512 bytes run on the pool; smaller ones cost at most about 4 ms (1 KiB ones up to 15 ms).
      cost: 'superlinear',
      handler: ({ original, changed, ignoreCase, ignoreWhitespace }) =>
        diffLines(original, changed, { ignoreCase, ignoreWhitespace }, new WorkBudget(), new PartBudget()),
    }),
    inline: defineOperation({
      summary: 'Inline diff over words (whitespace kept as its own tokens) or characters (code points)',
      errors: ['diff_too_complex', 'output_too_large'],
      body: Type.Object(
        { ...texts, granularity: Type.Union([Type.Literal('words'), Type.Literal('chars')], { default: 'words', description: 'Compare word by word or character by character' }) },
        closed,
      ),
      response: Type.Object({ identical: Type.Boolean(), parts: Type.Array(part) }, closed),
      examples: [
        {
          title: 'Words',
          body: { original: 'the quick brown fox', changed: 'the quick red fox' },
          response: {
            identical: false,
            parts: [
              { type: 'same', value: 'the quick ' },
              { type: 'del', value: 'brown' },
              { type: 'add', value: 'red' },
              { type: 'same', value: ' fox' },
            ],
          },
        },
        {
          title: 'Characters, ignoring case',
          body: { original: 'Kitten', changed: 'sitting', granularity: 'chars', ignoreCase: true },
          response: {
            identical: false,
            parts: [
              { type: 'del', value: 'K' },
              { type: 'add', value: 's' },
              { type: 'same', value: 'itt' },
              { type: 'del', value: 'e' },
              { type: 'add', value: 'i' },
              { type: 'same', value: 'n' },
              { type: 'add', value: 'g' },
            ],
          },
        },
      ],
      cost: 'superlinear', // as /lines: the work is told by how the texts differ
      handler: ({ original, changed, granularity, ignoreCase, ignoreWhitespace }) =>
        diffInline(original, changed, granularity, { ignoreCase, ignoreWhitespace }, new WorkBudget(), new PartBudget()),
    }),
  },
});
