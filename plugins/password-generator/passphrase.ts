/** Diceware passphrases over EFF's large word list. */
import { randomInt } from 'node:crypto';
import { InputError } from '@toolshed/plugin-sdk';
import { EFF_LARGE_WORDLIST } from './eff-large-wordlist.data.js';
import { strengthOf, type StrengthReport } from './strength.js';

/** The request of /passphrase. */
export interface PassphraseOptions {
  words: number;
  separator: string;
  capitalize: boolean;
  includeNumber: boolean;
  count: number;
}

/** A lone surrogate: half of a UTF-16 pair without its other half. */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function onePassphrase(options: PassphraseOptions): string {
  // Independent draws with replacement, as with real dice: that is what words · log2(7776) assumes.
  const words = Array.from({ length: options.words }, () => EFF_LARGE_WORDLIST[randomInt(EFF_LARGE_WORDLIST.length)]);
  const shown = options.capitalize ? words.map(capitalized) : words;
  if (options.includeNumber) {
    const position = randomInt(shown.length);
    shown[position] += String(randomInt(10));
  }
  return shown.join(options.separator);
}

/**
 * The entropy of one passphrase: log2(7776) ≈ 12.925 bits a word; the appended digit adds
 * log2(10) for its value and log2(words) for the word it lands on, both uniform and independent.
 */
export function passphraseBits(words: number, includeNumber: boolean): number {
  const wordBits = words * Math.log2(EFF_LARGE_WORDLIST.length);
  return includeNumber ? wordBits + Math.log2(10 * words) : wordBits;
}

/**
 * `count` passphrases of `words` words joined by `separator`.
 *
 * @throws InputError on /separator when it holds a lone surrogate (it could not be shown or typed).
 */
export function generatePassphrases(options: PassphraseOptions): StrengthReport & { passwords: string[] } {
  if (loneSurrogate.test(options.separator)) {
    throw new InputError('separator must be well-formed Unicode', [{ path: '/separator', message: 'must not contain a lone surrogate' }]);
  }
  const passwords = Array.from({ length: options.count }, () => onePassphrase(options));
  return { passwords, ...strengthOf(passphraseBits(options.words, options.includeNumber)) };
}
