/** Message digests over UTF-8 text or Base64-decoded bytes, with node:crypto. */
import { createHash } from 'node:crypto';

/** The algorithms of the contract, in its order. */
export const ALGORITHMS = ['MD5', 'SHA-1', 'SHA-256', 'SHA-384', 'SHA-512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

const nodeNames: Record<Algorithm, string> = {
  MD5: 'md5',
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

/** Digests `data` with each algorithm, in the order given (duplicates collapse into one key). */
export function digestAll(
  data: Buffer,
  algorithms: readonly Algorithm[],
  encoding: 'hex' | 'base64',
  uppercase: boolean,
): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const algorithm of algorithms) {
    const digest = createHash(nodeNames[algorithm]).update(data).digest(encoding);
    hashes[algorithm] = encoding === 'hex' && uppercase ? digest.toUpperCase() : digest;
  }
  return hashes;
}
