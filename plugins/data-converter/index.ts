import { definePlugin, defineOperation, isWorkerJobError, workerRefusal, Type, UnprocessableError, type OperationContext, type Static } from '@toolshed/plugin-sdk';
import { convertData, type ConvertRequest, type ConvertResult } from './convert.js';
import { MAX_DEPTH, MAX_OUTPUT_CHARS, MAX_YAML_DEPTH } from './tree.js';

const closed = { additionalProperties: false } as const;
/** What identify asks: convert from whatever the input is to JSON. */
const AUTO = { from: 'auto', to: 'json' } as const;
/** The answer of YAML that is a document: a mapping or a list, not a lone scalar. */
const YAML_TREE = { from: '^yaml$', output: '^[[{]' } as const;
/** The answer of CSV with at least one row under its header. */
const CSV_ROWS = { from: '^csv$', output: '^\\[\\s*[[{]' } as const;

/**
 * Inputs up to this many characters convert on the main thread; larger ones in the SDK's worker
 * pool. A conversion is dear for its size: about 2–6 ms a KiB through YAML (read or written, and
 * `auto` may end there), 0.5–2.5 through CSV, 0.1–1.5 through JSON (each format's dearest shapes,
 * 2-core development machine, 2026-11). A 60 KiB YAML text held the main thread 0.1–0.4 s.
 */
export const WORKER_THRESHOLD = 1024;

const ConverterConfig = Type.Object(
  {
    timeoutMs: Type.Integer({
      minimum: 100,
      maximum: 60000,
      default: 2000,
      description: 'Time budget of one conversion in the worker pool (inputs over 1 KiB), queue time included',
    }),
  },
  closed,
);
type ConverterConfig = Static<typeof ConverterConfig>;

const converter = new URL('./convert.js', import.meta.url);

async function convert(request: ConvertRequest, context: OperationContext<ConverterConfig>): Promise<ConvertResult> {
  if (request.input.length <= WORKER_THRESHOLD) return convertData(request);
  const { timeoutMs } = context.config;
  try {
    return await context.runInWorker<ConvertResult>(converter, 'convertData', [request], { deadlineMs: timeoutMs, signal: context.signal });
  } catch (error) {
    // convertData turns expected failures into SDK errors; a RangeError is the stack running out.
    if (isWorkerJobError(error) && error.reason === 'failed' && error.errorName === 'RangeError') {
      throw new UnprocessableError('input_too_complex', 'The input nests too deeply to be converted');
    }
    throw workerRefusal(error, {
      timeout: () => new UnprocessableError('input_too_complex', `The conversion did not finish within ${timeoutMs} ms`),
      crashed: () => new UnprocessableError('input_too_complex', 'The conversion needed more memory than a request may use'),
    });
  }
}

const format = (description: string) => Type.Enum(['json', 'yaml', 'csv'], { description });

