/**
 * The 17 transforms of /transform; the case transforms are here, the line transforms in
 * line-transforms.ts. Line endings: `\r\n` and `\n` both end a line and the output uses `\n`.
 * A text that ends with a line break keeps it, and the line-reordering transforms do not treat
 * the empty string after it as a line.
 */
import { forEachGrapheme } from './graphemes.js';
import { CASELESS, categoryTable, LOWER, MARK, NONE, NUMBER, UPPER } from './letters.js';
import type { SegmentBudget } from './segmenter.js';
import { isWhiteSpace } from './stats.js';
import { collapseSpaces, isBlankLine, reorderLines, sortLines, trimLines } from './line-transforms.js';
import { TextBuilder } from './text-builder.js';

/** The transform names, in the order of the contract. */
export const TRANSFORMS = [
  'upper', 'lower', 'title', 'sentence', 'camel', 'pascal', 'snake', 'kebab', 'constant',
  'sortAsc', 'sortDesc', 'reverseLines', 'dedupe', 'removeEmpty', 'trimLines', 'collapseSpaces', 'reverse',
] as const;

/** One transform name. */
export type TransformName = (typeof TRANSFORMS)[number];

/** Case mapping in a locale, or locale-independent without one (never the host's default locale). */
interface Casing {
  upper(text: string): string;
  lower(text: string): string;
  /** upper() of the code point at text[i], cached per code point. */
  upperAt(text: string, i: number): string;
  /**
   * False where a mapping may shrink text (Lithuanian upper case drops the dot of i̇), so that a
   * text of unchanged length may still have shifted positions.
   */
  neverShrinks: boolean;
}

function casing(locale: string | undefined): Casing {
  const upper = locale === undefined ? (text: string) => text.toUpperCase() : (text: string) => text.toLocaleUpperCase(locale);
  const lower = locale === undefined ? (text: string) => text.toLowerCase() : (text: string) => text.toLocaleLowerCase(locale);
  const cache = new Map<number, string>();
  const upperAt = (text: string, i: number): string => {
    const code = text.codePointAt(i)!;
    let mapped = cache.get(code);
    if (mapped === undefined) cache.set(code, (mapped = upper(String.fromCodePoint(code))));
    return mapped;
  };
  return { upper, lower, upperAt, neverShrinks: locale === undefined || !/^lt(?:-|$)/i.test(locale) };
}

/** Title case: every word's first letter upper, the rest lower. A word is a run of letters, marks and digits; ' and ’ inside one do not end it. */
function title(text: string, { lower, upperAt }: Casing): string {
  const table = categoryTable();
  const lowered = lower(text);
  const out = new TextBuilder(lowered.length);
  let inWord = false;
  for (let i = 0; i < lowered.length; ) {
    const code = lowered.codePointAt(i)!;
    const size = code > 0xffff ? 2 : 1;
    if (table[code] !== NONE) {
      if (inWord) out.append(lowered, i, i + size);
      else out.append(upperAt(lowered, i));
      inWord = true;
    } else {
      const joins: boolean = inWord && (code === 0x27 || code === 0x2019) && i + 1 < lowered.length && table[lowered.codePointAt(i + 1)!] !== NONE;
      inWord = joins;
      out.append(lowered, i, i + size);
    }
    i += size;
  }
  return out.toString();
}

const TERMINATORS = new Set('.!?…‼⁇⁈⁉。！？．।'.split('').map((c) => c.charCodeAt(0)));
const CLOSERS = new Set(')]}"\'”’»」』）'.split('').map((c) => c.charCodeAt(0)));

/**
 * Sentence case: everything lower, then the first letter of each sentence upper. A sentence
 * starts the text, follows a line break, or follows a terminator (. ! ? … and their wide forms),
 * possibly closing quotes or brackets, and whitespace. A digit starts a sentence too (and stays).
 */
function sentence(text: string, { lower, upperAt }: Casing): string {
  const table = categoryTable();
  const lowered = lower(text);
  const out = new TextBuilder(lowered.length);
  let capitalize = true;
  let afterTerminator = false;
  for (let i = 0; i < lowered.length; ) {
    const code = lowered.codePointAt(i)!;
    const size = code > 0xffff ? 2 : 1;
    const category = table[code];
    if ((category === UPPER || category === LOWER || category === CASELESS) && capitalize) out.append(upperAt(lowered, i));
    else out.append(lowered, i, i + size);
    if (category === UPPER || category === LOWER || category === CASELESS || category === NUMBER) {
      capitalize = afterTerminator = false;
    } else if (code === 0x0a) {
      capitalize = true;
      afterTerminator = false;
    } else if (TERMINATORS.has(code)) {
      afterTerminator = true;
    } else if (isWhiteSpace(code)) {
      if (afterTerminator) capitalize = true;
    } else if (category !== MARK && !CLOSERS.has(code)) {
      afterTerminator = false;
    }
    i += size;
  }
  return out.toString();
}

