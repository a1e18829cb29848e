// The id of a stdio message too large to keep, read from its bytes as they go by.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdScanner } from '../mcp/id-scanner.js';

/** The id `scanner` finds in `text` fed in pieces of `size` bytes. */
function idIn(text: string, size = Infinity): string | number | null {
  const scanner = new IdScanner();
  const bytes = Buffer.from(text);
  for (let start = 0; start < bytes.length; start += Math.min(size, bytes.length)) scanner.feed(bytes.subarray(start, start + size));
  return scanner.id();
}

describe('IdScanner', () => {
  it('finds a top-level id wherever it stands, whatever the pieces', () => {
    const last = '{"method":"tools/call","params":{"name":"x","arguments":{"text":"aaa"}},"jsonrpc":"2.0","id":42}';
    const first = '{"jsonrpc":"2.0", "id" : "req-\\"7\\"" ,"method":"ping"}';
    for (const size of [1, 2, 3, 7, Infinity]) {
      assert.equal(idIn(last, size), 42, `pieces of ${size}`);
      assert.equal(idIn(first, size), 'req-"7"', `pieces of ${size}`);
    }
  });

  it('ignores an id inside params and text that only looks like one', () => {
    assert.equal(idIn('{"method":"tools/call","params":{"id":5,"arguments":{"text":"\\"id\\":6"}},"jsonrpc":"2.0"}'), null);
    assert.equal(idIn('{"method":"tools/call","params":{"id":5},"id":9}'), 9);
    assert.equal(idIn('{"text":"id","x":"id"}'), null);
  });

  it('gives null for an id that is no JSON-RPC request id, and for a message cut short', () => {
    assert.equal(idIn('{"id":1.5}'), null);
    assert.equal(idIn('{"id":{"a":1}}'), null);
    assert.equal(idIn('{"id":null}'), null);
    assert.equal(idIn('{"method":"ping","id":12'), null);
    assert.equal(idIn('[{"id":1}]'), null);
  });
});
