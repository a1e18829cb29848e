/**
 * Formatting with sql-formatter. This module is what the worker threads load (see index.ts), so it
 * must stay free of manifest side effects: it turns the library's failures into SDK errors here,
 * inside the worker, where their messages are still available.
 */
import { format, type FormatOptionsWithLanguage, type SqlLanguage } from 'sql-formatter';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { DIALECT_LANGUAGES, type Dialect } from './dialects.data.js';

export type KeywordCase = 'upper' | 'lower' | 'preserve';
export type Indent = 2 | 4 | 'tab';

export interface FormatRequest {
  readonly sql: string;
  readonly dialect: Dialect;
  readonly keywordCase: KeywordCase;
  readonly indent: Indent;
}

/**
 * sql-formatter ends the first line of both its lexer's and its parser's messages with "at line L
 * column C" (after the quoted token, which is why the last occurrence counts).
 */
const POSITION = /at line (\d+) column (\d+)\.?$/;

function options({ dialect, keywordCase, indent }: FormatRequest): FormatOptionsWithLanguage {
  return {
    language: DIALECT_LANGUAGES[dialect] satisfies SqlLanguage,
    keywordCase,
    // Data types are reserved words too (sql-formatter 15 split them off keywordCase); function
    // names stay as written, since many are user-defined.
    dataTypeCase: keywordCase,
    tabWidth: indent === 'tab' ? 2 : indent,
    useTabs: indent === 'tab',
  };
}

/**
 * Deepest parenthesis nesting the library is given. Its parser recurses per level and slows with
 * depth (1,000 levels took 1.8 s here, 3,000 overflow the stack), and a recursion that nears the
 * stack's end while V8 compiles a regular expression can abort the whole process, worker or not.
 * Counting is cheap and gives the same answer on any machine; the time budget stays as a guard.
 */
export const MAX_NESTING = 200;

/** The deepest nesting of parentheses, not counting those inside quotes ('…', "…", `…`). */
export function parenthesisDepth(sql: string): number {
  let depth = 0;
  let deepest = 0;
  let quote = '';
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i]!;
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (char === '(') deepest = Math.max(deepest, ++depth);
    else if (char === ')') depth--;
  }
  return deepest;
}

/**
 * Formats one or more statements. A syntax error is 422 `invalid_sql` with the library's line and
 * column (its own message is not passed on: it quotes the offending token and lists grammar rules);
 * a stack overflow on deep nesting is 422 `input_too_complex`.
 */
export function formatSql(request: FormatRequest): string {
  if (parenthesisDepth(request.sql) > MAX_NESTING) {
    throw new UnprocessableError('input_too_complex', `The SQL nests parentheses deeper than ${MAX_NESTING} levels`);
  }
  try {
    return format(request.sql, options(request));
  } catch (error) {
    if (error instanceof RangeError) {
      throw new UnprocessableError('input_too_complex', 'The SQL is nested too deeply to format');
    }
    const firstLine = error instanceof Error ? error.message.split('\n', 1)[0]! : '';
    const position = POSITION.exec(firstLine);
    const where = position === null ? '' : ` at line ${position[1]}, column ${position[2]}`;
    throw new UnprocessableError('invalid_sql', `The SQL cannot be parsed as ${request.dialect}${where}`);
  }
}
