/**
 * General categories the text transforms need, one byte per code point, built from the
 * regular-expression engine's Unicode data or read from stored-tables.ts when it holds them for
 * the running Unicode version. A table lookup per code point keeps a 10 MB text cheap.
 */
import { forEachCodePoint, scannedCodePoints } from './grapheme-classes.js';
import { storedTable } from './stored-tables.js';

/** Not a letter, digit or mark. */
export const NONE = 0;
/** Lu and Lt. */
export const UPPER = 1;
/** Ll. */
export const LOWER = 2;
/** Lm and Lo: letters without case. */
export const CASELESS = 3;
/** N: digits and other numbers. */
export const NUMBER = 4;
/** M: combining marks. */
export const MARK = 5;

let table: Uint8Array | undefined;

/** The categories in the order of the pattern's groups; they are disjoint, so one pass finds them all. */
const GROUPS = [UPPER, LOWER, CASELESS, NUMBER, MARK] as const;
const CATEGORY_RUNS = /([\p{Lu}\p{Lt}]+)|(\p{Ll}+)|([\p{Lm}\p{Lo}]+)|(\p{N}+)|(\p{M}+)/gu;

/** The category of every code point (lone surrogates are NONE). */
export function categoryTable(): Uint8Array {
  table ??= storedTable('category') ?? buildCategoryTable();
  return table;
}

/** The table built from the ICU at hand. */
export function buildCategoryTable(): Uint8Array {
  const entries = new Uint8Array(0x110000);
  for (const match of scannedCodePoints().matchAll(CATEGORY_RUNS)) {
    const category = GROUPS[match.findIndex((group, index) => index > 0 && group !== undefined) - 1]!;
    forEachCodePoint(match[0], (cp) => {
      entries[cp] = category;
    });
  }
  return entries;
}
