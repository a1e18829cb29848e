/**
 * The work the reference servers do for the two benchmarked operations: the same bytes out as
 * Toolshed's base64.encode and hash-generator.hash for a `text` body (bench.ts checks the answers
 * are equal before it measures). Only node:crypto is loaded, so a reference server's start-up and
 * memory are not inflated by Toolshed's SDK.
 */
import { ALGORITHMS, digestAll, type Algorithm } from '../../plugins/hash-generator/digest.js';

export const HEALTH_PATH = '/healthz';
export const ENCODE_PATH = '/v1/base64/encode';
export const HASH_PATH = '/v1/hash-generator/hash';

export interface EncodeBody {
  text: string;
  urlSafe?: boolean;
}

export interface HashBody {
  text: string;
  algorithms?: Algorithm[];
  encoding?: 'hex' | 'base64';
  uppercase?: boolean;
}

export function encode({ text, urlSafe = false }: EncodeBody): { base64: string } {
  return { base64: Buffer.from(text, 'utf8').toString(urlSafe ? 'base64url' : 'base64') };
}

export function hash({ text, algorithms = [...ALGORITHMS], encoding = 'hex', uppercase = false }: HashBody): { hashes: Record<string, string> } {
  return { hashes: digestAll(Buffer.from(text, 'utf8'), algorithms, encoding, uppercase) };
}

export { ALGORITHMS };
