/**
 * Integer text → BigInt in any base 2–36. Parsing is linear in the text for the bases BigInt()
 * reads natively, and sub-quadratic for the others: digits are read in chunks that fit a double
 * exactly, and the chunks are merged pairwise (a tree), so a 10000-digit base-36 value takes
 * milliseconds instead of 10000 multiplications of an ever larger BigInt.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

const PREFIX_BASES: Readonly<Record<string, number>> = { x: 16, b: 2, o: 8 };
const NATIVE_PREFIXES: Readonly<Record<number, string>> = { 2: '0b', 8: '0o', 10: '', 16: '0x' };
const SEPARATORS = new Set([' ', '_', "'", ',']);
const DEFAULT_BASE = 10;

/** The value of one ASCII digit or letter (case-insensitive), or 99 for anything else. */
function digitValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 122) return lower - 87;
  return 99;
}

/** Names the character at `index` without echoing control, invisible or lone surrogate characters. */
function describeCharacter(text: string, index: number): string {
  const code = text.codePointAt(index) ?? 0;
  if (code > 0x20 && code < 0x7f) return `"${String.fromCharCode(code)}"`;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function invalid(message: string): UnprocessableError {
  return new UnprocessableError('invalid_number', message);
}

/** How many digits of `base` always fit a double exactly, so parseInt of that many is exact. */
function exactChunkLength(base: number): number {
  let length = 0;
  for (let power = 1; power * base <= Number.MAX_SAFE_INTEGER; power *= base) length += 1;
  return length;
}

/** Valid digits (no sign, no separators) of `base` → BigInt. */
export function digitsToBigInt(digits: string, base: number): bigint {
  const native = NATIVE_PREFIXES[base];
  if (native !== undefined) return BigInt(native + digits);
  const size = exactChunkLength(base);
  const first = digits.length % size || size;
  let parts: bigint[] = [BigInt(parseInt(digits.slice(0, first), base))];
  for (let start = first; start < digits.length; start += size) parts.push(BigInt(parseInt(digits.slice(start, start + size), base)));
  // Every part but the first spans exactly `width` digits, so left · base^width + right joins two.
  let power = BigInt(base) ** BigInt(size);
  while (parts.length > 1) {
    const merged: bigint[] = parts.length % 2 === 1 ? [parts[0]!] : [];
    for (let index = parts.length % 2; index < parts.length; index += 2) merged.push(parts[index]! * power + parts[index + 1]!);
    parts = merged;
    if (parts.length > 1) power *= power;
  }
  return parts[0]!;
}

/** The integer text of /convert read in `base`, with the base a 0x/0b/0o prefix may set. */
export interface ParsedInteger {
  value: bigint;
  base: number;
}

/**
 * Reads an integer: surrounding whitespace, an optional sign, an optional 0x/0b/0o prefix, then
 * digits with single separators (space, `_`, `'`, `,`) between them. With the default base 10 a
 * prefix sets the base; with another base a prefix must agree with it, unless its letter is a
 * digit of that base (in base 16, "0b1" is the hex number B1). Throws 422 invalid_number.
 */
export function parseInteger(text: string, requestedBase: number): ParsedInteger {
  const trimmed = text.trim();
  const offset = text.length - text.trimStart().length;
  let index = 0;
  let negative = false;
  if (trimmed[0] === '+' || trimmed[0] === '-') {
    negative = trimmed[0] === '-';
    index = 1;
  }
  let base = requestedBase;
  const letter = trimmed[index] === '0' ? trimmed[index + 1]?.toLowerCase() : undefined;
  const prefixBase = letter === undefined ? undefined : PREFIX_BASES[letter];
  if (prefixBase !== undefined && !(digitValue(letter!.charCodeAt(0)) < requestedBase)) {
    if (requestedBase !== DEFAULT_BASE && requestedBase !== prefixBase) {
      throw invalid(`The prefix 0${letter} means base ${prefixBase}, but base ${requestedBase} was asked for`);
    }
    base = prefixBase;
    index += 2;
  }
  let digits = '';
  let afterDigit = false;
  for (; index < trimmed.length; index += 1) {
    const character = trimmed[index]!;
    if (SEPARATORS.has(character)) {
      if (!afterDigit || index === trimmed.length - 1) throw invalid(`A separator at position ${offset + index + 1} is not between two digits`);
      afterDigit = false;
      continue;
    }
    if (!(digitValue(character.charCodeAt(0)) < base)) {
      throw invalid(`The character ${describeCharacter(trimmed, index)} at position ${offset + index + 1} is not a digit of base ${base}`);
    }
    digits += character;
    afterDigit = true;
  }
  if (digits === '') throw invalid('The value has no digits');
  const magnitude = digitsToBigInt(digits, base);
  return { value: negative ? -magnitude : magnitude, base };
}
