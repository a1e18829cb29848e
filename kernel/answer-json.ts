/**
 * An operation's answer as JSON, the same bytes JSON.stringify gives. A large answer is nearly always
 * a flat object of long strings that need no escaping (base64, hex, a converted document in ASCII):
 * such an answer is written straight into one buffer, its strings checked by one regular expression
 * instead of JSON.stringify's escaping pass followed by a UTF-8 encoding pass. For a 136 KB base64
 * answer that measured 255 µs against 690 (docs/decisions.md, "A large flat answer is written
 * without JSON.stringify"). Everything else goes through JSON.stringify.
 */

/**
 * Answers at least this long (UTF-16 code units) are sent as bytes. Short ones stay strings: for
 * them Buffer.from's allocation costs more than the counting it saves.
 */
export const LONG_ANSWER_CHARS = 16 * 1024;

/** ASCII from the space up, but `"` and `\`: characters JSON writes as they are, one byte each in UTF-8. */
const plain = /^[\x20\x21\x23-\x5b\x5d-\x7f]*$/;

/** The JSON text of a value the flat writer takes (a plain string, a finite number, a boolean, null), or undefined. */
function scalarJson(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return plain.test(value) ? value : undefined;
    case 'number':
      // String(-0) is "0", as in JSON.stringify.
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return undefined;
  }
}

/**
 * The UTF-8 JSON of `value` when it is a plain object of plain strings, finite numbers, booleans and
 * nulls whose strings reach LONG_ANSWER_CHARS; undefined for any other value.
 */
export function flatJsonBytes(value: unknown): Buffer | undefined {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const entries = Object.entries(value);
  // Cheap before costly: the lengths decide whether the strings are worth checking at all.
  let chars = 0;
  for (const [, field] of entries) if (typeof field === 'string') chars += field.length;
  if (chars < LONG_ANSWER_CHARS) return undefined;
  // The JSON in pieces, the long strings among them never joined to the rest (joining copies them).
  const pieces = ['{'];
  for (const [index, [key, field]] of entries.entries()) {
    const text = scalarJson(field);
    if (text === undefined || !plain.test(key)) return undefined;
    const quote = typeof field === 'string' ? '"' : '';
    pieces.push(`${index > 0 ? ',' : ''}"${key}":${quote}`, text, quote);
  }
  pieces.push('}');
  let size = 0;
  for (const piece of pieces) size += piece.length;
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'latin1');
  // Never send a byte of allocUnsafe's memory that was not written.
  return at === size ? bytes : undefined;
}

/** The answer's JSON: its UTF-8 bytes when it is a large flat answer (flatJsonBytes), its string otherwise. */
export function answerJson(value: unknown): string | Buffer {
  return flatJsonBytes(value) ?? JSON.stringify(value);
}

/** The answer's JSON as UTF-8 bytes, as the worker pool hands answers back. */
export function answerJsonBytes(value: unknown): Buffer {
  return flatJsonBytes(value) ?? Buffer.from(JSON.stringify(value));
}
