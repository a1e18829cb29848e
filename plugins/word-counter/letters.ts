/**
 * General categories the text transforms need, one byte per code point, built once from the
 * regular-expression engine's Unicode data. A table lookup per code point keeps a 10 MB text cheap.
 */
import { codePoints } from './grapheme-classes.js';

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

/** The category of every code point (lone surrogates are NONE). */
export function categoryTable(): Uint8Array {
  if (table !== undefined) return table;
  const entries = new Uint8Array(0x110000);
  const all = codePoints(0, 0x10ffff);
  const steps: [RegExp, number][] = [
    [/[\p{Lu}\p{Lt}]/gu, UPPER],
    [/\p{Ll}/gu, LOWER],
    [/[\p{Lm}\p{Lo}]/gu, CASELESS],
    [/\p{N}/gu, NUMBER],
    [/\p{M}/gu, MARK],
  ];
  for (const [pattern, category] of steps) for (const match of all.matchAll(pattern)) entries[match[0].codePointAt(0)!] = category;
  table = entries;
  return entries;
}
