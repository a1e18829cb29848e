/**
 * CSV (RFC 4180 quoting) to the tree and back, with fast-csv for reading and writing. A small
 * scanner of our own counts fields per record, which fast-csv cannot do without a full parse per
 * candidate delimiter: it picks the delimiter in auto mode and locates quoting errors (fast-csv's
 * own messages quote the input and carry no position).
 */
import { parseString, writeToString } from 'fast-csv';
import { writeJson } from './json.js';
import { invalidInput, lineColumn, MAX_OUTPUT_CHARS, outputTooLarge, RawNumber, shorten, unsupportedInput, type ObjectValue, type Value } from './tree.js';

/**
 * Most cells a CSV answer may have: 5,000 sparse rows of distinct keys would otherwise make 25
 * million. Dense data has at most one cell per input character, so the cap is also twice the
 * input's length (at least 1,000): a small input stays cheap on the main thread.
 */
export const MAX_CELLS = 8_000_000;
export const maxCells = (inputLength: number): number => Math.min(MAX_CELLS, Math.max(1000, 2 * inputLength));

export const DELIMITERS = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;
export type DelimiterName = keyof typeof DELIMITERS;

/** What the scanner found: fields per record (blank lines skipped), or the first quoting error. */
export type Scan =
  | { readonly ok: true; readonly counts: number[]; readonly lines: number[] }
  | { readonly ok: false; readonly problem: string; readonly offset: number };

/**
 * Splits `text` into records the way fast-csv does: a field whose first non-blank character is `"`
 * is quoted, `""` inside is a quote, blanks may surround it; records end at \n, \r\n or \r.
 * With `stopOnMismatch`, stops at the first record whose field count differs from the first one's.
 */
export function scanCsv(text: string, delimiter: string, stopOnMismatch = false): Scan {
  const d = delimiter.charCodeAt(0);
  const counts: number[] = [];
  const lines: number[] = [];
  let line = 1;
  let i = 0;
  const n = text.length;
  const isBlank = (c: number): boolean => (c === 32 || c === 9) && c !== d;
  while (i < n) {
    const c0 = text.charCodeAt(i);
    if (c0 === 10 || c0 === 13) {
      // A blank line: no record.
      i += c0 === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
      continue;
    }
    const recordLine = line;
    let fields = 1;
    for (;;) {
      let j = i;
      while (j < n && isBlank(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 34) {
        const open = j;
        for (j++; ; j++) {
          if (j >= n) return { ok: false, problem: 'a quoted field is never closed', offset: open };
          const c = text.charCodeAt(j);
          if (c === 34) {
            if (text.charCodeAt(j + 1) === 34) j++;
            else break;
          } else if (c === 10 || (c === 13 && text.charCodeAt(j + 1) !== 10)) line++;
        }
        j++;
        while (j < n && isBlank(text.charCodeAt(j))) j++;
        const after = text.charCodeAt(j);
        if (j < n && after !== d && after !== 10 && after !== 13) {
          return { ok: false, problem: 'a character follows the closing quote of a field', offset: j };
        }
      } else {
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === d || c === 10 || c === 13) break;
          j++;
        }
      }
      i = j;
      if (i < n && text.charCodeAt(i) === d) {
        i++;
        fields++;
        continue;
      }
      break;
    }
    if (i < n) {
      i += text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
    }
    counts.push(fields);
    lines.push(recordLine);
    if (stopOnMismatch && fields !== counts[0]) break;
  }
  return { ok: true, counts, lines };
}

/** The delimiter that gives every record the same number of fields (more than one); the most fields wins, then this order. */
export function detectDelimiter(text: string, candidates: readonly string[] = Object.values(DELIMITERS)): string | undefined {
  let best: { delimiter: string; fields: number } | undefined;
  for (const delimiter of candidates) {
    const scan = scanCsv(text, delimiter, true);
    if (!scan.ok) continue;
    const fields = scan.counts[0] ?? 0;
    if (fields > 1 && scan.counts.every((count) => count === fields) && (best === undefined || fields > best.fields)) best = { delimiter, fields };
  }
  return best?.delimiter;
}

/** Where a text that splits like a table stops being one: the first record whose field count differs from the first's. */
export interface RaggedTable {
  readonly delimiter: DelimiterName;
  readonly firstFields: number;
  readonly record: number;
  readonly fields: number;
  readonly line: number;
}

/**
 * Why no delimiter was detected in a text whose first record does split: the delimiter giving the
 * first record the most fields (ties in the order of {@link DELIMITERS}) and its first record of
 * another length. Undefined when no delimiter splits the first record.
 */
