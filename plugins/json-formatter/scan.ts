/**
 * A strict RFC 8259 scanner that keeps every lexeme where it is in the source. Numbers and strings
 * are never converted, so `17478252242305210114`, `1.000` and `"\u00e9"` come out exactly as
 * written; members are never put into a JS object, so `__proto__` and duplicate keys survive.
 *
 * The scanner is a loop over an explicit stack: nesting depth costs heap, never call stack. Tokens
 * live in typed arrays (nine bytes per character of text at most, outside the JS heap) rather than
 * one object per value, which 10 MiB of `[1,1,…]` (five million values) would make gigabytes.
 */
import { describeAt } from './position.js';

/** Token kinds. Commas and colons are implied by the structure and not stored. */
export const enum Kind {
  ObjectOpen = 1,
  ObjectClose,
  ArrayOpen,
  ArrayClose,
  Key,
  String,
  Number,
  Literal,
}

/** The scanned document: token i is kind[i], source text [start[i], end[i]). */
export interface Tokens {
  readonly text: string;
  readonly count: number;
  readonly kind: Uint8Array;
  readonly start: Uint32Array;
  /** Source end of a lexeme; for an ObjectOpen/ArrayOpen, the index of its closing token instead. */
  readonly end: Uint32Array;
}

/** Where and why the text is not JSON; `offset` is in UTF-16 code units. */
export interface ScanError {
  readonly message: string;
  readonly offset: number;
}

export type ScanResult = { readonly ok: true; readonly tokens: Tokens } | { readonly ok: false; readonly error: ScanError };

class Failure {
  constructor(
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** What the scanner waits for next. */
const enum Expect {
  Value,
  ValueOrArrayEnd,
  KeyOrObjectEnd,
  Key,
  Colon,
  CommaOrEnd,
  Nothing,
}

const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isHex = (code: number): boolean => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]); // " \ / b f n r t

/** Scans a string starting at its opening quote; returns the offset after the closing quote. */
function scanString(text: string, open: number): number {
  let i = open + 1;
  for (;;) {
    if (i >= text.length) throw new Failure('unterminated string', open);
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code === 0x5c) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x75) {
        for (let h = i + 2; h < i + 6; h += 1) {
          if (!isHex(text.charCodeAt(h))) throw new Failure('\\u must be followed by four hexadecimal digits', i);
        }
        i += 6;
      } else if (ESCAPES.has(next)) {
        i += 2;
      } else {
        throw new Failure(`invalid escape sequence (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`, i);
      }
    } else if (code < 0x20) {
      throw new Failure(`control character ${describeAt(text, i)} must be escaped in a string`, i);
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) throw new Failure(`lone surrogate ${describeAt(text, i)} is not a Unicode character`, i);
      i += 2;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      throw new Failure(`lone surrogate ${describeAt(text, i)} is not a Unicode character`, i);
    } else {
      i += 1;
    }
  }
}

/** Scans a number (RFC 8259 §6) starting at `i`; returns the offset after it. */
function scanNumber(text: string, begin: number): number {
  let i = begin;
  if (text.charCodeAt(i) === 0x2d) i += 1;
  const first = text.charCodeAt(i);
  if (first === 0x30) {
    i += 1;
    if (isDigit(text.charCodeAt(i))) throw new Failure('leading zeros are not allowed in numbers', begin);
  } else if (isDigit(first)) {
    while (isDigit(text.charCodeAt(i))) i += 1;
  } else {
    throw new Failure(`expected a digit, found ${describeAt(text, i)}`, i);
  }
  if (text.charCodeAt(i) === 0x2e) {
    i += 1;
    if (!isDigit(text.charCodeAt(i))) throw new Failure(`expected a digit after the decimal point, found ${describeAt(text, i)}`, i);
    while (isDigit(text.charCodeAt(i))) i += 1;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i += 1;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i += 1;
    if (!isDigit(text.charCodeAt(i))) throw new Failure(`expected a digit in the exponent, found ${describeAt(text, i)}`, i);
    while (isDigit(text.charCodeAt(i))) i += 1;
  }
  return i;
}

const LITERALS = ['true', 'false', 'null'] as const;

function scanLiteral(text: string, i: number): number | undefined {
  for (const literal of LITERALS) if (text.startsWith(literal, i)) return i + literal.length;
  return undefined;
}

/** Why a character cannot start a value: the usual non-JSON habits get a precise message. */
function notAValue(text: string, i: number): Failure {
  const code = text.charCodeAt(i);
  if (i >= text.length) return new Failure('expected a JSON value, found end of input', i);
  if (code === 0x2f) return new Failure('comments are not allowed in JSON', i);
  if (code === 0x27) return new Failure("strings must use double quotes, not '", i);
  if (code === 0xfeff) return new Failure('a byte order mark (U+FEFF) is not allowed in JSON text', i);
  for (const word of ['NaN', 'Infinity', '-Infinity', 'undefined']) {
    if (text.startsWith(word, i)) return new Failure(`${word} is not a JSON value`, i);
  }
  return new Failure(`expected a JSON value, found ${describeAt(text, i)}`, i);
}

