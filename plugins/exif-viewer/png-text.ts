/**
 * PNG text chunks (tEXt, zTXt, iTXt) decoded with a hard cap on inflation: exifr inflates these
 * (and iCCP) with no limit, so a few hundred KB of zeros become gigabytes. Here a chunk never
 * inflates past MAX_INFLATED bytes; a longer text shows its beginning.
 */
import { constants, inflateSync } from 'node:zlib';
import { clip } from './tags.js';
import { MAX_TEXT_CHARS, type TextEntry } from './image-file.js';

/** Most bytes one compressed text may inflate to: enough for MAX_TEXT_CHARS characters of UTF-8. */
export const MAX_INFLATED = 4 * MAX_TEXT_CHARS;
/** Stands in for a compressed text that does not inflate at all. */
export const UNREADABLE_TEXT = '(compressed text that cannot be inflated)';

const utf8 = new TextDecoder('utf-8');

/**
 * Inflates at most MAX_INFLATED bytes. A stream that would give more is cut: a binary search finds
 * the longest prefix of its input whose output still fits (Z_SYNC_FLUSH accepts a cut stream, and
 * output only grows with input). That is at most log2(n) + 1 tries, each stopped by
 * maxOutputLength after MAX_INFLATED bytes, so the work stays bounded whatever the ratio; one more
 * input byte adds at most about 2 KB of output, so the result is close to the cap.
 */
export function inflateCapped(compressed: Uint8Array): Buffer | undefined {
  const attempt = (length: number): Buffer | undefined => {
    try {
      return inflateSync(compressed.subarray(0, length), { maxOutputLength: MAX_INFLATED, finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      return undefined; // too large (RangeError) or corrupt: either way, shorter prefixes are tried
    }
  };
  const whole = attempt(compressed.length);
  if (whole !== undefined) return whole;
  let fits = 0; // attempt(fits) succeeds (the empty prefix trivially) …
  let fails = compressed.length; // … and attempt(fails) does not
  let best: Buffer | undefined;
  while (fails - fits > 1) {
    const middle = (fits + fails) >>> 1;
    const output = attempt(middle);
    if (output === undefined) fails = middle;
    else [fits, best] = [middle, output];
  }
  return best;
}

function decodeCompressed(method: number | undefined, compressed: Uint8Array, decode: (bytes: Uint8Array) => string): string {
  const inflated = method === 0 ? inflateCapped(compressed) : undefined;
  return inflated === undefined ? UNREADABLE_TEXT : decode(inflated);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The keyword, the index after its NUL, or undefined when the chunk has no NUL. */
function keyword(data: Uint8Array): { key: string; rest: number } | undefined {
  const nul = data.indexOf(0);
  if (nul < 0) return undefined;
  // The spec caps keywords at 79 bytes; a longer one is shown cut.
  return { key: latin1(data.subarray(0, Math.min(nul, 79))), rest: nul + 1 };
}

/** The keyword (and its NUL) of the iTXt chunk that carries an XMP packet. */
export const XMP_KEYWORD = 'XML:com.adobe.xmp\0';

/** One text chunk as a key and value; undefined when it has no keyword. */
export function readTextChunk(type: string, data: Uint8Array): TextEntry | undefined {
  const head = keyword(data);
  if (head === undefined) return undefined;
  const body = data.subarray(head.rest);
  let value: string;
  if (type === 'tEXt') {
    value = latin1(body.subarray(0, MAX_TEXT_CHARS + 1));
  } else if (type === 'zTXt') {
    value = decodeCompressed(body[0], body.subarray(1), latin1);
  } else {
    const [compressed, method] = [body[0], body[1]];
    const language = body.indexOf(0, 2);
    const translated = language < 0 ? -1 : body.indexOf(0, language + 1);
    if (translated < 0) return undefined;
    const text = body.subarray(translated + 1);
    value = compressed === 1 ? decodeCompressed(method, text, (bytes) => utf8.decode(bytes)) : utf8.decode(text.subarray(0, MAX_INFLATED));
  }
  return { key: head.key, value: clip(value.replace(/\0+$/, ''), MAX_TEXT_CHARS) };
}
