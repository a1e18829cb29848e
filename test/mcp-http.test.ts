// Every operation as an MCP tool at POST /mcp, checked with the SDK's own client over Streamable HTTP
// (in process, test/support/mcp-client.ts): the catalog follows the registry, calls answer what the
// POST answers, and the API's keys, limits, cap and pool hold there too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, ErrorCode, LATEST_PROTOCOL_VERSION, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { digestApiKey } from '../kernel/http/api-keys.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { connectMcpClient as connect } from './support/mcp-client.js';
import { buildTestService, externalPlugins, type InProcessService } from './support/service.js';

const key = 'tsk_mcp-test-key-0123456789';
let service: InProcessService;
let client: Client;
let tools: Tool[];

/** The tool result's text as the JSON it holds. */
const textJson = (result: unknown): unknown => JSON.parse(((result as CallToolResult).content[0] as { text: string }).text);

before(async () => {
  service = await buildTestService(
    { plugins: { dirs: [externalPlugins], disabled: ['lorem-ipsum'] }, auth: { apiKeys: [{ name: 'agent', sha256: digestApiKey(key) }] }, metrics: { enabled: true } },
    { builtinDir: builtinPluginDir },
  );
  client = await connect(service.url, { Authorization: `Bearer ${key}` });
  tools = (await client.listTools()).tools;
});
after(async () => {
  await client.close();
  await service.stop();
});

describe('tools/list over Streamable HTTP', () => {
  it('negotiates the latest protocol revision of the SDK', () => {
    assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
    assert.equal(client.getServerVersion()?.name, 'toolshed');
  });

  it('lists one tool per mounted operation and describe: a folder plugin included, a disabled group absent', () => {
    // The plugins' operations, the composition root's recipes/run and recipes/identify, and describe.
    const mounted = [...[...service.registry.operations.values()].map(({ operation }) => `${operation.group}_${operation.name}`), 'recipes_run', 'recipes_identify'];
    assert.equal(tools.length, service.registry.operations.size + 3);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...mounted, 'toolshed-describe'].sort());
    const greeting = tools.find((tool) => tool.name === 'greeting_hello');
    assert.match(greeting?.description ?? '', /^Say hello\./, 'the folder plugin fixtures/external-plugins/greeting is a tool');
    assert.ok(!tools.some((tool) => tool.name.startsWith('lorem-ipsum_')), 'plugins.disabled leaves no tool');
    for (const tool of tools) assert.match(tool.name, /^[A-Za-z0-9_-]{1,64}$/, tool.name);
  });

  it('lists the summary and schema in short, and gives the full definition and hints through describe', async () => {
    const document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: unknown } } }; responses: { 200: { content: { 'application/json': { schema: unknown } } } } } }> };
    const encode = tools.find((tool) => tool.name === 'base64_encode')!;
    const post = document.paths['/v1/base64/encode']!.post;
    assert.equal(encode.description, 'Encode UTF-8 text as Base64.');
    assert.deepEqual(encode.annotations, { readOnlyHint: true, openWorldHint: false });
    assert.equal(encode.outputSchema, undefined, 'the listed entry has no output schema');
    const full = (await client.callTool({ name: 'toolshed-describe', arguments: { name: 'base64_encode' } })).structuredContent as Tool;
    assert.deepEqual(full.inputSchema, post.requestBody.content['application/json'].schema);
    assert.deepEqual(full.outputSchema, post.responses[200].content['application/json'].schema);
    // random-generator sets deterministic: false; dns-lookup sets upstream: true.
    const dice = (await client.callTool({ name: 'toolshed-describe', arguments: { name: 'random-generator_dice' } })).structuredContent as Tool;
    assert.equal(dice.annotations?.idempotentHint, false);
    const dns = tools.filter((tool) => tool.name.startsWith('dns-lookup_'));
    assert.ok(dns.length > 0 && dns.every((tool) => tool.annotations?.openWorldHint === true));
    const openWorld = tools.filter((tool) => tool.annotations?.openWorldHint).map((tool) => tool.name.split('_')[0]);
    assert.deepEqual([...new Set(openWorld)].sort(), ['currency-converter', 'dns-lookup']);
    for (const tool of tools) assert.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
  });
});

