/**
 * Base64 in both alphabets. Decoding is strict where Buffer.from is lenient: Buffer.from skips
 * characters outside the alphabet silently, so the text is checked first.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Either alphabet (not mixed is not required: "+" and "-" may both appear), whitespace anywhere.
const shape = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** UTF-8 text → Base64; the URL-safe form uses `-` and `_` and drops the padding (RFC 4648 §5). */
export function encodeBase64(text: string, urlSafe: boolean): string {
  const bytes = Buffer.from(text, 'utf8');
  return urlSafe ? bytes.toString('base64url') : bytes.toString('base64');
}

/** Base64 (either alphabet, whitespace and missing padding allowed) → bytes; throws invalid_base64. */
export function decodeBase64Bytes(input: string): Buffer {
  const compact = input.replace(/[\t\n\f\r ]+/g, '');
  if (!shape.test(compact)) {
    throw new UnprocessableError('invalid_base64', 'The input contains characters outside the Base64 alphabets');
  }
  const data = compact.replace(/=+$/, '');
  const padding = compact.length - data.length;
  // A final group of 1 character encodes no whole byte; padding must complete a group of 4.
  if (data.length % 4 === 1 || (padding > 0 && (data.length + padding) % 4 !== 0)) {
    throw new UnprocessableError('invalid_base64', 'The input is not a whole number of Base64 groups');
  }
  return Buffer.from(data.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** Base64 → UTF-8 text; throws invalid_base64 or invalid_utf8. */
export function decodeBase64Text(input: string): string {
  try {
    return utf8.decode(decodeBase64Bytes(input));
  } catch (error) {
    if (error instanceof TypeError) throw new UnprocessableError('invalid_utf8', 'The decoded bytes are not valid UTF-8 text');
    throw error;
  }
}
