/**
 * Byte digits → UTF-8 text, with one linear scan: tokens are runs between separators (space, tab,
 * newline, comma, colon, in any mix and number). Hex and binary are fixed-width, so a token may
 * hold several bytes written together (`48656c` or `0100100001101001`); decimal and octal have no
 * fixed width, so each token is one byte of any number of digits.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import type { ByteFormat } from './encode-bytes.js';

const RADIX: Record<ByteFormat, number> = { hex: 16, binary: 2, decimal: 10, octal: 8 };
// Digits per byte of the fixed-width formats.
const WIDTH: Partial<Record<ByteFormat, number>> = { hex: 2, binary: 8 };

// ignoreBOM keeps a leading EF BB BF as U+FEFF instead of silently dropping it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isSeparator(code: number): boolean {
  return code === 0x20 || code === 0x2c || code === 0x3a || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** The value of one digit in `radix`, or -1 when the character is not such a digit. */
function digitValue(code: number, radix: number): number {
  let value = -1;
  if (code >= 0x30 && code <= 0x39) value = code - 0x30;
  else if (code >= 0x61 && code <= 0x66) value = code - 0x61 + 10;
  else if (code >= 0x41 && code <= 0x46) value = code - 0x41 + 10;
  return value < radix ? value : -1;
}

function invalid(message: string): UnprocessableError {
  return new UnprocessableError('invalid_bytes', message);
}

/**
 * Reads the bytes written in `format` from `input` and decodes them as UTF-8. Throws 422
 * `invalid_bytes` for a character that is neither a digit nor a separator, a hex or binary token
 * that is not whole bytes (an odd number of hex digits), or a decimal or octal value over 255;
 * 422 `invalid_utf8` when the bytes are not UTF-8. Positions in messages are 0-based indexes.
 */
export function decodeBytes(input: string, format: ByteFormat): string {
  const radix = RADIX[format];
  const width = WIDTH[format];
  // Every byte takes at least one character, so the input length bounds the byte count.
  const bytes = new Uint8Array(input.length);
  let count = 0;
  let index = 0;
  while (index < input.length) {
    if (isSeparator(input.charCodeAt(index))) {
      index++;
      continue;
    }
    const start = index;
    let value = 0;
    for (; index < input.length && !isSeparator(input.charCodeAt(index)); index++) {
      const digit = digitValue(input.charCodeAt(index), radix);
      if (digit < 0) throw invalid(`The character at index ${index} is not a ${format} digit or a separator`);
      value = value * radix + digit;
      if (width !== undefined && (index - start + 1) % width === 0) {
        bytes[count++] = value;
        value = 0;
      } else if (width === undefined && value > 255) {
        throw invalid(`The ${format} value starting at index ${start} is over 255`);
      }
    }
    if (width === undefined) bytes[count++] = value;
    else if ((index - start) % width !== 0) {
      throw invalid(`The ${format} digits starting at index ${start} are not whole bytes of ${width} digits`);
    }
  }
  try {
    return utf8.decode(bytes.subarray(0, count));
  } catch (error) {
    if (error instanceof TypeError) throw new UnprocessableError('invalid_utf8', 'The bytes are not valid UTF-8 text');
    throw error;
  }
}