describe('tools/call over Streamable HTTP', () => {
  it('answers as POST does, in structuredContent and as text, valid against outputSchema', async () => {
    const result = (await client.callTool({ name: 'base64_encode', arguments: { text: 'foobar' } })) as CallToolResult;
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy".
    assert.deepEqual(result.structuredContent, { base64: 'Zm9vYmFy' });
    const post = await send(service.url, '/v1/base64/encode', { body: { text: 'foobar' } });
    assert.deepEqual(result.content, [{ type: 'text', text: post.text }]);
    assert.equal(result.isError, undefined);
    const full = (await client.callTool({ name: 'toolshed-describe', arguments: { name: 'base64_encode' } })).structuredContent as Tool;
    const validate = new Ajv2020({ strict: false }).compile(full.outputSchema!);
    assert.ok(validate(result.structuredContent));
  });

  it('turns a 400 into a tool error naming the offending fields, as the API body does', async () => {
    const result = await client.callTool({ name: 'base64_encode', arguments: { text: 5, extra: true } });
    const post = await send(service.url, '/v1/base64/encode', { body: { text: 5, extra: true } });
    assert.equal(post.status, 400);
    assert.equal(result.isError, true);
    assert.deepEqual(textJson(result), post.json);
    const paths = (textJson(result) as { error: { details: { path: string }[] } }).error.details.map((detail) => detail.path).sort();
    assert.deepEqual(paths, ['/extra', '/text']);
  });

  it('turns a 422 into a tool error with its code and message', async () => {
    const result = await client.callTool({ name: 'base64_decode', arguments: { base64: 'Zm9v!' } });
    const post = await send(service.url, '/v1/base64/decode', { body: { base64: 'Zm9v!' } });
    assert.equal(post.status, 422);
    assert.equal(result.isError, true);
    assert.deepEqual(textJson(result), post.json);
    assert.equal((textJson(result) as { error: { code: string } }).error.code, 'invalid_base64');
  });

  it('turns a 502 into a tool error, and a plugin bug into internal_error with a log line but no arguments', async () => {
    const upstream = await client.callTool({ name: 'kernel-probe_upstream', arguments: {} });
    assert.equal(upstream.isError, true);
    assert.deepEqual(textJson(upstream), { error: { code: 'upstream_error', message: 'the resolver answered 500' } });
    const marker = 'mcp-crash-marker-91c2';
    const bug = await client.callTool({ name: 'kernel-probe_crash', arguments: { text: marker } });
    assert.equal(bug.isError, true);
    assert.equal((textJson(bug) as { error: { code: string } }).error.code, 'internal_error');
    const failures = service.logs.join('').split('\n').filter((line) => line.includes('"msg":"request failed"'));
    assert.ok(failures.some((line) => line.includes('"operation":"kernel-probe.crash"') && line.includes('"type":"TypeError"')));
    assert.ok(!service.logs.join('').includes(marker), 'the arguments never reach the log');
  });

  it('reads, runs and answers a 5 MiB argument on the worker pool', async () => {
    const text = 'ab€'.repeat((5 * 1024 * 1024) / 5);
    const completed = service.host.poolStats().completed;
    const result = (await client.callTool({ name: 'base64_encode', arguments: { text } })) as CallToolResult;
    // Three jobs: the message read and checked (its arguments kept as the bytes sent), the operation, and the response written.
    assert.equal(service.host.poolStats().completed, completed + 3, 'three jobs ran on the pool');
    assert.equal((result.structuredContent as { base64: string }).base64, Buffer.from(text, 'utf8').toString('base64'));
  });

  it('logs one access line per call without request data, and counts it per operation', async () => {
    const marker = 'mcp-secret-marker-7f3a';
    await client.callTool({ name: 'base64_encode', arguments: { text: marker } });
    const lines = service.logs.join('').split('\n').filter((line) => line.includes('"msg":"request"'));
    assert.ok(lines.some((line) => line.includes('"operation":"base64.encode"') && line.includes('"key":"agent"')));
    assert.ok(!service.logs.join('').includes(marker), 'the arguments never reach the log');
    const metrics = await send(service.url, '/metrics', { method: 'GET' });
    assert.match(metrics.text, /toolshed_http_requests_total\{operation="base64.encode",status="200"\} \d+/);
  });
});

