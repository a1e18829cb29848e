/**
 * HMAC (RFC 2104) over SHA-2, and the decoding of the text fields that carry bytes. Pure functions;
 * the manifest in index.ts only maps requests onto them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnprocessableError } from '@toolshed/plugin-sdk';

export const ALGORITHMS = ['sha256', 'sha384', 'sha512'] as const;
export type Algorithm = (typeof ALGORITHMS)[number];

/** How a text field carries its bytes. */
export const INPUT_ENCODINGS = ['utf8', 'hex', 'base64'] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** How a signature is written. */
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export type SignatureEncoding = (typeof SIGNATURE_ENCODINGS)[number];

const hexDigits = /^(?:[0-9a-fA-F]{2})*$/;
// Either Base64 alphabet (RFC 4648 §4 or the URL-safe §5), padding optional.
const base64Digits = /^[A-Za-z0-9+/_-]*$/;

/**
 * The bytes `value` stands for. Node's own decoders skip characters they do not know, and a
 * signature over other bytes than the caller meant is worse than a refusal: hence the checks.
 */
export function decodeField(field: string, value: string, encoding: InputEncoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(value, 'utf8');
  if (encoding === 'hex') {
    if (!hexDigits.test(value)) throw new UnprocessableError('invalid_encoding', `${field} is not hex: it needs an even number of the digits 0-9 and a-f`);
    return Buffer.from(value, 'hex');
  }
  const unpadded = value.replace(/={1,2}$/, '');
  const padded = unpadded.length !== value.length;
  // A lone last digit carries 6 bits, less than a byte; padding, when present, completes a 4-digit group.
  if (!base64Digits.test(unpadded) || unpadded.length % 4 === 1 || (padded && value.length % 4 !== 0)) {
    throw new UnprocessableError('invalid_encoding', `${field} is not Base64`);
  }
  return Buffer.from(unpadded, 'base64');
}

/** The HMAC of `message` under `key`. */
export function sign(key: Buffer, message: Buffer, algorithm: Algorithm): Buffer {
  return createHmac(algorithm, key).update(message).digest();
}

/**
 * Whether `signature` is the full HMAC of `message` under `key`. The comparison takes the same
 * time wherever the first differing byte is, so a caller cannot find a valid signature byte by
 * byte. A truncated signature is not valid: accepting one would weaken every signature.
 */
export function verify(key: Buffer, message: Buffer, algorithm: Algorithm, signature: Buffer): boolean {
  const expected = sign(key, message, algorithm);
  // The length of a valid signature is public (it follows from the algorithm), so checking it first leaks nothing.
  return signature.length === expected.length && timingSafeEqual(signature, expected);
}
