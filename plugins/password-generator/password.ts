/** Random passwords over chosen character classes, each class present at least once. */
import { randomInt } from 'node:crypto';
import { InputError } from '@toolshed/plugin-sdk';
import { strengthOf, type StrengthReport } from './strength.js';

/** The 32 printable ASCII punctuation characters (0x21–0x7E that are neither letters nor digits). */
export const SYMBOLS = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
/** Characters that are easy to confuse in many fonts; the contract names exactly these. */
export const AMBIGUOUS = 'Il1O0o';

const CLASSES = {
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digits: '0123456789',
  symbols: SYMBOLS,
} as const;
export type CharacterClass = keyof typeof CLASSES;
/** The class fields of a request, in the order the 400 names them. */
export const CHARACTER_CLASSES = Object.keys(CLASSES) as CharacterClass[];
/** The rule on the class fields, as the schema states it and as each detail words it. */
export const NO_CLASS_SELECTED = 'at least one of lowercase, uppercase, digits and symbols must be true';

/** The request of /password. */
export interface PasswordOptions {
  length: number;
  lowercase: boolean;
  uppercase: boolean;
  digits: boolean;
  symbols: boolean;
  excludeAmbiguous: boolean;
  count: number;
}

/**
 * Rejection sampling keeps every valid password equally likely. The worst case (length 4, all
 * four classes, ambiguous characters excluded: pool 88) accepts a try with probability
 * 4!·24·24·8·32 / 88^4 ≈ 0.059, so 2000 tries all fail with probability 0.941^2000 ≈ 1e-53.
 */
const MAX_TRIES = 2000;

/** The characters of each selected class, ambiguous ones removed when asked. */
export function selectedClasses(options: PasswordOptions): string[][] {
  const names = CHARACTER_CLASSES.filter((name) => options[name]);
  if (names.length === 0) {
    throw new InputError(`No character class selected: ${NO_CLASS_SELECTED}`, CHARACTER_CLASSES.map((name) => ({ path: `/${name}`, message: NO_CLASS_SELECTED })));
  }
  return names.map((name) => [...CLASSES[name]].filter((char) => !(options.excludeAmbiguous && AMBIGUOUS.includes(char))));
}

function onePassword(length: number, classes: readonly string[][], pool: readonly string[]): string {
  const members = classes.map((chars) => new Set(chars));
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const chars = Array.from({ length }, () => pool[randomInt(pool.length)]);
    if (members.every((member) => chars.some((char) => member.has(char)))) return chars.join('');
  }
  // Unreachable in practice (see MAX_TRIES); a bug if it ever happens, so the kernel answers 500.
  throw new Error('password generation did not cover every class');
}

/**
 * `count` passwords of `length` characters, uniform over the passwords that contain every
 * selected class at least once, with entropy length · log2(pool size).
 *
 * @throws InputError naming the four class fields when none is selected.
 */
export function generatePasswords(options: PasswordOptions): StrengthReport & { passwords: string[] } {
  const classes = selectedClasses(options);
  const pool = classes.flat();
  const passwords = Array.from({ length: options.count }, () => onePassword(options.length, classes, pool));
  return { passwords, ...strengthOf(options.length * Math.log2(pool.length)) };
}
