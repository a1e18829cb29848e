/**
 * API keys: `tsk_` + 32 base62 characters (about 190 bits). The configuration holds only their
 * SHA-256 digests, so a leaked config file leaks no key, and a lookup never compares raw secrets.
 */
import { hash, randomInt } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'tsk_';

/** A new random key. */
export function generateApiKey(): string {
  let key = KEY_PREFIX;
  for (let index = 0; index < 32; index++) key += alphabet[randomInt(alphabet.length)];
  return key;
}

/** The lowercase hex SHA-256 of a key, as the configuration stores it. */
export function digestApiKey(key: string): string {
  // The one-shot hash() costs a third of createHash().update().digest(): it is on every keyed request.
  return hash('sha256', key, 'hex');
}

/** Digest → key name, from the configured keys. */
export function keyIndex(keys: readonly { name: string; sha256: string }[]): ReadonlyMap<string, string> {
  return new Map(keys.map((key) => [key.sha256.toLowerCase(), key.name]));
}