/**
 * Calls `visit(start, end)` for the words of the programming cases in text[from, to): runs of
 * letters, marks and digits, cut where a lowercase letter or digit meets an uppercase one
 * (fooBar) and before the last capital of a run of capitals followed by a lowercase letter
 * (HTTPServer → HTTP Server). Marks go with their letter.
 */
function forEachCaseWord(text: string, from: number, to: number, visit: (start: number, end: number) => void): void {
  const table = categoryTable();
  let start = -1;
  let previous = NONE; // category of the previous letter or digit in the word
  for (let i = from; i <= to; ) {
    const code = i < to ? text.codePointAt(i)! : 0;
    const size = code > 0xffff ? 2 : 1;
    const category = i < to ? table[code]! : NONE;
    if (category === NONE) {
      if (start !== -1) visit(start, i);
      start = -1;
    } else if (start === -1) {
      start = i;
      previous = category === MARK ? NONE : category;
    } else if (category !== MARK) {
      let cut = (previous === LOWER || previous === NUMBER) && category === UPPER;
      if (!cut && previous === UPPER && category === UPPER) {
        let j = i + size;
        while (j < to && table[text.codePointAt(j)!] === MARK) j += text.codePointAt(j)! > 0xffff ? 2 : 1;
        cut = j < to && table[text.codePointAt(j)!] === LOWER;
      }
      if (cut) {
        visit(start, i);
        start = i;
      }
      previous = category;
    }
    i += size;
  }
}

/** The words of one line for the programming cases (see forEachCaseWord). */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  forEachCaseWord(line, 0, line.length, (start, end) => words.push(line.slice(start, end)));
  return words;
}

/**
 * camel, pascal, snake, kebab and constant case, line by line. The text is lowered (or raised)
 * once; where that keeps its length, words are copied from it by position, else cased one by one.
 */
function programmingCase(text: string, transform: TransformName, { upper, lower, upperAt, neverShrinks }: Casing): string {
  const lowered = lower(text);
  const raised = transform === 'constant' ? upper(text) : '';
  const separator = transform === 'snake' || transform === 'constant' ? '_' : transform === 'kebab' ? '-' : '';
  const out = new TextBuilder(text.length);
  const cased = (converted: string, convert: (part: string) => string, start: number, end: number): void => {
    // Case mappings only ever grow text (ß → SS), so an unchanged length means unchanged positions.
    if (neverShrinks && converted.length === text.length) out.append(converted, start, end);
    else out.append(convert(text.slice(start, end)));
  };
  let first = true;
  const visit = (start: number, end: number): void => {
    if (!first) out.append(separator);
    if (transform === 'constant') cased(raised, upper, start, end);
    else if (transform === 'pascal' || (transform === 'camel' && !first)) {
      const size = text.codePointAt(start)! > 0xffff ? 2 : 1;
      out.append(upperAt(text, start));
      cased(lowered, lower, start + size, end);
    } else cased(lowered, lower, start, end);
    first = false;
  };
  for (let lineStart = 0; lineStart <= text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    first = true;
    forEachCaseWord(text, lineStart, lineEnd, visit);
    if (lineEnd < text.length) out.unit(0x0a);
    lineStart = lineEnd + 1;
  }
  return out.toString();
}

/** Reverses the text by grapheme cluster, so emoji, flags and combined letters survive. */
function reverseGraphemes(text: string, budget: SegmentBudget): string {
  const length = text.length;
  const out = new Uint16Array(length);
  forEachGrapheme(text, budget, (start, end) => {
    let at = length - end;
    for (let i = start; i < end; i++) out[at++] = text.charCodeAt(i);
  });
  const chunks: string[] = [];
  for (let i = 0; i < length; i += 8192) chunks.push(String.fromCharCode(...out.subarray(i, i + 8192)));
  return chunks.join('');
}

/** Applies one transform. `locale` is a valid BCP 47 tag or undefined. */
export function transformText(input: string, transform: TransformName, locale: string | undefined, budget: SegmentBudget): string {
  const text = input.replace(/\r\n/g, '\n');
  const cases = casing(locale);
  switch (transform) {
    case 'upper':
      return cases.upper(text);
    case 'lower':
      return cases.lower(text);
    case 'title':
      return title(text, cases);
    case 'sentence':
      return sentence(text, cases);
    case 'camel':
    case 'pascal':
    case 'snake':
    case 'kebab':
    case 'constant':
      return programmingCase(text, transform, cases);
    case 'sortAsc':
    case 'sortDesc':
      return reorderLines(text, (lines) => sortLines(lines, locale, transform === 'sortDesc'));
    case 'reverseLines':
      return reorderLines(text, (lines) => lines.reverse());
    case 'dedupe':
      return reorderLines(text, (lines) => [...new Set(lines)]);
    case 'removeEmpty':
      return reorderLines(text, (lines) => lines.filter((line) => !isBlankLine(line)));
    case 'trimLines':
      return trimLines(text);
    case 'collapseSpaces':
      return collapseSpaces(text);
    case 'reverse':
      return reverseGraphemes(text, budget);
  }
}
