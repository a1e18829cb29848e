/**
 * The classes of code points that matter for grapheme cluster boundaries (UAX #29), reduced to
 * what decides a boundary between two neighbours with certainty. Built from the Unicode
 * properties of the regular-expression engine, which reads the same ICU data as Intl.Segmenter,
 * or read from stored-tables.ts when it holds them for the running Unicode version. Whatever
 * could need more context is SPECIAL and left to Intl.Segmenter.
 */
import { storedTable } from './stored-tables.js';

/** No rule joins it to a neighbour, except Extend/ZWJ after it. */
export const OTHER = 0;
export const CR = 1;
export const LF = 2;
/** Cc, Zl, Zp and unassigned default-ignorables: a break on both sides (GB4, GB5). */
export const CONTROL = 3;
/** Grapheme_Extend or Emoji_Modifier: joins whatever precedes it unless that is a control (GB9). */
export const EXTEND = 4;
export const ZWJ = 5;
export const REGIONAL_INDICATOR = 6;
/** Prepend, SpacingMark, format characters, Hangul jamo: decided by Intl.Segmenter. */
export const SPECIAL = 7;
/** An Indic consonant (InCB=Consonant): after a linker it continues a conjunct (GB9c). */
export const HIGH_LETTER = 8;

/** Set on top of the class for White_Space code points. */
export const SPACE_FLAG = 16;
/** Set on top of the class for Extended_Pictographic code points (GB11). */
export const PICTOGRAPHIC_FLAG = 32;
/** Masks the class out of a table entry. */
export const CLASS_MASK = 15;

let table: Uint8Array | undefined;

/** The blocks of the Brahmic scripts, where Unicode defines conjunct consonants (InCB=Consonant). */
const BRAHMIC: readonly [number, number][] = [
  [0x0900, 0x0dff], [0x1000, 0x109f], [0x1700, 0x1bff], [0xa800, 0xabff], [0x11000, 0x11fff], [0x16d00, 0x16d7f],
];

/**
 * Marks HIGH_LETTER on the letters Intl.Segmenter joins to a preceding KA + VIRAMA (क्): exactly
 * the consonants of GB9c in the ICU at hand, whatever its Unicode version.
 */
function markConsonants(entries: Uint8Array): void {
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const letter = /^\p{L}$/u;
  for (const [from, to] of BRAHMIC) {
    for (let cp = from; cp <= to; cp++) {
      const character = String.fromCodePoint(cp);
      if (!letter.test(character)) continue;
      if ([...segmenter.segment(`\u0915\u094D${character}`)].length === 1) entries[cp] = HIGH_LETTER;
    }
  }
}

/** Every code point from `from` to `to`, as one string (surrogates left out). */
export function codePoints(from: number, to: number): string {
  const parts: string[] = [];
  let chunk: number[] = [];
  for (let cp = from; cp <= to; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    chunk.push(cp);
    if (chunk.length === 8192) {
      parts.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  parts.push(String.fromCodePoint(...chunk));
  return parts.join('');
}

let planes4To13: boolean | undefined;

/**
 * The code points the tables are built from: planes 0–3 and 14, plus planes 4–13 as soon as an ICU
 * assigns anything there (none does up to Unicode 17). Planes 15 and 16 are private use by Unicode's
 * stability policy, so no property the tables read can appear there. Scanning a third of the range
 * builds both tables in a third of the time, which is most of the service's start-up.
 */
export function scannedCodePoints(): string {
  const lower = codePoints(0, 0x3ffff);
  const special = codePoints(0xe0000, 0xeffff);
  if (planes4To13 === false) return lower + special;
  const middle = codePoints(0x40000, 0xdffff);
  planes4To13 = /\P{Cn}/u.test(middle);
  return planes4To13 ? lower + middle + special : lower + special;
}

/** Calls `visit` with each code point of `run`. */
export function forEachCodePoint(run: string, visit: (cp: number) => void): void {
  for (let index = 0; index < run.length; ) {
    const cp = run.codePointAt(index)!;
    visit(cp);
    index += cp > 0xffff ? 2 : 1;
  }
}

function mark(entries: Uint8Array, all: string, pattern: RegExp, value: number, keep = 0): void {
  // Runs, not single code points: one match object per run instead of one per code point.
  for (const match of all.matchAll(new RegExp(`(?:${pattern.source})+`, 'gu'))) {
    forEachCodePoint(match[0], (cp) => {
      entries[cp] = (entries[cp]! & keep) | value;
    });
  }
}

/** The table: one byte per code point, the class in the low bits and the flags on top. */
export function graphemeTable(): Uint8Array {
  table ??= storedTable('grapheme') ?? buildGraphemeTable();
  return table;
}

/** The table built from the ICU at hand. Later steps override earlier ones, so the order encodes precedence. */
export function buildGraphemeTable(): Uint8Array {
  const entries = new Uint8Array(0x110000);
  const all = scannedCodePoints();
  markConsonants(entries);
  mark(entries, all, /[\p{Cc}\p{Zl}\p{Zp}]/gu, CONTROL);
  // Unassigned default-ignorable code points (U+2065, U+FFF0–U+FFF8, most of U+E0000–U+E0FFF) are controls too.
  mark(entries, all, /(?=\p{Cn})\p{Default_Ignorable_Code_Point}/gu, CONTROL);
  // Prepend letters (Malayalam dot reph and the Brahmic scripts of U+11000–U+11FFF), spacing
  // marks (Mc and the two Lo ones), format characters and Hangul jamo: all depend on context.
  mark(entries, all, /[\p{Cf}\p{Mc}\u0D4E\u0E33\u0EB3\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF]/gu, SPECIAL);
  mark(entries, all, /[\u{11000}-\u{11FFF}]/gu, SPECIAL);
  mark(entries, all, /[\p{Grapheme_Extend}\p{Emoji_Modifier}]/gu, EXTEND);
  mark(entries, all, /\p{Regional_Indicator}/gu, REGIONAL_INDICATOR);
  entries[0x200d] = ZWJ;
  entries[0x0d] = CR;
  entries[0x0a] = LF;
  mark(entries, all, /\p{White_Space}/gu, SPACE_FLAG, CLASS_MASK);
  mark(entries, all, /\p{Extended_Pictographic}/gu, PICTOGRAPHIC_FLAG, CLASS_MASK | SPACE_FLAG);
  return entries;
}
