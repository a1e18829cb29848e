// The API's limits at /mcp as an MCP client meets them: every request counted against the rate
// limit, and past it a tools/call answered as a tool error the model reads (HTTP 200, the seconds to
// wait in it) rather than an HTTP 429 its client throws; the answer cap as a tool error too. Each
// test starts a service of its own (its own limit): they live apart from mcp-http.test.ts, whose
// service shares the process's worker pool with them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { connectMcpClient as connect } from './support/mcp-client.js';
import { inProcessStarter, type InProcessService } from './support/service.js';

const headers = { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION };
const call = (id: number | string, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const textJson = (result: unknown): { error: { code: string; message: string; retryAfterSeconds?: number; details?: unknown } } =>
  JSON.parse(((result as CallToolResult).content[0] as { text: string }).text);

const inProcess = inProcessStarter();
const start = (config: Record<string, unknown>, builtins = false): Promise<InProcessService> => inProcess(config, builtins ? { builtinDir: builtinPluginDir } : {});

describe('the rate limit at /mcp', () => {
  it('counts every request, and past the limit answers a tools/call with a tool error rate_limited carrying the seconds to wait', async () => {
    const limited = await start({ rateLimit: { anonymous: { max: 3 } } });
    const list = await send(limited.url, '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers });
    assert.equal(list.status, 200);
    for (const id of [2, 3]) assert.equal((await send(limited.url, '/mcp', { body: call(id, 'greeting_hello', { name: 'Ada' }), headers })).status, 200);
    const over = await send(limited.url, '/mcp', { body: call('fourth', 'greeting_hello', { name: 'Ada' }), headers });
    // A JSON-RPC result the model reads, not an HTTP error its client throws; the headers say the same.
    assert.equal(over.status, 200);
    const result = (over.json as { id: string; result: CallToolResult }).result;
    assert.equal((over.json as { id: string }).id, 'fourth');
    assert.equal(result.isError, true);
    const { error } = textJson(result);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryAfterSeconds, Number(over.headers['ratelimit-reset']));
    assert.ok(error.retryAfterSeconds! >= 1 && error.retryAfterSeconds! <= 60, String(error.retryAfterSeconds));
    assert.equal(error.message, `Rate limit exceeded; retry in ${error.retryAfterSeconds} s`);
    assert.equal(over.headers['ratelimit-remaining'], '0');
    // Counted as before: the same client's next POST to the API is refused too, and so is any other MCP method.
    assert.equal((await send(limited.url, '/v1/greeting/hello', { body: { name: 'Ada' } })).status, 429);
    const listed = await send(limited.url, '/mcp', { body: { jsonrpc: '2.0', id: 5, method: 'tools/list' }, headers });
    assert.equal(listed.status, 429);
    assert.equal((listed.json as { error: { code: string } }).error.code, 'rate_limited');
    assert.ok(Number(listed.headers['retry-after']) >= 1);
    // A message too large to read at once gets the 429 unread, as before.
    const large = await send(limited.url, '/mcp', { body: call(6, 'greeting_hello', { name: 'A'.repeat(70_000) }), headers });
    assert.equal(large.status, 429);
  });

  it('counts N + 4 requests for the SDK client that connects, lists and makes N calls; the next call resolves with the tool error', async () => {
    // initialize, notifications/initialized, the GET for a stream (405), tools/list, then N = 2 calls.
    const limited = await start({ rateLimit: { anonymous: { max: 2 + 4 } } });
    const sdk = await connect(limited.url);
    try {
      await sdk.listTools();
      for (const name of ['Ada', 'Grace']) assert.deepEqual((await sdk.callTool({ name: 'greeting_hello', arguments: { name } })).isError, undefined);
      const refused = await sdk.callTool({ name: 'greeting_hello', arguments: { name: 'Alan' } });
      assert.equal(refused.isError, true);
      assert.equal(textJson(refused).error.code, 'rate_limited');
      assert.ok(textJson(refused).error.retryAfterSeconds! >= 1);
      // Connecting over the limit is refused as before: initialize is no tool call.
      await assert.rejects(connect(limited.url), (error: { code?: number }) => error.code === 429);
    } finally {
      await sdk.close();
    }
  });

  it("answers a recipe whose steps the limit cannot pay with the same tool error, the recipe's charge refused", async () => {
    const limited = await start({ rateLimit: { anonymous: { max: 2 } } }, true);
    const steps = [{ operation: 'base64/encode' }, { operation: 'base64/decode' }, { operation: 'base64/encode' }];
    const answer = await send(limited.url, '/mcp', { body: call(1, 'recipes_run', { input: 'hi', steps }), headers });
    assert.equal(answer.status, 200);
    const { error } = textJson((answer.json as { result: CallToolResult }).result);
    assert.equal(error.code, 'rate_limited');
    assert.ok(error.retryAfterSeconds! >= 1);
  });
});

describe('the answer cap at /mcp', () => {
  it('refuses an answer over server.maxAnswerBytes as a tool error, and needs no Accept header', async () => {
    const capped = await start({ server: { maxAnswerBytes: 1024 } });
    const raw = await send(capped.url, '/mcp', { body: call(1, 'kernel-probe_echo', { text: 'a'.repeat(2000) }) });
    assert.equal(raw.status, 200);
    const result = (raw.json as { result: CallToolResult }).result;
    assert.equal(result.isError, true);
    assert.equal(textJson(result).error.code, 'output_too_large');
  });
});
