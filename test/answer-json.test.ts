// A large flat answer is written into bytes without JSON.stringify (kernel/answer-json.ts); every
// answer must still be exactly JSON.stringify's text. The reference for each case is
// Buffer.from(JSON.stringify(value)), an independent serializer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerJson, answerJsonBytes, flatJsonBytes, LONG_ANSWER_CHARS } from '../kernel/answer-json.js';

const long = 'QUJD'.repeat(LONG_ANSWER_CHARS / 4);
const reference = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('a large flat answer, written without JSON.stringify', () => {
  it('writes a flat object of long plain strings, numbers, booleans and nulls byte for byte as JSON.stringify does', () => {
    const value = { base64: long, length: 65536, ratio: -0.5, zero: -0, big: 1e21, urlSafe: false, ok: true, note: null, del: '\u007f', empty: '' };
    const bytes = flatJsonBytes(value);
    assert.ok(bytes, 'the flat writer takes this answer');
    assert.equal(bytes.toString(), JSON.stringify(value));
    assert.ok(bytes.equals(reference(value)));
    // Worked by hand: the text starts {"base64":"QUJ and ends with the last four fields as written.
    assert.equal(bytes.subarray(0, 14).toString(), '{"base64":"QUJ');
    const tail = '"ok":true,"note":null,"del":"\u007f","empty":""}';
    assert.equal(bytes.subarray(-tail.length).toString(), tail);
  });

  it('leaves a string needing escapes to JSON.stringify: quote, backslash, control character, non-ASCII', () => {
    for (const odd of ['"', '\\', '\n', '\u0000', '\u001f', 'é', '\ud800', '😀']) {
      const value = { text: `${long}${odd}` };
      assert.equal(flatJsonBytes(value), undefined, `the flat writer refuses ${JSON.stringify(odd)}`);
      assert.ok(answerJsonBytes(value).equals(reference(value)), `the answer escapes ${JSON.stringify(odd)}`);
    }
  });

  it('leaves a key needing escapes to JSON.stringify', () => {
    const value = { 'a"b': long };
    assert.equal(flatJsonBytes(value), undefined);
    assert.ok(answerJsonBytes(value).equals(reference(value)));
  });

  it('leaves nested values, undefined, non-finite numbers and toJSON to JSON.stringify', () => {
    const nested = { text: long, inner: { a: 1 } };
    const list = { text: long, items: [1, 2] };
    const missing = { text: long, gone: undefined };
    const infinite = { text: long, n: Number.POSITIVE_INFINITY };
    const withToJson = { text: long, toJSON: () => ({ replaced: true }) };
    for (const value of [nested, list, missing, infinite, withToJson]) {
      assert.equal(flatJsonBytes(value), undefined);
      assert.ok(answerJsonBytes(value).equals(reference(value)), JSON.stringify(value).slice(0, 40));
    }
  });

  it('leaves class instances, arrays and answers shorter than LONG_ANSWER_CHARS to JSON.stringify', () => {
    class Answer {
      constructor(readonly text: string) {}
    }
    assert.equal(flatJsonBytes(new Answer(long)), undefined);
    assert.equal(flatJsonBytes([long]), undefined);
    const short = { text: long.slice(1) };
    assert.equal(flatJsonBytes(short), undefined);
    assert.equal(answerJson(short), JSON.stringify(short), 'a short answer stays a string');
    assert.ok(Buffer.isBuffer(answerJson({ text: long })), 'a long flat answer is bytes');
  });
});
