/**
 * The three operations as pure functions of the text. This module is also the worker module: the
 * handlers call it directly for small texts and through the SDK's worker pool for large ones.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { measure, write, type Stats } from './emit.js';
import { lineColumn } from './position.js';
import { scan, type Tokens } from './scan.js';

/**
 * Most UTF-16 code units an answer's `json` may have: 32 Mi. Formatting can multiply the size
 * (every level of a deep document adds indentation to each line), so the size is measured first.
 */
export const MAX_OUTPUT = 32 * 1024 * 1024;

export type Indent = 2 | 4 | 'tab';

export interface FormatResult {
  json: string;
  stats: Stats;
}

export interface ValidateResult {
  valid: boolean;
  error?: { message: string; line: number; column: number };
}

/** Returned instead of a result when the output would be larger than the caller's inline limit. */
export const OFFLOAD = 'offload';

function tokensOf(text: string): Tokens {
  const result = scan(text);
  if (result.ok) return result.tokens;
  const { line, column } = lineColumn(text, result.error.offset);
  throw new UnprocessableError('invalid_json_input', `Invalid JSON at line ${line}, column ${column}: ${result.error.message}`);
}

function checkSize(length: number): void {
  if (length > MAX_OUTPUT) {
    throw new UnprocessableError(
      'output_too_large',
      `The formatted text would have ${length} characters, more than the ${MAX_OUTPUT} an answer may carry (indentation grows with nesting)`,
    );
  }
}

const indentText = (indent: Indent): string => (indent === 'tab' ? '\t' : ' '.repeat(indent));

/**
 * Pretty-prints `text`. With `inlineLimit`, gives {@link OFFLOAD} instead when the output would be
 * longer, so the caller can move the writing off the main thread.
 */
export function formatJson(text: string, indent: Indent, sortKeys: boolean, inlineLimit?: number): FormatResult | typeof OFFLOAD {
  const tokens = tokensOf(text);
  const unit = indentText(indent);
  const { length, stats } = measure(tokens, unit.length, true);
  checkSize(length);
  if (inlineLimit !== undefined && length > inlineLimit) return OFFLOAD;
  return { json: write(tokens, { indent: unit, sortKeys }, length), stats };
}

/** Minifies `text`: no whitespace outside strings. */
export function minifyJson(text: string, sortKeys: boolean): { json: string } {
  const tokens = tokensOf(text);
  const { length } = measure(tokens, 0, false);
  return { json: write(tokens, { indent: '', sortKeys }, length) };
}

/** Checks `text` against RFC 8259; an invalid text is an answer, not an error. */
export function validateJson(text: string): ValidateResult {
  const result = scan(text);
  if (result.ok) return { valid: true };
  return { valid: false, error: { message: result.error.message, ...lineColumn(text, result.error.offset) } };
}
