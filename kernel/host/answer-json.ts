/**
 * An operation's answer written as JSON. `JSON.stringify` escapes a long string one character at a
 * time, and its text must then be encoded again as UTF-8 to be sent: a 1.3 MiB Base64 answer cost
 * 3.7 ms to stringify and 2 more to flatten and encode on Node 20 (2-core development machine,
 * 2026-11). A long string that needs no escaping (ASCII without `"`, `\` or a control character:
 * Base64, hex, one line of plain text) is copied into the answer's bytes as it is, and checked as
 * the bytes are; everything else is written by `JSON.stringify`, so the bytes are exactly those of
 * `Buffer.from(JSON.stringify(value))`.
 */
import { isAscii } from 'node:buffer';

/** Strings from this length are looked at: shorter ones cost JSON.stringify less than the look. */
export const LONG_STRING_CHARS = 4096;
/** Objects and arrays with more members, or deeper, are left whole to JSON.stringify: walking them here would cost more than it saves. */
const MAX_MEMBERS = 64;
const MAX_DEPTH = 4;

/** A long string to copy into the answer as it is, between quotes. */
class Verbatim {
  constructor(readonly text: string) {}
}

type Part = string | Verbatim;

/**
 * True for a long string with none of the characters text answers most often need escaped, each
 * looked for with a native scan of the string (memchr). Whether it is ASCII without a control
 * character is checked on the bytes it is written to (see {@link plainAscii}): its UTF-8 length,
 * counted on the string, cost Node 20 as much as copying it five times.
 */
function verbatim(text: string): boolean {
  if (text.length < LONG_STRING_CHARS) return false;
  return text.indexOf('"') === -1 && text.indexOf('\\') === -1 && text.indexOf('\n') === -1 && text.indexOf('\r') === -1 && text.indexOf('\t') === -1;
}

function plainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * True when `value` holds a string {@link write} copies as it is: looked for before any part is
 * written, so that an answer without one (most of them, and those whose long strings need escaping)
 * costs a few property reads and one JSON.stringify, not parts joined and then thrown away. (Asking
 * only for a long string here wrote a long text with newlines twice: 2-2.5 times its cost.)
 */
function holdsVerbatim(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return verbatim(value);
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.length <= MAX_MEMBERS && value.some((item) => holdsVerbatim(item, depth + 1));
  if (!plainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length <= MAX_MEMBERS && keys.some((key) => holdsVerbatim(value[key], depth + 1));
}

/** Appends `value`'s JSON to `parts`; true when a part is Verbatim. */
function write(value: unknown, parts: Part[], depth: number): boolean {
  if (typeof value === 'string' && verbatim(value)) {
    parts.push(new Verbatim(value));
    return true;
  }
  if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
    if (Array.isArray(value) && value.length <= MAX_MEMBERS) {
      let found = false;
      parts.push('[');
      for (let index = 0; index < value.length; index++) {
        if (index > 0) parts.push(',');
        const item: unknown = value[index];
        if (omitted(item)) parts.push('null');
        else found = write(item, parts, depth + 1) || found;
      }
      parts.push(']');
      return found;
    }
    if (!Array.isArray(value) && plainObject(value)) {
      const keys = Object.keys(value);
      if (keys.length <= MAX_MEMBERS) {
        let found = false;
        let first = true;
        parts.push('{');
        for (const key of keys) {
          const item = value[key];
          if (omitted(item)) continue;
          parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
          first = false;
          found = write(item, parts, depth + 1) || found;
        }
        parts.push('}');
        return found;
      }
    }
  }
  parts.push(JSON.stringify(value));
  return false;
}

/**
 * True when every byte of `bytes[start, end)` is printable ASCII or DEL (0x20-0x7f): no byte of a
 * character beyond ASCII (Node's native `isAscii`) and no control character, which JSON escapes.
 * Once every byte is below 0x80, subtracting 0x20 from each byte of a 32-bit word at once sets a
 * top bit exactly when a byte is below 0x20: a byte from 0x20 neither sets its own nor borrows
 * from the next, so only a control character, or a borrow from one below it, sets one.
 */
function plainAscii(bytes: Buffer, start: number, end: number): boolean {
  if (!isAscii(bytes.subarray(start, end))) return false;
  let index = start;
  for (; index < end && ((bytes.byteOffset + index) & 3) !== 0; index++) if (bytes[index]! < 0x20) return false;
  const words = new Int32Array(bytes.buffer, bytes.byteOffset + index, (end - index) >>> 2);
  const count = words.length;
  let found = 0;
  let word = 0;
  for (; word + 4 <= count; word += 4) found |= (words[word]! - 0x20202020) | (words[word + 1]! - 0x20202020) | (words[word + 2]! - 0x20202020) | (words[word + 3]! - 0x20202020);
  for (; word < count; word++) found |= words[word]! - 0x20202020;
  if ((found & 0x80808080) !== 0) return false;
  for (index += count * 4; index < end; index++) if (bytes[index]! < 0x20) return false;
  return true;
}

/**
 * `value` as JSON: its UTF-8 bytes in a buffer of their own (which a worker moves to the main
 * thread) when it holds a long string copied as it is, else the text `JSON.stringify` writes.
 * Either way the same JSON (typed as TypeScript types JSON.stringify: for `undefined`, a function
 * or a symbol it is `undefined`, which no response schema lets through).
 */
export function answerJson(value: unknown): string | Buffer {
  const parts: Part[] = [];
  if (!holdsVerbatim(value, 0) || !write(value, parts, 0)) return JSON.stringify(value);
  let size = 0;
  for (const part of parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.text.length + 2;
  const bytes = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  for (const part of parts) {
    if (typeof part === 'string') {
      offset += bytes.write(part, offset, 'utf8');
      continue;
    }
    const { text } = part;
    bytes[offset] = 0x22;
    // As UTF-8 into one byte a character: an ASCII string fills its room exactly, and any other
    // character writes bytes from 0x80, which the check below finds, as it finds a control
    // character; either is rare enough in such a string to find only here, and JSON.stringify then writes it all.
    const written = bytes.write(text, offset + 1, text.length, 'utf8');
    if (written !== text.length || !plainAscii(bytes, offset + 1, offset + 1 + text.length)) return JSON.stringify(value);
    offset += text.length + 1;
    bytes[offset++] = 0x22;
  }
  return bytes;
}
