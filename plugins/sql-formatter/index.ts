import { definePlugin, defineOperation, Type, UnprocessableError, workerRefusal, type OperationContext } from '@toolshed/plugin-sdk';
import { DIALECTS } from './dialects.data.js';
import type { FormatRequest } from './format.js';
import { minifySql } from './minify.js';

const closed = { additionalProperties: false } as const;

/**
 * Time budget of one /format job, queue time included. sql-formatter is quadratic in nesting depth
 * (2 KB of nested parentheses already takes seconds), so input size cannot tell a fast job from a
 * slow one: every job runs in the SDK's worker pool, none on the main thread.
 */
export const FORMAT_DEADLINE_MS = 2000;

const formatModule = new URL('./format.js', import.meta.url);

async function formatInWorker(request: FormatRequest, context: OperationContext): Promise<string> {
  try {
    return await context.runInWorker<string>(formatModule, 'formatSql', [request], { deadlineMs: FORMAT_DEADLINE_MS, signal: context.signal });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => new UnprocessableError('input_too_complex', `The SQL could not be formatted within ${FORMAT_DEADLINE_MS} ms`),
      crashed: () => new UnprocessableError('input_too_complex', 'Formatting the SQL needed more memory than a request may use'),
    });
  }
}

const sqlField = Type.String({ description: 'One or more SQL statements' });
const answer = Type.Object({ sql: Type.String() }, closed);

export default definePlugin({
  group: 'sql-formatter',
  sdk: '^1.0.0',
  summary: 'Format SQL in 16 dialects, or minify it to one line',
  title: 'SQL formatter',
  category: 'Developer',
  keywords: ['sql', 'query', 'prettify', 'beautify', 'minify'],
  errors: {
    invalid_sql: 'The SQL cannot be parsed (message gives line and column), or /minify met an unterminated string, quoted identifier or comment',
    input_too_complex: 'Formatting did not finish within its time budget, or the SQL is nested too deeply to format',
  },
  operations: {
    format: defineOperation({
      summary: 'Format SQL: one clause or item per line, indented',
      io: { input: 'sql', output: 'sql' },
      recognizers: [
        { kind: 'sql', title: 'SQL', pattern: /^(?:--.*\r?\n|\/\*[\s\S]*?\*\/\s*)*(?:SELECT\s[\s\S]*?\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:TABLE|(?:UNIQUE\s+)?INDEX|VIEW|SCHEMA|DATABASE)\s|ALTER\s+TABLE\s|DROP\s+(?:TABLE|INDEX|VIEW)\s|WITH\s+\w+\s+AS\s*\()/, confidence: 0.85 },
        { kind: 'sql', title: 'SQL', pattern: /^(?:select\s+[\w*.,\s()]+\s+from\s+\w+|insert\s+into\s+\w+\s*\(|update\s+\w+\s+set\s+\w+\s*=|delete\s+from\s+\w+\s+where\s)/i, confidence: 0.6 },
      ],
      errors: ['invalid_sql', 'input_too_complex'],
      description:
        'Formatting uses sql-formatter; `tsql` is its `transactsql`. keywordCase applies to reserved words and data types; ' +
        'function names and identifiers stay as written. Work runs in a worker thread with a ' +
        `${FORMAT_DEADLINE_MS} ms budget; past it the answer is 422 \`input_too_complex\`.`,
      body: Type.Object(
        {
          sql: sqlField,
          dialect: Type.Union(
            DIALECTS.map((dialect) => Type.Literal(dialect)),
            { default: 'sql', description: 'SQL dialect of the input' },
          ),
          keywordCase: Type.Union([Type.Literal('upper'), Type.Literal('lower'), Type.Literal('preserve')], {
            default: 'upper',
            description: 'Case of reserved words',
          }),
          indent: Type.Union([Type.Literal(2), Type.Literal(4), Type.Literal('tab')], {
            default: 2,
            description: 'Spaces per level (the number 2 or 4), or the string "tab"',
          }),
        },
        closed,
      ),
      response: answer,
      examples: [
        {
          title: 'A query with the defaults',
          body: { sql: 'select id, name from users where active = 1 order by name' },
          response: { sql: 'SELECT\n  id,\n  name\nFROM\n  users\nWHERE\n  active = 1\nORDER BY\n  name' },
        },
        {
          title: 'PostgreSQL, lower-case keywords, tab indent',
          body: { sql: "SELECT a FROM t WHERE b = 'x' LIMIT 5", dialect: 'postgresql', keywordCase: 'lower', indent: 'tab' },
          response: { sql: "select\n\ta\nfrom\n\tt\nwhere\n\tb = 'x'\nlimit\n\t5" },
        },
      ],
      handler: async (input, context) => ({ sql: await formatInWorker(input, context) }),
    }),
    minify: defineOperation({
      summary: 'Minify SQL to one line without comments',
      io: { input: 'sql', output: 'sql' },
      errors: ['invalid_sql'],
      description:
        'Whitespace outside literals collapses to one space (none after `(` or before `,` `;` `)`); comments go, except ' +
        'optimizer hints `/*+ */` and MySQL `/*! */`. Strings, quoted identifiers and dollar-quoted bodies are copied as ' +
        'written. Nested block comments count (PostgreSQL); backslash escapes only in E\'…\' strings.',
      body: Type.Object({ sql: sqlField }, closed),
      response: answer,
      examples: [
        {
          title: 'Comments removed, literals kept',
          body: { sql: "SELECT a, -- the key\n       b\nFROM t /* main */\nWHERE c = 'x  y' ;" },
          response: { sql: "SELECT a, b FROM t WHERE c = 'x  y';" },
        },
      ],
      handler: ({ sql }) => ({ sql: minifySql(sql) }),
    }),
  },
});
