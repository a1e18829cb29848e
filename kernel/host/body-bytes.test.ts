import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { byteLengthOf, joinedBytes, movableBytes } from './body-bytes.js';
import { parseJsonObject } from './json-body.js';

const own = (text: string): Buffer => {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
};

/** The 400 invalid_json message parseJsonObject throws for `body`. */
function refusal(body: Uint8Array | Uint8Array[]): string {
  try {
    parseJsonObject(body);
  } catch (error) {
    return (error as Error).message;
  }
  return 'parsed';
}

describe('a body as its chunks', () => {
  it('is sized and joined in order', () => {
    const chunks = [own('{"text":'), own('"abc"'), own('}')];
    assert.equal(byteLengthOf(chunks), 14);
    assert.equal(Buffer.from(joinedBytes(chunks)).toString(), '{"text":"abc"}');
    assert.equal(joinedBytes([chunks[0]!]), chunks[0], 'one chunk is itself');
  });

  it('moves each chunk that is the whole of its buffer, and copies a slice or a buffer already moving', () => {
    const whole = own('{"a":');
    const slab = Buffer.from('xx1}yy');
    const slice = slab.subarray(2, 4);
    const { body, transfer } = movableBytes([whole, slice, whole]);
    const moved = body as Uint8Array[];
    assert.equal(moved[0], whole, 'a whole buffer moves as it is');
    assert.notEqual(moved[1]!.buffer, slab.buffer, 'a slice of a shared buffer is copied');
    assert.notEqual(moved[2]!.buffer, whole.buffer, 'a buffer moves once: the second time it is copied');
    assert.deepEqual(transfer, moved.map((chunk) => chunk.buffer));
    assert.equal(new Set(transfer).size, 3);
    assert.equal(Buffer.from(joinedBytes(moved)).toString(), '{"a":1}{"a":');
  });

  it('parses from its chunks by the API rules: UTF-8 split across chunks, a BOM, invalid UTF-8, blank, nesting', () => {
    const text = Buffer.from('\ufeff{"text":"é😀 ok"}');
    // Every split point, so a multibyte character falls across two chunks.
    for (let at = 1; at < text.length; at++) assert.deepEqual(parseJsonObject([text.subarray(0, at), text.subarray(at)]), { text: 'é😀 ok' });
    assert.deepEqual(parseJsonObject([own('{"a":'), own('[1,'), own('2]}')]), { a: [1, 2] });
    assert.equal(refusal([own('{"a":"'), Buffer.from([0xc3]), own('"}')]), 'The request body is not valid UTF-8');
    assert.match(refusal([own(' '), own('\n')]), /^The request body is empty/);
    assert.match(refusal([own('{"a":'), own('[')]), /^The request body is not valid JSON: unexpected end of input at line 1, column 7$/);
    assert.match(refusal([own('{"a":'), own('['.repeat(70))]), /nests deeper than 64 levels at line 1, column 69$/);
  });
});
