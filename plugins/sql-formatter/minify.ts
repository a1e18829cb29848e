/**
 * SQL minifier: one pass of a small lexer that knows literals and comments, so it never changes
 * text inside a string, quoted identifier or dollar-quoted body, and never glues two tokens into
 * one. Every loop advances by indexOf/regex search, so the cost is linear in the input (10 MiB in
 * well under a second) and nothing recurses.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

/**
 * Where the plain-text copying stops: ASCII whitespace, the opening of a literal or quoted
 * identifier, a `$` (maybe a dollar quote), or a comment opener.
 */
const SPECIAL = /[ \t\n\r\f\v'"`[$]|--|\/\*/g;
const WHITESPACE_RUN = /[ \t\n\r\f\v]+/y;
/** PostgreSQL dollar-quote opener: `$$` or `$tag$` with an identifier tag (no digits first, so `$1` is a parameter). */
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const BLOCK_COMMENT_EDGE = /\/\*|\*\//g;
const ESCAPE_STRING_STOP = /[\\']/g;
/** A `--` comment ends at a line feed or a carriage return (old Mac line ends), as in PostgreSQL's lexer. */
const LINE_END = /[\n\r]/g;

/** Characters an unquoted identifier may contain; a `$` or `'` right after one belongs to it. */
function isIdentifierChar(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9_$\u0080-\uffff]/.test(char);
}

/** 1-based line and column (UTF-16 code units) of `index`, for error messages. */
export function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf('\n'); newline !== -1 && newline < index; newline = text.indexOf('\n', newline + 1)) {
    line += 1;
    lineStart = newline + 1;
  }
  return { line, column: index - lineStart + 1 };
}

function unterminated(sql: string, start: number, what: string): UnprocessableError {
  const { line, column } = lineAndColumn(sql, start);
  return new UnprocessableError('invalid_sql', `Unterminated ${what} starting at line ${line}, column ${column}`);
}

/** End (exclusive) of a literal opened by `quote` at `start`, where a doubled `close` stands for itself. */
function quotedEnd(sql: string, start: number, close: string, what: string): number {
  let from = start + 1;
  for (;;) {
    const at = sql.indexOf(close, from);
    if (at === -1) throw unterminated(sql, start, what);
    if (sql[at + 1] !== close) return at + 1;
    from = at + 2;
  }
}

/** End of a PostgreSQL escape string E'…', where a backslash escapes the next character. */
function escapeStringEnd(sql: string, start: number): number {
  ESCAPE_STRING_STOP.lastIndex = start + 1;
  for (let match = ESCAPE_STRING_STOP.exec(sql); match !== null; match = ESCAPE_STRING_STOP.exec(sql)) {
    if (match[0] === '\\') ESCAPE_STRING_STOP.lastIndex = match.index + 2;
    else if (sql[match.index + 1] === "'") ESCAPE_STRING_STOP.lastIndex = match.index + 2;
    else return match.index + 1;
  }
  throw unterminated(sql, start, 'string literal');
}

/** End of a block comment at `start`; nested `/* … *\/` pairs count, as in PostgreSQL and SQL Server. */
function blockCommentEnd(sql: string, start: number): number {
  let depth = 1;
  BLOCK_COMMENT_EDGE.lastIndex = start + 2;
  for (let match = BLOCK_COMMENT_EDGE.exec(sql); match !== null; match = BLOCK_COMMENT_EDGE.exec(sql)) {
    depth += match[0] === '/*' ? 1 : -1;
    if (depth === 0) return match.index + 2;
  }
  throw unterminated(sql, start, 'block comment');
}

/**
 * Whether a separator is needed between the text emitted so far (ending in `previous`) and a token
 * starting with `next`, where the source had whitespace or a comment. Only the spaces inside
 * parentheses and before `,` `;` `)` go: no SQL token contains those characters, so dropping them
 * can never join two tokens; everywhere else one space stays (`a - -b` must not become `a--b`).
 */
function needsSpace(previous: string, next: string): boolean {
  if (previous === '' || previous === '(') return false;
  return next !== ',' && next !== ';' && next !== ')';
}

/**
 * Minifies `sql` to one line: comments removed (except optimizer hints `/*+ … *\/` and MySQL
 * conditional code `/*! … *\/`, which change what runs), whitespace runs outside literals
 * collapsed to one space or dropped where no token can form. Literals are copied byte for byte,
 * line breaks inside them included. An unterminated literal or comment is 422 `invalid_sql`.
 */
export function minifySql(sql: string): string {
  const parts: string[] = [];
  let last = '';
  let separated = false;
  const emit = (from: number, to: number): void => {
    if (to <= from) return;
    if (separated && needsSpace(last, sql[from]!)) parts.push(' ');
    separated = false;
    parts.push(sql.slice(from, to));
    last = sql[to - 1]!;
  };

  let i = 0;
  while (i < sql.length) {
    SPECIAL.lastIndex = i;
    const match = SPECIAL.exec(sql);
    const at = match === null ? sql.length : match.index;
    emit(i, at);
    if (match === null) break;
    const token = match[0];
    const char = token[0]!;
    if (token === '--') {
      LINE_END.lastIndex = at;
      i = LINE_END.exec(sql)?.index ?? sql.length;
      separated = true;
    } else if (token === '/*') {
      const end = blockCommentEnd(sql, at);
      if (sql[at + 2] === '+' || sql[at + 2] === '!') emit(at, end);
      else separated = true;
      i = end;
    } else if (char === "'") {
      const escaped = (sql[at - 1] === 'E' || sql[at - 1] === 'e') && !isIdentifierChar(sql[at - 2]);
      const end = escaped ? escapeStringEnd(sql, at) : quotedEnd(sql, at, "'", 'string literal');
      emit(at, end);
      i = end;
    } else if (char === '"' || char === '`' || char === '[') {
      const end = quotedEnd(sql, at, char === '[' ? ']' : char, 'quoted identifier');
      emit(at, end);
      i = end;
    } else if (char === '$') {
      DOLLAR_TAG.lastIndex = at;
      const tag = isIdentifierChar(sql[at - 1]) ? null : DOLLAR_TAG.exec(sql);
      if (tag === null) {
        // A parameter ($1), or part of an identifier (a$b): ordinary text.
        emit(at, at + 1);
        i = at + 1;
      } else {
        const close = sql.indexOf(tag[0], at + tag[0].length);
        if (close === -1) throw unterminated(sql, at, 'dollar-quoted string');
        emit(at, close + tag[0].length);
        i = close + tag[0].length;
      }
    } else {
      WHITESPACE_RUN.lastIndex = at;
      WHITESPACE_RUN.exec(sql);
      i = WHITESPACE_RUN.lastIndex;
      separated = true;
    }
  }
  return parts.join('');
}
