/**
 * Where a member's value lies in the bytes of a JSON text, found without building any value: the
 * arguments of a large tools/call are handed to the executor as the bytes the client sent, not
 * parsed and written again. The text must be valid JSON already (the caller parsed it once to
 * check it); a member named twice is found where JSON.parse takes it, at its last mention.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** The index after the string starting at `at` (its opening quote). */
function stringEnd(bytes: Buffer, at: number): number {
  let next = at + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, next);
    if (quote === -1) throw new Error('unterminated string');
    // A quote is escaped by an odd run of backslashes before it.
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    next = quote + 1;
  }
}

/** The index after the value starting at `at`. */
function valueEnd(bytes: Buffer, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    // A number, true, false or null: up to the next delimiter.
    let end = at;
    while (end < bytes.length && !isSpace(bytes[end]) && bytes[end] !== COMMA && bytes[end] !== CLOSE_OBJECT && bytes[end] !== CLOSE_ARRAY) end++;
    return end;
  }
  let depth = 0;
  let index = at;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte === QUOTE) {
      index = stringEnd(bytes, index);
      continue;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return index + 1;
    }
    index++;
  }
  throw new Error('unterminated value');
}

/** The member name of the string at [start, end), quotes included. */
function nameOf(bytes: Buffer, start: number, end: number): string {
  const raw = bytes.toString('utf8', start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
}

/** The [start, end) of member `name`'s value in the object at [start, end), or undefined. */
function memberIn(bytes: Buffer, start: number, name: string): [number, number] | undefined {
  let at = skipSpace(bytes, start);
  if (bytes[at] !== OPEN_OBJECT) return undefined;
  let found: [number, number] | undefined;
  at = skipSpace(bytes, at + 1);
  while (bytes[at] === QUOTE) {
    const keyEnd = stringEnd(bytes, at);
    const key = nameOf(bytes, at, keyEnd);
    at = skipSpace(bytes, keyEnd);
    if (bytes[at] !== COLON) throw new Error('no colon after a member name');
    const valueStart = skipSpace(bytes, at + 1);
    const end = valueEnd(bytes, valueStart);
    if (key === name) found = [valueStart, end];
    at = skipSpace(bytes, end);
    if (bytes[at] === COMMA) at = skipSpace(bytes, at + 1);
  }
  return found;
}

/**
 * The bytes of the value at `path` (member names from the top object down) inside the JSON text
 * `bytes`, as a view of them; undefined when a member on the way is missing or no object.
 */
export function memberBytes(bytes: Buffer, path: readonly string[]): Buffer | undefined {
  let span: [number, number] = [0, bytes.length];
  for (const name of path) {
    const inner = memberIn(bytes, span[0], name);
    if (inner === undefined) return undefined;
    span = inner;
  }
  return bytes.subarray(span[0], span[1]);
}
