import { definePlugin, defineOperation, workerRefusal, Type, UnprocessableError, type OperationContext, type Static } from '@toolshed/plugin-sdk';
import { formatJson, minifyJson, OFFLOAD, validateJson, type FormatResult, type Indent, type ValidateResult } from './work.js';

const closed = { additionalProperties: false } as const;

/**
 * Texts up to this many UTF-16 code units are handled on the main thread (well under a
 * millisecond of scanning); larger ones, and small ones whose formatted output would exceed it,
 * go to the SDK's worker pool so the event loop keeps serving others.
 */
export const INLINE_LIMIT = 64 * 1024;

const JsonConfig = Type.Object(
  {
    timeoutMs: Type.Integer({
      minimum: 100,
      maximum: 60000,
      default: 2000,
      description: 'Time budget of one job in the worker pool (texts over 64 Ki characters), queue time included',
    }),
  },
  closed,
);
type JsonConfig = Static<typeof JsonConfig>;

const workModule = new URL('./work.js', import.meta.url);

async function inWorker<Result>(exportName: string, args: readonly unknown[], context: OperationContext<JsonConfig>): Promise<Result> {
  const { timeoutMs } = context.config;
  try {
    return await context.runInWorker<Result>(workModule, exportName, args, { deadlineMs: timeoutMs, signal: context.signal });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => new UnprocessableError('input_too_complex', `The JSON text did not finish within ${timeoutMs} ms`),
      crashed: () => new UnprocessableError('input_too_complex', 'The JSON text needed more memory than a request may use'),
    });
  }
}

const jsonText = Type.String({ description: 'JSON text (RFC 8259), up to the 10 MiB body' });
const sortKeys = Type.Boolean({
  default: false,
  description: 'Sort object members by name (UTF-16 code unit order of the decoded name) at every level; equal names keep their order',
});

export default definePlugin({
  group: 'json-formatter',
  sdk: '^1.0.0',
  summary: 'Format, minify and validate JSON, keeping numbers and strings exactly as written',
  title: 'JSON formatter',
  category: 'Developer',
  keywords: ['json', 'prettify', 'beautify', 'minify', 'validate', 'lint'],
  config: { section: 'jsonFormatter', schema: JsonConfig },
  errors: {
    invalid_json_input: 'The text is not valid JSON (RFC 8259); the message gives line and column',
    output_too_large: 'The formatted text would be longer than 32 Mi characters (deep nesting multiplies indentation)',
    input_too_complex: 'The text did not finish within the time budget (jsonFormatter.timeoutMs, 2 s) or needed more memory than a request may use',
  },
  operations: {
    format: defineOperation({
      summary: 'Pretty-print JSON text',
      io: { input: 'json', output: 'json' },
      recognizers: [
        { kind: 'json', title: 'JSON', pattern: /^(?:\{\s*(?:"|\})|\[\s*(?:["{[\d-]|true|false|null|\]))/, confidence: 0.9 },
      ],
      errors: ['invalid_json_input', 'output_too_large', 'input_too_complex'],
      description:
        'Numbers and strings keep their source text (`1.000`, big integers and escapes are not rewritten); duplicate and ' +
        '`__proto__` members are kept. Empty containers stay `{}` and `[]`; no trailing newline. `stats.depth` counts nested ' +
        'containers (a scalar 0, `{}` 1); `stats.keys` counts members at every level.',
      body: Type.Object(
        {
          json: jsonText,
          indent: Type.Union([Type.Literal(2), Type.Literal(4), Type.Literal('tab')], {
            default: 2,
            description: 'Spaces per level (2 or 4), or "tab"',
          }),
          sortKeys,
        },
        closed,
      ),
      response: Type.Object(
        {
          json: Type.String(),
          stats: Type.Object(
            {
              type: Type.Enum(['object', 'array', 'string', 'number', 'boolean', 'null'], { description: 'Type of the root value' }),
              keys: Type.Integer({ description: 'Object members at all levels' }),
              depth: Type.Integer({ description: 'Deepest nesting of objects and arrays (a scalar 0, {} 1)' }),
            },
            closed,
          ),
        },
        closed,
      ),
      examples: [
        {
          title: 'Big integers and trailing zeros survive; keys sorted',
          body: { json: '{"id":17478252242305210114,"b":[1.000,true],"a":null}', sortKeys: true },
          response: {
            json: '{\n  "a": null,\n  "b": [\n    1.000,\n    true\n  ],\n  "id": 17478252242305210114\n}',
            stats: { type: 'object', keys: 3, depth: 2 },
          },
        },
      ],
      handler: async ({ json, indent, sortKeys: sort }, context: OperationContext<JsonConfig>): Promise<FormatResult> => {
        const indentation = indent as Indent;
        if (json.length <= INLINE_LIMIT) {
          const result = formatJson(json, indentation, sort, INLINE_LIMIT);
          if (result !== OFFLOAD) return result;
        }
        return inWorker<FormatResult>('formatJson', [json, indentation, sort], context);
      },
    }),
    minify: defineOperation({
      summary: 'Remove all whitespace outside strings',
      io: { input: 'json', output: 'json' },
      errors: ['invalid_json_input', 'input_too_complex'],
      description: 'Numbers and strings keep their source text; duplicate and `__proto__` members are kept.',
      body: Type.Object({ json: jsonText, sortKeys }, closed),
      response: Type.Object({ json: Type.String() }, closed),
      examples: [
        {
          body: { json: '{\n  "b": 1.50,\n  "a": [ 1, 2 ]\n}' },
          response: { json: '{"b":1.50,"a":[1,2]}' },
        },
      ],
      handler: async ({ json, sortKeys: sort }, context: OperationContext<JsonConfig>) =>
        json.length <= INLINE_LIMIT ? minifyJson(json, sort) : inWorker<{ json: string }>('minifyJson', [json, sort], context),
    }),
    validate: defineOperation({
      summary: 'Check JSON text against RFC 8259',
      io: { input: 'json', output: 'valid' },
      errors: ['input_too_complex'],
      description:
        'Invalid text is a 200 answer with `valid: false` and the first problem, with its 1-based line and column (columns ' +
        'count Unicode code points; lines end at LF, CRLF or CR).',
      body: Type.Object({ json: jsonText }, closed),
      response: Type.Object(
        {
          valid: Type.Boolean(),
          error: Type.Optional(
            Type.Object(
              { message: Type.String(), line: Type.Integer({ minimum: 1 }), column: Type.Integer({ minimum: 1 }) },
              closed,
            ),
          ),
        },
        closed,
      ),
      examples: [
        { title: 'Valid', body: { json: '{"a": [1, 2]}' }, response: { valid: true } },
        {
          title: 'A trailing comma',
          body: { json: '{\n  "a": 1,\n}' },
          response: { valid: false, error: { message: "trailing comma before '}'", line: 2, column: 9 } },
        },
      ],
      handler: async ({ json }, context: OperationContext<JsonConfig>) =>
        json.length <= INLINE_LIMIT ? validateJson(json) : inWorker<ValidateResult>('validateJson', [json], context),
    }),
  },
});
