/**
 * One conversion, start to end: pick the source format, read it into the tree, write the target.
 * A pure module with no manifest, so the SDK's worker pool can import it in a worker thread.
 */
import { isToolshedError, type UnprocessableError } from '@toolshed/plugin-sdk';
import { DELIMITERS, detectDelimiter, maxCells, parseCsv, raggedTable, toRows, writeCsv, type DelimiterName, type RaggedTable } from './csv.js';
import { parseJson, writeJson } from './json.js';
import { invalidInput, isContainer, MAX_OUTPUT_CHARS, MAX_YAML_DEPTH, measure, outputTooLarge, tooComplex, unsupportedInput, type SourceFormat, type Value } from './tree.js';
import { parseYaml, writeYaml } from './yaml.js';

export interface ConvertRequest {
  readonly input: string;
  readonly from: 'auto' | SourceFormat;
  readonly to: SourceFormat;
  readonly indent: number;
  readonly delimiter: 'auto' | DelimiterName;
  readonly header: boolean;
}

export interface ConvertResult {
  readonly output: string;
  readonly from: SourceFormat;
}

interface Source {
  readonly format: SourceFormat;
  readonly value: Value;
}

const BARE_SCALAR = 'The input is a single value in every format (JSON, CSV and YAML); give an object, an array or a table';

/** A text that splits like a table until one record has another number of fields: say so, not "a single value". */
function notATable({ delimiter, firstFields, record, fields, line }: RaggedTable): UnprocessableError {
  return invalidInput(
    'csv',
    `split at each ${delimiter}, record 1 has ${firstFields} fields and record ${record} has ${fields} (line ${line}); the input is not JSON either, and YAML reads it as one string. ` +
      'Give every record as many fields as the first, or send from "csv" with header false to keep rows of any length',
  );
}

async function readAuto(request: ConvertRequest): Promise<Source> {
  let json: Value | undefined;
  let jsonError: unknown;
  try {
    json = parseJson(request.input);
  } catch (error) {
    if (!(isToolshedError(error) && error.code === 'invalid_input')) throw error;
    jsonError = error;
  }
  if (json !== undefined) {
    if (!isContainer(json)) throw unsupportedInput(BARE_SCALAR);
    return { format: 'json', value: json };
  }
  const candidates = request.delimiter === 'auto' ? undefined : [DELIMITERS[request.delimiter]];
  const delimiter = detectDelimiter(request.input, candidates);
  if (delimiter !== undefined) return { format: 'csv', value: await parseCsv(request.input, delimiter, request.header) };
  let yaml: Value;
  try {
    yaml = parseYaml(request.input);
  } catch (error) {
    // Text that opens like JSON and is not YAML either was meant as JSON: its error is the useful one.
    if (isToolshedError(error) && error.code === 'invalid_input' && /^\s*[[{]/.test(request.input)) throw jsonError;
    throw error;
  }
  if (!isContainer(yaml)) {
    const ragged = raggedTable(request.input, request.delimiter === 'auto' ? undefined : [request.delimiter]);
    if (ragged !== undefined) throw notATable(ragged);
    throw unsupportedInput(BARE_SCALAR);
  }
  return { format: 'yaml', value: yaml };
}

async function read(request: ConvertRequest): Promise<Source> {
  switch (request.from) {
    case 'auto':
      return readAuto(request);
    case 'json':
      return { format: 'json', value: parseJson(request.input) };
    case 'yaml':
      return { format: 'yaml', value: parseYaml(request.input) };
    case 'csv': {
      const delimiter = request.delimiter === 'auto' ? (detectDelimiter(request.input) ?? ',') : DELIMITERS[request.delimiter];
      return { format: 'csv', value: await parseCsv(request.input, delimiter, request.header) };
    }
  }
}

async function write(value: Value, request: ConvertRequest): Promise<string> {
  if (request.to === 'csv') {
    // Auto reads with the detected delimiter and writes commas; a named delimiter is used both ways.
    const delimiter = request.delimiter === 'auto' ? ',' : DELIMITERS[request.delimiter];
    return writeCsv(toRows(value, request.header, maxCells(request.input.length)), delimiter);
  }
  const { size, depth } = measure(value, request.indent);
  if (size > MAX_OUTPUT_CHARS) throw outputTooLarge();
  if (request.to === 'yaml' && depth > MAX_YAML_DEPTH) throw tooComplex(`YAML output is limited to ${MAX_YAML_DEPTH} levels of nesting`);
  const output = request.to === 'json' ? writeJson(value, request.indent) : writeYaml(value, request.indent);
  if (output.length > MAX_OUTPUT_CHARS) throw outputTooLarge();
  return output;
}

/** Converts `request.input`; every failure is an SDK error (422 with a documented code). */
export async function convertData(request: ConvertRequest): Promise<ConvertResult> {
  try {
    const source = await read(request);
    return { output: await write(source.value, request), from: source.format };
  } catch (error) {
    // The yaml package recurses per nesting level: a very deep document can overflow the stack.
    if (error instanceof RangeError) {
      throw /string length/i.test(error.message) ? outputTooLarge() : tooComplex('The input nests too deeply to be parsed');
    }
    throw error;
  }
}
