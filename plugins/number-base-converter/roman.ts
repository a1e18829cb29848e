/** Roman numerals 1–3999 in the canonical subtractive form, both ways. */
import { UnprocessableError } from '@toolshed/plugin-sdk';

const SYMBOLS: readonly (readonly [number, string])[] = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];
const LETTER_VALUES: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
// Exactly the numerals toRoman writes: anything else (IIII, VX, IC, MMMM) is not canonical.
const CANONICAL = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;
// ASCII letters only: toUpperCase would turn the dotless "ı" into "I".
const ROMAN_LETTERS = /^[ivxlcdm]+$/i;

/** 1–3999 → canonical uppercase numeral. */
export function toRoman(value: number): string {
  let rest = value;
  let roman = '';
  for (const [amount, symbol] of SYMBOLS) {
    for (; rest >= amount; rest -= amount) roman += symbol;
  }
  return roman;
}

/** A canonical numeral (any letter case, surrounding whitespace ignored) → 1–3999; 422 invalid_roman otherwise. */
export function fromRoman(text: string): number {
  const trimmed = text.trim();
  if (!ROMAN_LETTERS.test(trimmed)) {
    throw new UnprocessableError('invalid_roman', 'A Roman numeral uses only the letters I, V, X, L, C, D and M; send a number as a JSON number');
  }
  const upper = trimmed.toUpperCase();
  if (!CANONICAL.test(upper)) {
    throw new UnprocessableError('invalid_roman', 'The numeral is not in canonical form (for example IV, not IIII; XC, not LXXXX)');
  }
  let total = 0;
  for (let index = 0; index < upper.length; index += 1) {
    const current = LETTER_VALUES[upper[index]!]!;
    const next = LETTER_VALUES[upper[index + 1] ?? ''] ?? 0;
    total += current < next ? -current : current;
  }
  return total;
}