describe('protocol errors over Streamable HTTP', () => {
  /** What the SDK's client rejects a request with. */
  const rejection = async (request: Promise<unknown>): Promise<{ code: number; message: string }> => {
    const error = (await request.then(() => assert.fail('answered'), (caught: unknown) => caught)) as McpError;
    assert.ok(error instanceof McpError, String(error));
    return { code: error.code, message: error.message };
  };

  it('names the nearest tool for an unknown one, as the 404 of the API names the nearest path', async () => {
    assert.deepEqual(await rejection(client.callTool({ name: 'base64_encod', arguments: { text: 'a' } })), {
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: Unknown tool: base64_encod; did you mean "base64_encode"? tools/list names them all',
    });
    // A known group with an unknown operation: its first tool, as the API's 404 does.
    assert.match((await rejection(client.callTool({ name: 'base64_transmogrify', arguments: {} }))).message, /did you mean "base64_encode"\?/);
    assert.equal((await rejection(client.callTool({ name: 'no-such-thing_at-all', arguments: {} }))).message, 'MCP error -32602: Unknown tool: no-such-thing_at-all tools/list names them all');
    const post = await send(service.url, '/v1/base64/encod', { body: { text: 'a' } });
    assert.match((post.json as { error: { message: string } }).error.message, /did you mean POST \/v1\/base64\/encode\?/);
  });

  it('answers arguments of the wrong shape with -32602 and a message that says what is wrong', async () => {
    const params = (value: unknown) => client.request({ method: 'tools/call', params: value as { name: string } }, CallToolResultSchema);
    assert.deepEqual(await rejection(params({ name: 'base64_encode', arguments: ['a'] })), {
      code: ErrorCode.InvalidParams,
      message: "MCP error -32602: Invalid params: arguments must be an object of the tool's named arguments, not an array",
    });
    assert.deepEqual(await rejection(params({ name: 'base64_encode', arguments: 'text=a' })), {
      code: ErrorCode.InvalidParams,
      message: "MCP error -32602: Invalid params: arguments must be an object of the tool's named arguments, not a string",
    });
    assert.deepEqual(await rejection(params({ name: 5 })), {
      code: ErrorCode.InvalidParams,
      message: 'MCP error -32602: Invalid params: name must be a string naming a tool (tools/list names them all), not a number',
    });
    // Arguments that are an object but break the tool's schema are the tool's 400, a tool error (SEP-1303).
    const invalid = (await client.callTool({ name: 'base64_encode', arguments: { text: 5 } })) as CallToolResult;
    assert.equal(invalid.isError, true);
  });
});

