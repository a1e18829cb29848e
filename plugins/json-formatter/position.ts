/** Positions and characters as a person reads them, for error messages. */

/** A short, safe description of the character at `offset`: never more than one character quoted. */
export function describeAt(text: string, offset: number): string {
  if (offset >= text.length) return 'end of input';
  const code = text.codePointAt(offset) ?? 0;
  // Invisible and look-alike characters (controls, NBSP, BOM, lone surrogates) are named, not shown.
  if (/^[\p{C}\p{Z}]/u.test(String.fromCodePoint(code))) {
    return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return `'${String.fromCodePoint(code)}'`;
}

/**
 * 1-based line and column of `offset`. Lines end at LF, CRLF or a lone CR; columns count Unicode
 * code points (a surrogate pair is one column), as editors do.
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  const stop = Math.min(offset, text.length);
  for (let i = 0; i < stop; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line += 1;
      column = 1;
    } else if (code === 0x0d) {
      // the LF of a CRLF ends the line
    } else if (code >= 0xdc00 && code <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff) {
      // second half of a pair: the pair counted once
    } else {
      column += 1;
    }
  }
  return { line, column };
}