/** Scans `text` as one JSON value surrounded by optional whitespace. Never throws. */
export function scan(text: string): ScanResult {
  try {
    return { ok: true, tokens: scanOrThrow(text) };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: { message: error.message, offset: error.offset } };
    throw error;
  }
}

/** A copy of `stack` twice as long, for container stacks, which have no depth limit. */
export function grown(stack: Uint32Array): Uint32Array {
  const bigger = new Uint32Array(stack.length * 2);
  bigger.set(stack);
  return bigger;
}

// One flat loop with no closures: the state lives in locals, which keeps 10 MiB within the budget.
function scanOrThrow(text: string): Tokens {
  // Every token takes at least one character, so this never overflows and never needs to grow.
  const capacity = text.length + 1;
  const kind = new Uint8Array(capacity);
  const start = new Uint32Array(capacity);
  const end = new Uint32Array(capacity);
  let count = 0;
  /** Token indices of the open containers, innermost last. */
  let open: Uint32Array = new Uint32Array(64);
  let depth = 0;
  let innermost = 0; // kind of the innermost open container, 0 at the top level
  let expect = Expect.Value as Expect;
  let lastComma = -1;
  let i = 0;

  for (;;) {
    let code = text.charCodeAt(i); // NaN past the end
    while (isWhitespace(code)) code = text.charCodeAt(++i);

    if (expect === Expect.CommaOrEnd) {
      if (code === 0x2c) {
        lastComma = i;
        i += 1;
        expect = innermost === Kind.ObjectOpen ? Expect.Key : Expect.Value;
        continue;
      }
      if (!((code === 0x7d && innermost === Kind.ObjectOpen) || (code === 0x5d && innermost === Kind.ArrayOpen))) {
        const wanted = innermost === Kind.ObjectOpen ? "',' or '}' after an object member" : "',' or ']' after an array element";
        throw new Failure(`expected ${wanted}, found ${describeAt(text, i)}`, i);
      }
    } else if (expect === Expect.Nothing) {
      if (i >= text.length) return { text, count, kind, start, end };
      throw new Failure(`unexpected ${describeAt(text, i)} after the JSON value`, i);
    } else if (expect === Expect.Colon) {
      if (code !== 0x3a) throw new Failure(`expected ':' after the member name, found ${describeAt(text, i)}`, i);
      i += 1;
      expect = Expect.Value;
      continue;
    } else if (expect === Expect.Key || expect === Expect.KeyOrObjectEnd) {
      if (code === 0x22) {
        const after = scanString(text, i);
        kind[count] = Kind.Key;
        start[count] = i;
        end[count] = after;
        count += 1;
        i = after;
        expect = Expect.Colon;
        continue;
      }
      if (code === 0x7d && expect === Expect.Key) throw new Failure("trailing comma before '}'", lastComma);
      if (code !== 0x7d) {
        if (code === 0x2f) throw new Failure('comments are not allowed in JSON', i);
        if (code === 0x27) throw new Failure("strings must use double quotes, not '", i);
        throw new Failure(`expected a member name in double quotes, found ${describeAt(text, i)}`, i);
      }
    } else if (code === 0x5d && innermost === Kind.ArrayOpen) {
      // Expect.Value right after a comma, or Expect.ValueOrArrayEnd right after '['.
      if (expect === Expect.Value) throw new Failure("trailing comma before ']'", lastComma);
    } else {
      // A value.
      start[count] = i;
      if (code === 0x7b || code === 0x5b) {
        const opener = code === 0x7b ? Kind.ObjectOpen : Kind.ArrayOpen;
        kind[count] = opener;
        if (depth === open.length) open = grown(open);
        open[depth] = count;
        depth += 1;
        innermost = opener;
        count += 1;
        i += 1;
        expect = opener === Kind.ObjectOpen ? Expect.KeyOrObjectEnd : Expect.ValueOrArrayEnd;
        continue;
      }
      if (code === 0x22) {
        kind[count] = Kind.String;
        i = scanString(text, i);
      } else if (code === 0x2d || isDigit(code)) {
        if (text.startsWith('-Infinity', i)) throw notAValue(text, i);
        kind[count] = Kind.Number;
        i = scanNumber(text, i);
      } else {
        const after = scanLiteral(text, i);
        if (after === undefined) throw notAValue(text, i);
        kind[count] = Kind.Literal;
        i = after;
      }
      end[count] = i;
      count += 1;
      expect = depth === 0 ? Expect.Nothing : Expect.CommaOrEnd;
      continue;
    }

    // Here `code` closes the innermost container.
    depth -= 1;
    kind[count] = innermost === Kind.ObjectOpen ? Kind.ObjectClose : Kind.ArrayClose;
    start[count] = i;
    end[count] = i + 1;
    end[open[depth]] = count;
    count += 1;
    i += 1;
    innermost = depth === 0 ? 0 : kind[open[depth - 1]];
    expect = depth === 0 ? Expect.Nothing : Expect.CommaOrEnd;
  }
}
