/**
 * Whether a JSON value's text would be longer than a bound, found without writing it: where its
 * writing is to be done depends on that length, and writing it to learn it would be the very work
 * to place. The walk stops as soon as the count passes the bound, so it costs about as many steps
 * as the bound has bytes, whatever the value's size.
 */

/** Escapes JSON writes in two characters: \b \t \n \f \r. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** UTF-8 bytes of `text` as a JSON string, quotes and escapes included; past `room`, any count above it. */
function stringBytes(text: string, room: number): number {
  // Every code unit writes at least one byte.
  if (text.length > room) return text.length;
  let bytes = 2;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20) bytes += SHORT_ESCAPES.has(unit) ? 2 : 6;
    else if (unit === 0x22 || unit === 0x5c) bytes += 2;
    else if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) bytes += 6; // A lone surrogate is written as \udxxx.
    else bytes += 3;
  }
  return bytes;
}

/** What JSON.stringify leaves out of an object, and writes as null in an array. */
const omitted = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * `Buffer.byteLength(JSON.stringify(value))` for a JSON value (plain objects, arrays, strings,
 * numbers, booleans, null; a member that JSON.stringify leaves out is left out here too), counted
 * without writing it. Past `bound` the walk stops and answers some count above it. Walked without
 * recursion, so depth costs no stack.
 */
export function jsonByteLength(value: unknown, bound = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const here = stack.pop();
    if (typeof here === 'string') bytes += stringBytes(here, bound - bytes);
    else if (typeof here === 'number') bytes += Number.isFinite(here) ? String(here).length : 4;
    else if (typeof here === 'boolean') bytes += here ? 4 : 5;
    else if (Array.isArray(here)) {
      // Brackets and commas first: a long array is over before any item is looked at.
      bytes += 2 + Math.max(0, here.length - 1);
      if (bytes > bound) return bytes;
      for (const item of here as unknown[]) stack.push(omitted(item) ? null : item);
    } else if (typeof here === 'object' && here !== null) {
      // The opening brace; each member then writes "key": and a comma or the closing brace.
      bytes += 1;
      let empty = true;
      // Counted key by key: an object of many keys is over before they are all listed.
      for (const key in here) {
        const member = (here as Record<string, unknown>)[key];
        if (!Object.hasOwn(here, key) || omitted(member)) continue;
        empty = false;
        bytes += stringBytes(key, bound - bytes) + 2;
        if (bytes > bound) return bytes;
        stack.push(member);
      }
      if (empty) bytes += 1;
    } else bytes += 4; // null
    if (bytes > bound) return bytes;
  }
  return bytes;
}

/** True when `Buffer.byteLength(JSON.stringify(value))` is over `bound` (see {@link jsonByteLength}); costs about as many steps as the bound has bytes. */
export const jsonBytesOver = (value: unknown, bound: number): boolean => jsonByteLength(value, bound) > bound;
