/**
 * The format-neutral tree every input is read into and every output is written from. Numbers keep
 * their source text (RawNumber) so 17478252242305210114 and 1.000 cross formats digit for digit;
 * objects are Maps so `__proto__` is an ordinary key and key order is the source order.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** A number as written in the source, in JSON number syntax. */
export class RawNumber {
  constructor(readonly text: string) {}
}

export type ObjectValue = Map<string, Value>;
export type Value = null | boolean | string | RawNumber | Value[] | ObjectValue;

export const isObjectValue = (value: Value): value is ObjectValue => value instanceof Map;
export const isContainer = (value: Value): value is Value[] | ObjectValue => Array.isArray(value) || value instanceof Map;

/** Deepest nesting read or written; deeper input is 422 `input_too_complex` (recursive writers stay far from the stack limit). */
export const MAX_DEPTH = 1000;
/**
 * Deepest YAML read or written. The yaml package recurses per level and overflows the main
 * thread's stack near 800 flow levels, and V8 aborts the whole process when a regular expression
 * is compiled with the stack nearly full: so YAML stays at a third of that, checked before parsing.
 */
export const MAX_YAML_DEPTH = 256;
/** Characters one answer may carry: about three times the 10 MiB body cap. */
export const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;
/** Nodes that YAML aliases may expand to in all: a billion-laughs document stops here, at once. */
export const MAX_ALIAS_NODES = 100_000;

/** JSON number syntax (RFC 8259 §6); linear, no nested quantifiers. */
export const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;

/** Shortens quoted input so an error message never carries more than a few dozen characters of it. */
export function shorten(text: string, max = 40): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** 1-based line and column (UTF-16 units) of `offset`; \r\n, \r and \n end a line. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

export type SourceFormat = 'json' | 'yaml' | 'csv';

/** 422 `invalid_input`: the text is not valid in the named format. */
export function invalidInput(format: SourceFormat, problem: string, position?: { line: number; column: number }): UnprocessableError {
  const where = position === undefined ? '' : ` at line ${position.line}, column ${position.column}`;
  return new UnprocessableError('invalid_input', `Invalid ${format.toUpperCase()}: ${problem}${where}`);
}

export const unsupportedInput = (problem: string): UnprocessableError => new UnprocessableError('unsupported_input', problem);
export const tooComplex = (problem: string): UnprocessableError => new UnprocessableError('input_too_complex', problem);
export const tooDeep = (): UnprocessableError => tooComplex(`The input nests deeper than ${MAX_DEPTH} levels`);
export const outputTooLarge = (problem = `The converted text would be longer than ${MAX_OUTPUT_CHARS} characters`): UnprocessableError =>
  new UnprocessableError('output_too_large', problem);

/**
 * The tree's depth and a lower bound of the characters it takes as JSON or YAML with `indent`
 * (strings, keys, one indent per node): checked before writing, so an alias-expanded or header-repeating tree never
 * gets stringified into gigabytes first.
 */
export function measure(value: Value, indent: number): { size: number; depth: number } {
  let total = 0;
  let deepest = 0;
  const walk = (node: Value, depth: number): void => {
    if (total > MAX_OUTPUT_CHARS) return;
    if (depth > deepest) deepest = depth;
    total += 1 + indent * depth;
    if (typeof node === 'string') total += node.length;
    else if (node instanceof RawNumber) total += node.text.length;
    else if (Array.isArray(node)) for (const item of node) walk(item, depth + 1);
    else if (node instanceof Map) {
      for (const [key, item] of node) {
        total += key.length;
        walk(item, depth + 1);
      }
    }
  };
  walk(value, 0);
  return { size: total, depth: deepest };
}
