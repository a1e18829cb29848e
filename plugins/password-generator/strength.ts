/** Entropy, strength class and average cracking time, shared by /password and /passphrase. */

/** Guesses per second of the offline attacker the contract assumes. */
export const GUESSES_PER_SECOND = 1e10;

export type Strength = 'weak' | 'fair' | 'strong' | 'veryStrong';

/** The three fields a generator answers besides the secrets themselves. */
export interface StrengthReport {
  entropyBits: number;
  strength: Strength;
  crackSeconds: number;
}

/**
 * Reports on a secret of `bits` bits of entropy. entropyBits is rounded to one decimal, and
 * strength and crackSeconds derive from that shown value, so a client can reproduce them;
 * crackSeconds (2^bits / 2 guesses, half the key space, at 1e10 a second) keeps 3 significant
 * digits, which is all an estimate of this kind can claim.
 */
export function strengthOf(bits: number): StrengthReport {
  const entropyBits = Math.round(bits * 10) / 10;
  const strength: Strength = entropyBits < 40 ? 'weak' : entropyBits < 60 ? 'fair' : entropyBits < 80 ? 'strong' : 'veryStrong';
  const crackSeconds = Number((2 ** entropyBits / 2 / GUESSES_PER_SECOND).toPrecision(3));
  return { entropyBits, strength, crackSeconds };
}