export default definePlugin({
  group: 'data-converter',
  sdk: '^1.0.0',
  summary: 'Convert between JSON, YAML and CSV',
  title: 'JSON, YAML and CSV converter',
  category: 'Encoding',
  keywords: ['json', 'yaml', 'csv', 'convert', 'table'],
  config: { section: 'dataConverter', schema: ConverterConfig },
  errors: {
    invalid_input: 'The input is not valid in the named (or detected) format; the message gives line and column where known',
    unsupported_input:
      'The input is valid but cannot be converted: a bare scalar in auto mode, a single value or mixed array to CSV, several YAML documents, a collection as a YAML key, .inf/.nan',
    input_too_complex: `The input nests deeper than ${MAX_DEPTH} levels (${MAX_YAML_DEPTH} for YAML), its YAML aliases expand too far, or the conversion ran past its time budget (dataConverter.timeoutMs)`,
    output_too_large: `The converted text would be longer than ${MAX_OUTPUT_CHARS} characters`,
  },
  operations: {
    convert: defineOperation({
      summary: 'Convert JSON, YAML or CSV text to JSON, YAML or CSV',
      io: { input: 'input', output: 'output' },
      // Identify runs `from: auto` and reads which format it detected (`from`) and that the result is
      // a table or a tree: the converter, not a pattern, decides what is CSV or YAML. The patterns
      // only rank how sure a detected format makes identify, from the shape of the first lines.
      recognizers: [
        { kind: 'yaml', title: 'YAML', pattern: /^(?:#.*\r?\n|[ \t]*\r?\n)*---[ \t]*(?:#.*)?\r?\n/, confidence: 0.85, body: AUTO, answer: YAML_TREE },
        { kind: 'yaml', title: 'YAML', pattern: /^(?:#.*\r?\n|[ \t]*\r?\n)*[\w."'$-]+:[ \t]*(?:#.*)?\r?\n(?:[ \t]*(?:#.*)?\r?\n)*[ \t]+(?:- |[\w."'$-]+:)/, confidence: 0.8, body: AUTO, answer: YAML_TREE },
        { kind: 'yaml', title: 'YAML', pattern: /^(?:#.*\r?\n|[ \t]*\r?\n)*- [\w."'$-]+:[ \t]/, confidence: 0.75, body: AUTO, answer: YAML_TREE },
        // Lines of `key: value` whose keys look like configuration (a lower-case first letter, no spaces).
        { kind: 'yaml', title: 'YAML', pattern: /^(?:#.*\r?\n|[ \t]*\r?\n)*[a-z_][\w.-]*:(?:[ \t].*)?\r?\n(?:[ \t]*(?:#.*)?\r?\n)*[ \t]*(?:[a-z_][\w.-]*:|- )/, confidence: 0.8, body: AUTO, answer: YAML_TREE },
        { kind: 'yaml', title: 'YAML list', pattern: /^(?:- .*\r?\n)+- /, confidence: 0.6, body: AUTO, answer: YAML_TREE },
        // Anything else YAML reads as a mapping ("Note: …" lines, mail headers): too often prose to be sure.
        { kind: 'yaml', title: 'YAML', pattern: /^[^\s:]{1,40}:\s/, confidence: 0.35, body: AUTO, answer: YAML_TREE },
        // A header of three or more short cells, or two cells without spaces, in any delimiter the converter
        // detects; single quotes, brackets and braces are code's, not CSV's (which quotes with ").
        { kind: 'csv', title: 'CSV', pattern: /^(?:"[^"\n]*"|[^,;\t|\n"'{}()[\]<>=]+)(?:[,;\t|](?:"[^"\n]*"|[^,;\t|\n"'{}()[\]<>=]*)){2,}\r?\n/, confidence: 0.85, body: AUTO, answer: CSV_ROWS },
        { kind: 'csv', title: 'CSV', pattern: /^(?:"[^"\n]+"|[^,;\t|\n"'{}()[\]<>= ]+)[,;\t|](?:"[^"\n]+"|[^,;\t|\n"'{}()[\]<>= ]+)\r?\n/, confidence: 0.8, body: AUTO, answer: CSV_ROWS },
        { kind: 'csv', title: 'CSV', pattern: /^[^\n]*[,;\t|][^\n]*\r?\n/, confidence: 0.35, body: AUTO, answer: CSV_ROWS },
      ],
      description:
        'auto detects JSON when the text parses as JSON, else CSV when one delimiter (comma, semicolon, tab, pipe) gives every record the same number of fields (more than one), else YAML. ' +
        'Numbers keep their digits; CSV cells stay strings. To CSV: an object is one row, an array of objects is rows under the union of their keys (nested objects flattened with dotted names, arrays as JSON text), an array of arrays is rows without a header. ' +
        'Cells are written as given: values such as `=cmd` are not neutralised against spreadsheet formula injection.',
      body: Type.Object(
        {
          input: Type.String({ description: 'Source text' }),
          from: Type.Enum(['auto', 'json', 'yaml', 'csv'], { default: 'auto', description: 'Source format; auto detects it' }),
          to: format('Target format'),
          indent: Type.Integer({ minimum: 0, maximum: 8, default: 2, description: 'Spaces per level for JSON and YAML; 0 gives one-line JSON and flow-style YAML' }),
          delimiter: Type.Enum(['auto', 'comma', 'semicolon', 'tab', 'pipe'], {
            default: 'auto',
            description: 'CSV delimiter: auto detects it when reading and writes a comma',
          }),
          header: Type.Boolean({ default: true, description: 'The first CSV row holds column names; false reads and writes rows as arrays' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          output: Type.String({ description: 'The converted text' }),
          from: format('The source format, given or detected'),
        },
        closed,
      ),
      examples: [
        {
          title: 'CSV with a header to JSON (cells stay strings)',
          body: { input: 'id,name\n007,Ann\n', to: 'json' },
          response: { output: '[\n  {\n    "id": "007",\n    "name": "Ann"\n  }\n]', from: 'csv' },
        },
        {
          title: 'JSON to YAML, big integers keep their digits',
          body: { input: '{"id":17478252242305210114,"tags":["a","b"]}', to: 'yaml' },
          response: { output: 'id: 17478252242305210114\ntags:\n  - a\n  - b\n', from: 'json' },
        },
        {
          title: 'YAML to CSV: union of keys, nested objects flattened',
          body: { input: '- name: Ann\n  address: {city: Oslo}\n- name: Bob\n  age: 42\n', to: 'csv' },
          response: { output: 'name,address.city,age\nAnn,Oslo,\nBob,,42\n', from: 'yaml' },
        },
      ],
      handler: (input, context: OperationContext<ConverterConfig>) => convert(input, context),
    }),
  },
});