describe('the API rules at /mcp', () => {
  const call = (id: number | string, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  const headers = { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION };

  it('keeps requests apart when every client counts its ids from 1', async () => {
    // Through the SDK's Server (tools/list) and the door's own tools/call path, all with id 1 at once.
    const texts = Array.from({ length: 12 }, (_, index) => `client ${index}`);
    const answers = await Promise.all([
      ...texts.map((text) => send(service.url, '/mcp', { body: call(1, 'base64_encode', { text }), headers })),
      ...texts.map(() => send(service.url, '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers })),
    ]);
    texts.forEach((text, index) => {
      assert.deepEqual(answers[index]!.json, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify({ base64: Buffer.from(text).toString('base64') }) }], structuredContent: { base64: Buffer.from(text).toString('base64') } } });
    });
    for (const listed of answers.slice(texts.length)) assert.equal((listed.json as { result: { tools: unknown[] } }).result.tools.length, tools.length);
  });

  it('refuses a wrong key with 401 before any JSON-RPC', async () => {
    const raw = await send(service.url, '/mcp', { body: call(1, 'base64_encode', { text: 'a' }), headers: { ...headers, Authorization: 'Bearer tsk_wrong' } });
    assert.equal(raw.status, 401);
    assert.deepEqual(raw.json, { error: { code: 'unauthorized', message: 'The API key is unknown or revoked' } });
    // The SDK's client reports the HTTP status as the error's code.
    await assert.rejects(connect(service.url, { Authorization: 'Bearer tsk_wrong' }), (error: { code?: number }) => error.code === 401);
  });

  it('offers the latest revision to a client asking for an unknown one, and has no stream or session (405)', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'old', version: '0' } } };
    const raw = await send(service.url, '/mcp', { body: initialize, headers: { Accept: headers.Accept } });
    assert.equal((raw.json as { result: { protocolVersion: string } }).result.protocolVersion, LATEST_PROTOCOL_VERSION);
    for (const method of ['GET', 'DELETE']) {
      const refused = await send(service.url, '/mcp', { method, headers });
      assert.equal(refused.status, 405, method);
      assert.equal(refused.headers.allow, 'POST');
    }
  });

  it('refuses an 11 MiB body with 413', async () => {
    const raw = await send(service.url, '/mcp', { body: call(1, 'base64_encode', { text: 'a'.repeat(11 * 1024 * 1024) }), headers });
    assert.equal(raw.status, 413);
    assert.equal((raw.json as { error: { code: string } }).error.code, 'payload_too_large');
  });

  it('answers malformed and hostile JSON-RPC without a 500, and keeps serving', async () => {
    const rpc = (status: number, code: number) => ({ status, code });
    const cases: [string, string | Buffer | object, { status: number; code?: number }][] = [
      ['not JSON', '{"jsonrpc":', rpc(400, -32700)],
      ['not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), rpc(400, -32700)],
      ['a batch', [call(1, 'base64_encode', { text: 'a' })], rpc(400, -32600)],
      ['an empty batch', [], rpc(400, -32600)],
      ['a string', '"tools/list"', rpc(400, -32700)],
      ['null', 'null', rpc(400, -32700)],
      ['no method', { jsonrpc: '2.0', id: 1 }, rpc(400, -32600)],
      ['JSON-RPC 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }, rpc(400, -32600)],
      ['an object id', { jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, rpc(400, -32600)],
      ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, rpc(400, -32600)],
      ['a number method', { jsonrpc: '2.0', id: 1, method: 7 }, rpc(400, -32600)],
      ['nesting past 64 levels', call(1, 'base64_encode', JSON.parse(`${'{"a":'.repeat(80)}1${'}'.repeat(80)}`)), rpc(400, -32700)],
      ['more than 100,000 object members', call(1, 'base64_encode', Object.fromEntries(Array.from({ length: 100_001 }, (_, index) => [`k${index}`, 0]))), rpc(400, -32700)],
      ['an unknown method', { jsonrpc: '2.0', id: 1, method: 'resources/list' }, rpc(200, -32601)],
      ['a name that is a number', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } }, rpc(200, -32602)],
      ['arguments that are an array', call(1, 'base64_encode', ['a']), rpc(200, -32602)],
      ['arguments that are null (no object, as over stdio)', call(1, 'base64_encode', null), rpc(200, -32602)],
      ['no params', { jsonrpc: '2.0', id: 1, method: 'tools/call' }, rpc(200, -32602)],
      ['an unknown tool', call(1, 'no_such_tool', {}), rpc(200, -32602)],
      ['params that are a string', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' }, rpc(400, -32600)],
      ['a notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, { status: 202 }],
      ['a response', { jsonrpc: '2.0', id: 9, result: {} }, { status: 202 }],
    ];
    for (const [name, body, expected] of cases) {
      const raw = await send(service.url, '/mcp', { body, headers: { ...headers, 'Content-Type': 'application/json' } });
      assert.equal(raw.status, expected.status, name);
      if (expected.code !== undefined) assert.equal((raw.json as { error: { code: number } }).error.code, expected.code, name);
    }
    const hugeId = 'i'.repeat(100_000);
    const echoed = await send(service.url, '/mcp', { body: { jsonrpc: '2.0', id: hugeId, method: 'ping' }, headers });
    assert.deepEqual(echoed.json, { jsonrpc: '2.0', id: hugeId, result: {} });
    assert.equal((await send(service.url, '/mcp', { body: '{}', headers: { ...headers, 'Content-Type': 'text/plain' } })).status, 415);
    const version = await send(service.url, '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { ...headers, 'MCP-Protocol-Version': '1999-01-01' } });
    assert.equal(version.status, 400);
    const after = (await client.callTool({ name: 'base64_encode', arguments: { text: 'f' } })) as CallToolResult;
    assert.deepEqual(after.structuredContent, { base64: 'Zg==' });
  });
});
