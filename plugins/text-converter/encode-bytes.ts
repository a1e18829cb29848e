/**
 * Text → the digits of its UTF-8 bytes. The output can be far longer than the input (a 10-character
 * separator after every byte of a 10 MB text is 110 MB), so its exact length is computed first and
 * a result over the cap is refused before any of it is built.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** How each byte is written. */
export type ByteFormat = 'hex' | 'binary' | 'decimal' | 'octal';

/**
 * Longest output, in UTF-16 code units: 32 MiB, so that hex with the default separator (3 per
 * byte) fits for any text the 10 MiB body can carry.
 */
export const MAX_OUTPUT_LENGTH = 32 * 1024 * 1024;

/** The digits of every byte value in one format, as character codes. */
interface DigitTable {
  /** Character codes of byte `b` at `codes[b * 8 ...]`. */
  readonly codes: Uint8Array;
  /** Number of digits of byte `b`. */
  readonly lengths: Uint8Array;
}

function digitTable(radix: number, width: number, uppercase = false): DigitTable {
  const codes = new Uint8Array(256 * 8);
  const lengths = new Uint8Array(256);
  for (let byte = 0; byte < 256; byte++) {
    const raw = byte.toString(radix).padStart(width, '0');
    const digits = uppercase ? raw.toUpperCase() : raw;
    lengths[byte] = digits.length;
    for (let index = 0; index < digits.length; index++) codes[byte * 8 + index] = digits.charCodeAt(index);
  }
  return { codes, lengths };
}

const tables = {
  hex: digitTable(16, 2),
  hexUpper: digitTable(16, 2, true),
  binary: digitTable(2, 8),
  octal: digitTable(8, 3),
  decimal: digitTable(10, 0),
};

const loneSurrogate = /\p{Surrogate}/u;

/**
 * Writes the UTF-8 bytes of `text` in `format` (hex two digits, binary eight, octal three, decimal
 * unpadded) joined by `separator`; `uppercase` applies to hex only. Throws 422 `invalid_text` for a
 * lone surrogate (it has no UTF-8 form) and `output_too_large` when the result would be longer
 * than `maxLength` UTF-16 code units.
 */
export function encodeBytes(
  text: string,
  format: ByteFormat,
  separator: string,
  uppercase: boolean,
  maxLength = MAX_OUTPUT_LENGTH,
): { bytes: string; count: number } {
  if (loneSurrogate.test(text)) {
    throw new UnprocessableError('invalid_text', 'The text contains a lone UTF-16 surrogate, which has no UTF-8 encoding');
  }
  const data = Buffer.from(text, 'utf8');
  const table = format === 'hex' && uppercase ? tables.hexUpper : tables[format];
  let length = data.length === 0 ? 0 : (data.length - 1) * separator.length;
  for (let index = 0; index < data.length; index++) length += table.lengths[data[index]!]!;
  if (length > maxLength) {
    throw new UnprocessableError('output_too_large', `The result would be ${length} characters long; at most ${maxLength} are returned`);
  }
  // Written code by code into one buffer: joining millions of short strings takes seconds. Latin-1
  // (one byte per character) unless the separator needs UTF-16, then little-endian byte pairs in a
  // zero-filled buffer, so the high byte of every digit is already 0.
  const separatorCodes = Array.from({ length: separator.length }, (_, index) => separator.charCodeAt(index));
  const unit = separatorCodes.some((code) => code > 0xff) ? 2 : 1;
  const output = Buffer.alloc(length * unit);
  let written = 0;
  for (let index = 0; index < data.length; index++) {
    if (index > 0) {
      for (const code of separatorCodes) {
        output[written] = code & 0xff;
        if (unit === 2) output[written + 1] = code >> 8;
        written += unit;
      }
    }
    const byte = data[index]!;
    const digits = table.lengths[byte]!;
    for (let digit = 0; digit < digits; digit++, written += unit) output[written] = table.codes[byte * 8 + digit]!;
  }
  return { bytes: output.toString(unit === 2 ? 'utf16le' : 'latin1'), count: data.length };
}
