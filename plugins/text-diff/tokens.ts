/**
 * How texts are cut and compared: lines, word tokens, characters, and the comparison keys that
 * implement ignoreCase and ignoreWhitespace. Keys are built so that comparing tokens and comparing
 * whole texts agree: a token sequence whose keys all match always belongs to texts whose keys match.
 */

/** The two ignore options of both operations. */
export interface CompareOptions {
  readonly ignoreCase: boolean;
  readonly ignoreWhitespace: boolean;
}

/** How a text is cut into tokens, and where a cut between two tokens may fall. */
export interface Tokenizer {
  /** The tokens; they concatenate to the text. */
  tokens(text: string): string[];
  /** True when `index` is a token boundary of `text`. */
  isBoundary(text: string, index: number): boolean;
}

/** The line count of a text: 0 for the empty text, else the number of `\n` plus one. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Lines of a text: `\r\n` and `\n` both end a line; the empty text has none, "a\n" has two ("a" and ""). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  // A string separator is much faster than a regular expression on millions of lines.
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** JavaScript's `\s`, by code unit (all of it lies in the BMP). */
export function isSpaceUnit(c: number): boolean {
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** True for a token that is whitespace; such tokens are not compared under ignoreWhitespace. */
export function isWhitespace(token: string): boolean {
  // Tokens are never a mix: a whitespace token is whitespace from its first code unit on.
  return token.length > 0 && isSpaceUnit(token.charCodeAt(0));
}

function isLowSurrogateAt(text: string, index: number): boolean {
  const c = text.charCodeAt(index);
  return c >= 0xdc00 && c <= 0xdfff && index > 0 && text.charCodeAt(index - 1) >= 0xd800 && text.charCodeAt(index - 1) <= 0xdbff;
}

// Newlines are tokens of their own (a line break is a change worth seeing), then runs of letters,
// marks, digits and connectors, runs of other whitespace, and any other single code point.
const WORD_TOKEN = /\r?\n|[\p{L}\p{M}\p{N}\p{Pc}]+|[^\S\r\n]+|[^]/gu;
const WORD_CHAR = /^[\p{L}\p{M}\p{N}\p{Pc}]/u;

/** Which run a code point joins: w(ord), s(pace other than CR/LF), r (CR), n (LF), or o(ther, a token of its own). */
function runClass(text: string, index: number): string {
  const c = text.charCodeAt(index);
  if (c === 0x0d) return 'r';
  if (c === 0x0a) return 'n';
  if (isSpaceUnit(c)) return 's';
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(index)!)) ? 'w' : 'o';
}

/** Words (runs of letters, marks, digits, connectors), whitespace runs, newlines, single other characters. */
export const words: Tokenizer = {
  tokens: (text) => text.match(WORD_TOKEN) ?? [],
  isBoundary(text, index) {
    if (index <= 0 || index >= text.length) return true;
    if (isLowSurrogateAt(text, index)) return false;
    const before = runClass(text, index - 1 - (isLowSurrogateAt(text, index - 1) ? 1 : 0));
    const after = runClass(text, index);
    return !((before === 'w' && after === 'w') || (before === 's' && after === 's') || (before === 'r' && after === 'n'));
  },
};

/** Code points (a lone surrogate is one token of its own). */
export const chars: Tokenizer = {
  tokens: (text) => Array.from(text),
  isBoundary: (text, index) => index <= 0 || index >= text.length || !isLowSurrogateAt(text, index),
};

/**
 * Case-insensitive form. toLowerCase is per code point except for the Greek final sigma, so ς is
 * folded to σ as well; then folding a text equals folding its tokens one by one.
 */
export function foldCase(text: string): string {
  return text.toLowerCase().replace(/ς/g, 'σ');
}

/** The comparison key of a line or a whole text: whitespace removed and case folded, as asked. */
export function textKey(text: string, options: CompareOptions): string {
  const spaced = options.ignoreWhitespace ? text.replace(/\s+/g, '') : text;
  return options.ignoreCase ? foldCase(spaced) : spaced;
}

/** Steps a cut may move back to reach a token boundary; a token longer than this is not worth it. */
const MAX_BACKOFF = 4096;

/**
 * The longest common prefix and suffix of `a` and `b` (not overlapping) that end on token
 * boundaries in both texts. Tokenising only what lies between keeps a small edit in a huge text
 * cheap. Returns [0, 0] parts where no boundary is near.
 */
export function commonEnds(a: string, b: string, tokenizer: Tokenizer): [prefix: number, suffix: number] {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  const floor = Math.max(0, prefix - MAX_BACKOFF);
  while (prefix > floor && !(tokenizer.isBoundary(a, prefix) && tokenizer.isBoundary(b, prefix))) prefix--;
  if (prefix === floor && !(tokenizer.isBoundary(a, prefix) && tokenizer.isBoundary(b, prefix))) prefix = 0;
  let suffix = 0;
  while (suffix < shorter - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  const bottom = Math.max(0, suffix - MAX_BACKOFF);
  const cut = (s: number): boolean => tokenizer.isBoundary(a, a.length - s) && tokenizer.isBoundary(b, b.length - s);
  while (suffix > bottom && !cut(suffix)) suffix--;
  if (suffix === bottom && !cut(suffix)) suffix = 0;
  return [prefix, suffix];
}
