import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerJson, LONG_STRING_CHARS } from './answer-json.js';

const long = 'QUJD'.repeat(LONG_STRING_CHARS / 4);

/** The answer's bytes, however answerJson gave them. */
const bytesOf = (written: string | Buffer): Buffer => (typeof written === 'string' ? Buffer.from(written) : written);

describe('answerJson', () => {
  it('copies a long ASCII string with nothing to escape into bytes of its own, exactly as JSON.stringify writes it', () => {
    const values: unknown[] = [
      { base64: long },
      long,
      [long, undefined, () => 1, 3, long],
      { a: 1, b: long, skipped: undefined, fn: () => 1, nested: { c: long, d: null, e: [true, 'é'] }, last: 'ü' },
      Object.assign(Object.create(null) as object, { s: long }),
      { '"odd\nkey': long, date: new Date(0), nan: NaN },
      // DEL is printable to JSON: JSON.stringify writes it as it is.
      { withDel: `${long}\u007f${long}` },
    ];
    for (const value of values) {
      const written = answerJson(value);
      assert.ok(Buffer.isBuffer(written), 'bytes, not text');
      assert.equal(written.byteOffset, 0);
      assert.equal(written.byteLength, written.buffer.byteLength, 'a whole buffer, which the pool moves');
      assert.equal(written.toString('utf8'), JSON.stringify(value));
    }
  });

  it('leaves to JSON.stringify what it must escape or encode: quotes, backslashes, control characters, non-ASCII', () => {
    // Ł (U+0141) ends in 0x41, an "A", were its low byte written; é at the start fills the room of the whole string exactly.
    for (const odd of ['"', '\\', '\n', '\r', '\t', '\u0000', '\u0001', '\u001f', 'é', 'Ł', '€', '😀', '\ud800']) {
      // At the start, the end and in the middle of the long string; in the middle also off a word boundary.
      // Near the end, a wider character pushes the last ones out of the room: its bytes are among the last, checked one at a time.
      const nearEnd = [1, 2, 3, 4].map((after) => long + odd + 'x'.repeat(after));
      for (const text of [odd + long, long + odd, long.slice(0, 2001) + odd + long, ...nearEnd]) {
        const written = answerJson({ text });
        assert.equal(typeof written, 'string', `${JSON.stringify(odd)} is escaped or encoded by JSON.stringify`);
        assert.equal(written, JSON.stringify({ text }));
      }
    }
  });

  it('checks each byte of the copied string for a control character: one in any position is escaped', () => {
    // Past the quick scans (no \n, \r, \t): the word-at-a-time check alone finds these.
    for (let at = 0; at < 9; at++) {
      const text = `${long.slice(0, at)}\u0007${long.slice(at)}`;
      assert.equal(bytesOf(answerJson({ text })).toString('utf8'), JSON.stringify({ text }));
    }
  });

  it('writes an answer whose long strings all need escaping with one JSON.stringify, not parts first', () => {
    const stringify = JSON.stringify;
    let calls = 0;
    JSON.stringify = ((...args: Parameters<typeof stringify>) => {
      calls++;
      return stringify(...args);
    }) as typeof stringify;
    try {
      const value = { text: `${long}\n${long}`, count: 2 };
      assert.equal(answerJson(value), stringify(value));
    } finally {
      JSON.stringify = stringify;
    }
    assert.equal(calls, 1);
  });

  it('writes short strings, large objects and long arrays with JSON.stringify, as text', () => {
    const values: unknown[] = [{ text: long.slice(1) }, { many: Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`k${index}`, long])) }, Array.from({ length: 65 }, () => long), 'short', 42, null];
    for (const value of values) assert.equal(answerJson(value), JSON.stringify(value));
  });
});
