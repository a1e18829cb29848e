// One JSON-RPC message read from its bytes (mcp/message.ts), as both transports read it: the same
// verdicts as the MCP SDK's own schema on valid and broken messages, without loading it; and a large
// call's arguments handed on as the very bytes the client sent (mcp/json-span.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { memberBytes } from '../mcp/json-span.js';
import { readMessage, readOnWorker } from '../mcp/message.js';

const bytes = (text: string): Buffer => Buffer.from(text);

describe('reading one message', () => {
  const messages: unknown[] = [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: { cursor: 'x' } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, _meta: { progressToken: 5 } } },
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 'p', other: 1 } } },
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: { a: 1 } } } },
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 5 } } } },
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: 'no' } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
    { jsonrpc: '2.0', method: 'notifications/x', params: [1] },
    { jsonrpc: '2.0', id: 9, result: {} },
    { jsonrpc: '2.0', id: 9, result: { _meta: { progressToken: 1.5 } } },
    { jsonrpc: '2.0', id: 9, result: 5 },
    { jsonrpc: '2.0', result: {} },
    { jsonrpc: '2.0', id: 9, error: { code: -1, message: 'x' } },
    { jsonrpc: '2.0', error: { code: -1, message: 'x', data: [1] } },
    { jsonrpc: '2.0', id: 9, error: { code: 1.5, message: 'x' } },
    { jsonrpc: '2.0', id: 9, error: { code: 1, message: 'x', extra: 1 } },
    { jsonrpc: '2.0', id: 9, result: {}, error: { code: 1, message: 'x' } },
    { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    { jsonrpc: '2.0', id: 2 ** 53, method: 'ping' },
    { jsonrpc: '2.0', id: true, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 7 },
    { jsonrpc: '2.0', id: 1, method: 'x', params: 'text' },
    { jsonrpc: '2.0', id: 1, method: 'x', params: null },
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1 },
    { jsonrpc: '2.0', id: 1, method: 'x', result: {} },
  ];

  it("sorts valid and broken messages as the SDK's JSONRPCMessageSchema does", () => {
    for (const message of messages) {
      const read = readMessage(bytes(JSON.stringify(message)), 'request');
      const valid = JSONRPCMessageSchema.safeParse(message).success;
      assert.equal(read.kind !== 'refused', valid, JSON.stringify(message));
      if (!valid) assert.equal(read.kind === 'refused' && read.code, -32600, JSON.stringify(message));
    }
  });

  it('answers what is no message with the code and words of its transport, under the id when it has a usable one', () => {
    assert.deepEqual(readMessage(bytes('{"jsonrpc":'), 'line'), { kind: 'refused', id: null, code: -32700, message: 'Parse error: The request body is not valid JSON: unexpected end of input at line 1, column 12' });
    assert.deepEqual(readMessage(bytes(' [{}]'), 'line'), { kind: 'refused', id: null, code: -32600, message: 'Batches are not supported: send one JSON-RPC message per line' });
    assert.deepEqual(readMessage(bytes('[]'), 'request'), { kind: 'refused', id: null, code: -32600, message: 'Batches are not supported: send one JSON-RPC message per request' });
    assert.deepEqual(readMessage(bytes('{"jsonrpc":"2.0","id":7,"method":7}'), 'line'), { kind: 'refused', id: 7, code: -32600, message: 'Invalid request: not a JSON-RPC 2.0 request, notification or response' });
    assert.equal(readMessage(Buffer.from([0x7b, 0xff, 0x7d]), 'request').kind, 'refused');
  });

  it("reads a tools/call's name and arguments, or the -32602 of params of the wrong shape", () => {
    const call = (params: unknown) => readMessage(bytes(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params })), 'request');
    assert.deepEqual(call({ name: 'base64_encode', arguments: { text: 'a' } }), { kind: 'call', id: 3, name: 'base64_encode', args: { value: { text: 'a' } } });
    assert.deepEqual(call({ name: 'base64_encode' }), { kind: 'call', id: 3, name: 'base64_encode', args: { value: {} } });
    assert.deepEqual(call({ name: 5 }), { kind: 'refused', id: 3, code: -32602, message: 'Invalid params: name must be a string naming a tool (tools/list names them all), not a number' });
    assert.deepEqual(call({ name: 'x', arguments: null }), { kind: 'refused', id: 3, code: -32602, message: "Invalid params: arguments must be an object of the tool's named arguments, not null" });
    assert.deepEqual(readMessage(bytes('{"jsonrpc":"2.0","id":3,"method":"tools/call"}'), 'request'), {
      kind: 'refused',
      id: 3,
      code: -32602,
      message: "Invalid params: tools/call needs params, an object with the tool's name and arguments",
    });
  });
});

describe("a large call's arguments", () => {
  it('leave a worker as the bytes the client sent: spacing, escapes and order as they were', () => {
    const args = '{ "text" : "a\\"b\\\\",\n  "n": 1.50, "list": [ {"x":"}"} ] }';
    const text = `{"id":"w","params":{"\\u0061rguments":${args},"name":"base64_encode"},"method":"tools/call","jsonrpc":"2.0"}`;
    const source = bytes(text);
    const read = readOnWorker(new Uint8Array(source.buffer.slice(source.byteOffset, source.byteOffset + source.length)), 'request');
    assert.equal(read.kind, 'call');
    const sent = read.kind === 'call' && 'bytes' in read.args ? read.args.bytes : new Uint8Array();
    assert.equal(Buffer.from(sent).toString('utf8'), args);
    // A buffer of its own, so the pool moves it rather than copying it.
    assert.equal(sent.byteLength, sent.buffer.byteLength);
  });

  it('are found where JSON.parse takes them: the last of a repeated member', () => {
    const text = bytes('{"params":{"arguments":{"a":1},"arguments":{"b":2}},"params2":{}}');
    assert.equal(memberBytes(text, ['params', 'arguments'])?.toString(), '{"b":2}');
    assert.equal(memberBytes(text, ['params', 'missing']), undefined);
    assert.equal(memberBytes(bytes('{"params":[1]}'), ['params', 'arguments']), undefined);
    assert.equal(memberBytes(bytes('{"a":"x\\\\","b":true}'), ['b'])?.toString(), 'true');
  });
});
