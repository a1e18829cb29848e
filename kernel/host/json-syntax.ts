/**
 * Finds where a JSON text stops being valid, so a 400 can say "line 3, column 7" without quoting
 * the body. Engines word their own JSON.parse messages differently (and some quote the input), so
 * the position comes from this scanner, which runs only after JSON.parse has already failed. It is
 * iterative: deep nesting cannot overflow the stack.
 */

/** Where and why the text is not JSON. */
export interface JsonSyntaxProblem {
  readonly line: number;
  readonly column: number;
  readonly reason: 'unexpected end of input' | 'unexpected character';
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const hexDigits = /^[0-9a-fA-F]{4}$/;

/** The offset of the first syntax error in `text`, or -1 when `text` is valid JSON. */
export function syntaxErrorOffset(text: string): number {
  const length = text.length;
  const closers: string[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      i++;
    }
  };
  const readString = (): boolean => {
    i++; // the opening quote
    while (i < length) {
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return true;
      }
      if (code < 0x20) return false;
      if (code === 0x5c) {
        const escape = text[i + 1];
        if (escape !== undefined && '"\\/bfnrt'.includes(escape)) i += 2;
        else if (escape === 'u' && hexDigits.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const readKey = (): boolean => {
    skipSpace();
    if (text[i] !== '"' || !readString()) return false;
    skipSpace();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  for (;;) {
    // A value starts here.
    skipSpace();
    const char = text[i];
    if (char === '{' || char === '[') {
      i++;
      skipSpace();
      const closer = char === '{' ? '}' : ']';
      if (text[i] === closer) i++;
      else {
        closers.push(closer);
        if (closer === '}' && !readKey()) return i;
        continue;
      }
    } else if (char === '"') {
      if (!readString()) return i;
    } else if (char === 't' || char === 'f' || char === 'n') {
      const word = char === 't' ? 'true' : char === 'f' ? 'false' : 'null';
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return i;
    } else {
      numberPattern.lastIndex = i;
      const match = numberPattern.exec(text);
      if (match === null) return i;
      i += match[0].length;
    }
    // After a value: close containers, or a comma leads to the next value.
    for (;;) {
      skipSpace();
      const closer = closers[closers.length - 1];
      if (closer === undefined) return i >= length ? -1 : i;
      if (text[i] === closer) {
        closers.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return i;
      i++;
      if (closer === '}' && !readKey()) return i;
      break;
    }
  }
}

/** Where a text first passes one of a body's shape bounds, and which. */
export interface ShapeBreach {
  readonly offset: number;
  readonly bound: 'depth' | 'members';
}

/**
 * The first place `text` passes a bound, before JSON.parse: the `[` or `{` that opens level
 * `maxDepth + 1` (JSON.parse spends seconds and gigabytes on ten million `[`), or the `:` of member
 * `maxMembers + 1`, counted over all its objects (each object key new to V8 costs JSON.parse 1 to
 * 5 µs: 10 MiB of distinct keys held a thread 4 to 6 s). Strings are skipped with indexOf, so a long
 * string costs little; the text need not be valid JSON, and then a `:` outside strings counts too.
 */
export function shapeBreachAt(text: string, maxDepth: number, maxMembers: number): ShapeBreach | undefined {
  let depth = 0;
  let members = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      // Find the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        const close = text.indexOf('"', i + 1);
        if (close === -1) return undefined;
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
        i = close;
        if (slashes % 2 === 0) break;
      }
    } else if (code === 0x3a) {
      if (++members > maxMembers) return { offset: i, bound: 'members' };
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > maxDepth) return { offset: i, bound: 'depth' };
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return undefined;
}

/** Line and column (1-based) of `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line++;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** Line and column (1-based) of the first syntax error, or undefined when `text` is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const offset = syntaxErrorOffset(text);
  if (offset < 0) return undefined;
  return { ...positionOf(text, offset), reason: offset >= text.length ? 'unexpected end of input' : 'unexpected character' };
}