export function raggedTable(text: string, names: readonly DelimiterName[] = Object.keys(DELIMITERS) as DelimiterName[]): RaggedTable | undefined {
  let found: RaggedTable | undefined;
  for (const delimiter of names) {
    const scan = scanCsv(text, DELIMITERS[delimiter], true);
    if (!scan.ok) continue;
    const firstFields = scan.counts[0] ?? 0;
    const last = scan.counts.length - 1;
    if (firstFields < 2 || last < 1 || scan.counts[last] === firstFields || (found !== undefined && firstFields <= found.firstFields)) continue;
    found = { delimiter, firstFields, record: last + 1, fields: scan.counts[last]!, line: scan.lines[last]! };
  }
  return found;
}

function readRows(text: string, delimiter: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text, { delimiter })
      .on('data', (row: string[]) => {
        if (row.length > 0) rows.push(row);
      })
      // fast-csv's message quotes the input: the scanner has already located real quoting errors.
      .on('error', () => reject(invalidInput('csv', 'malformed quoting')))
      .on('end', () => resolve(rows));
  });
}

/**
 * Reads CSV into the tree: with `header`, an array of objects keyed by the first row (every row
 * must have as many fields as the header); without, an array of arrays of strings.
 */
export async function parseCsv(text: string, delimiter: string, header: boolean): Promise<Value> {
  const scan = scanCsv(text, delimiter);
  if (!scan.ok) throw invalidInput('csv', scan.problem, lineColumn(text, scan.offset));
  const recordLines = scan.lines;
  const rows = await readRows(text, delimiter);
  if (!header) return rows;
  const [names, ...records] = rows;
  if (names === undefined) return [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw invalidInput('csv', `duplicate column name ${JSON.stringify(shorten(name))}`, { line: 1, column: 1 });
    seen.add(name);
  }
  checkOutputSize(records.length, names.reduce((sum, name) => sum + name.length + 4, 0) + text.length / Math.max(records.length, 1));
  return records.map((record, index) => {
    if (record.length !== names.length) {
      const line = recordLines[index + 1];
      throw invalidInput('csv', `record ${index + 2} has ${record.length} fields, the header has ${names.length}`, line === undefined ? undefined : { line, column: 1 });
    }
    const object: ObjectValue = new Map();
    names.forEach((name, column) => object.set(name, record[column] ?? ''));
    return object;
  });
}

function checkOutputSize(rows: number, charsPerRow: number): void {
  if (rows * charsPerRow > MAX_OUTPUT_CHARS) throw outputTooLarge();
}

/** A cell's text: strings as given (no CSV-injection escaping), numbers as written, nested values as JSON. */
function cellText(value: Value): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof RawNumber) return value.text;
  return writeJson(value, 0);
}

/** Flattens nested objects into dotted column names; arrays and empty objects become JSON text. */
function flatten(object: ObjectValue, prefix: string, into: Map<string, string>): void {
  for (const [key, value] of object) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (value instanceof Map && value.size > 0) flatten(value, name, into);
    else {
      if (into.has(name)) throw unsupportedInput(`Two fields of one row flatten to the column ${JSON.stringify(shorten(name))}`);
      into.set(name, cellText(value));
    }
  }
}

/**
 * Turns the tree into CSV rows: an object is one row, an array of objects is rows under the union
 * of their keys (first-seen order), an array of arrays or scalars is rows without a header.
 */
export function toRows(value: Value, header: boolean, cellLimit = MAX_CELLS): string[][] {
  const items = value instanceof Map ? [value] : value;
  if (!Array.isArray(items)) throw unsupportedInput('CSV needs an object, an array of objects or an array of arrays, not a single value');
  const objects = items.filter((item): item is ObjectValue => item instanceof Map);
  if (objects.length === 0) return items.map((item) => (Array.isArray(item) ? item.map(cellText) : [cellText(item)]));
  if (objects.length !== items.length) throw unsupportedInput('CSV needs an array of only objects or only arrays, not a mix');
  const flat = objects.map((object) => {
    const cells = new Map<string, string>();
    flatten(object, '', cells);
    return cells;
  });
  const columns = new Set<string>();
  for (const cells of flat) for (const name of cells.keys()) columns.add(name);
  const names = [...columns];
  // Sparse rows (each with its own keys) multiply into rows × columns cells: refuse before building them.
  if (flat.length * names.length > cellLimit) throw outputTooLarge(`The table would have more than ${cellLimit} cells`);
  const rows = flat.map((cells) => names.map((name) => cells.get(name) ?? ''));
  return header ? [names, ...rows] : rows;
}

/** Writes rows as CSV: fields quoted only when they hold the delimiter, a quote, CR or LF; \n ends every row. */
export async function writeCsv(rows: string[][], delimiter: string): Promise<string> {
  let size = 0;
  for (const row of rows) for (const cell of row) size += cell.length + 1;
  if (size > MAX_OUTPUT_CHARS) throw outputTooLarge();
  if (rows.length === 0) return '';
  return writeToString(rows, { delimiter, includeEndRowDelimiter: true });
}
