// The MCP server both transports share (mcp/dispatch.ts), in process with a stand-in executor and
// pool: what it hands the pool for a large message, how it answers when the pool gives no answer,
// and the protocol answers that no operation runs for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerBusyError, WorkerJobError, type RunInWorker } from '@toolshed/plugin-sdk';
import { createLogger, type Executor, type OperationInfo, type RunRequest } from '../kernel/host/index.js';
import { createMcpServer, type McpScope } from '../mcp/dispatch.js';
import { readOnWorker } from '../mcp/message.js';
import { pictureResponseOnWorker, responseOnWorker } from '../mcp/results.js';
import { buildToolCatalog } from '../mcp/tools.js';

const echo = {
  id: 'demo.echo',
  name: 'demo/echo',
  group: 'demo',
  operation: 'echo',
  path: '/v1/demo/echo',
  summary: 'Echo',
  requestSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  responseSchema: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
  examples: [],
  errors: {},
  upstream: false,
  definition: { summary: 'Echo' },
} as unknown as OperationInfo;

interface PoolCall {
  readonly module: string;
  readonly exportName: string;
  readonly bulk: boolean | undefined;
  readonly moved: number;
}

/** A server over one echo operation whose runs `run` answers, and a pool that `pool` stands in for. */
function server(run: (request: RunRequest) => Promise<unknown>, pool: (call: PoolCall, args: readonly unknown[]) => Promise<unknown>, maxAnswerBytes = 10_000) {
  const executor = { operations: () => [echo], find: () => echo, nearest: () => undefined, run } as unknown as Executor;
  const runInWorker: RunInWorker = async <Result>(module: URL, exportName: string, args: readonly unknown[], options: { bulk?: boolean; transfer?: readonly ArrayBuffer[] }) =>
    (await pool({ module: module.pathname.split('/').pop()!, exportName, bulk: options.bulk, moved: options.transfer?.[0]?.byteLength ?? 0 }, args)) as Result;
  const handle = createMcpServer({ executor, catalog: buildToolCatalog([echo]), version: '1.0.0', runInWorker, offloadBytes: 200, requestBudgetMs: 500, maxAnswerBytes, unit: 'request', logger: createLogger('silent') });
  const reads: string[] = [];
  const scope: McpScope = { onRead: () => reads.push('read') };
  const answer = (message: unknown) => handle(Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)), scope);
  return Object.assign(answer, { reads });
}

const answerOf = (text: string) => ({ body: text, bytes: Buffer.byteLength(text) });
const notOnPool = (): Promise<never> => Promise.reject(new Error('nothing small goes to the pool'));
const call = (text: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'demo_echo', arguments: { text } } });

describe('a message over workers.offloadBytes', () => {
  it('is read on the pool, moved there whole, and its arguments reach the executor as the bytes sent', async () => {
    const calls: PoolCall[] = [];
    const bodies: unknown[] = [];
    const handle = server(
      async (request) => {
        bodies.push(request.bytes);
        return answerOf('{"text":"ok"}');
      },
      async (poolCall, args) => {
        calls.push(poolCall);
        return readOnWorker(args[0] as Uint8Array, args[1] as 'request');
      },
    );
    const message = call('x'.repeat(400));
    const reply = await handle(message);
    assert.deepEqual(calls, [{ module: 'message.js', exportName: 'readOnWorker', bulk: true, moved: Buffer.byteLength(JSON.stringify(message)) }]);
    // Its bytes were given up once, so the door gives back the reading budget they held.
    assert.deepEqual(handle.reads, ['read']);
    assert.equal(Buffer.from(bodies[0] as Uint8Array).toString(), JSON.stringify(message.params.arguments));
    assert.equal(reply.body, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"text\\":\\"ok\\"}"}],"structuredContent":{"text":"ok"}}}');
  });

  it('is refused as the API refuses a request past its budget or a busy pool, when the pool gives no answer', async () => {
    const refuse = (error: Error) => server(() => Promise.reject(new Error('not run')), () => Promise.reject(error));
    await assert.rejects(refuse(new WorkerJobError('timeout'))(call('x'.repeat(400))), { status: 422, code: 'input_too_complex', message: 'The message needs more than 500 ms of work' });
    await assert.rejects(refuse(new WorkerJobError('timeout', undefined, true))(call('x'.repeat(400))), { status: 503, code: 'server_busy' });
  });
});

describe('a tools/call', () => {
  it('tells the model how long to wait when its refusal says so', async () => {
    const handle = server(() => Promise.reject(new ServerBusyError()), notOnPool);
    const reply = JSON.parse((await handle(call('a'))).body as string) as { result: { isError: boolean; content: { text: string }[] } };
    assert.equal(reply.result.isError, true);
    assert.deepEqual(JSON.parse(reply.result.content[0]!.text), { error: { code: 'server_busy', message: 'The service is busy; retry shortly', retryAfterSeconds: 1 } });
  });
});

describe('a tools/call result, which carries its answer twice (as text, escaped again, and as structuredContent)', () => {
  const toolErrorOf = (body: unknown) => JSON.parse((JSON.parse(body as string) as { result: { content: { text: string }[] } }).result.content[0]!.text) as unknown;
  const tooLarge = (bytes: number, limit: number) => ({ error: { code: 'output_too_large', message: `The answer would be ${bytes} bytes; at most ${limit} are sent` } });

  it('is held to server.maxAnswerBytes as a whole when built here: 124 bytes for {"text":"ok"}', async () => {
    const ok = () => Promise.resolve(answerOf('{"text":"ok"}'));
    assert.equal((await server(ok, notOnPool, 124)(call('ok'))).body, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"text\\":\\"ok\\"}"}],"structuredContent":{"text":"ok"}}}');
    assert.deepEqual(toolErrorOf((await server(ok, notOnPool, 123)(call('ok'))).body), tooLarge(124, 123));
  });

  it('is held to it on the pool too: an answer of 311 bytes of escaped backslashes makes a result of 1,020', async () => {
    // Over offloadBytes (200): built on the pool, here run as a worker would run it.
    const answer = `{"text":"${'\\\\'.repeat(150)}"}`;
    assert.equal(Buffer.byteLength(answer), 311);
    const onPool = (_call: PoolCall, args: readonly unknown[]) => Promise.resolve(responseOnWorker(...(args as [number, Uint8Array, number])));
    const built = await server(() => Promise.resolve(answerOf(answer)), onPool, 1020)(call('x'));
    assert.equal(Buffer.byteLength(built.body!), 1020);
    assert.deepEqual(toolErrorOf((await server(() => Promise.resolve(answerOf(answer)), onPool, 1019)(call('x'))).body), tooLarge(1020, 1019));
  });
});

describe('a tools/call result with a picture', () => {
  // 300 bytes of Base64, passed on as an image block: the result holds them three times.
  const answer = Buffer.from(JSON.stringify({ png: 'A'.repeat(300) }));
  const fields = [{ field: 'png', form: 'base64' as const, mimeType: 'image/png' }];
  const imagesOf = (response: Uint8Array) => (JSON.parse(Buffer.from(response).toString()) as { result: { content: { type: string }[] } }).result.content.filter((item) => item.type === 'image').length;

  it('leaves the picture out, saying why, when with it the result would pass server.maxAnswerBytes', async () => {
    assert.equal(imagesOf((await pictureResponseOnWorker(1, answer, fields, 10_000)).response), 1);
    const held = await pictureResponseOnWorker(1, answer, fields, 800);
    assert.deepEqual([imagesOf(held.response), held.leftOut], [0, 'png: the result with the pictures would pass server.maxAnswerBytes']);
    assert.ok(held.response.byteLength <= 800, `${held.response.byteLength} bytes`);
    await assert.rejects(pictureResponseOnWorker(1, answer, fields, 700), { status: 422, code: 'output_too_large' });
  });
});

describe('the protocol answers no operation runs for', () => {
  const handle = server(() => Promise.reject(new Error('not run')), notOnPool);
  const error = async (message: unknown) => JSON.parse((await handle(message)).body as string) as { id: unknown; error: { code: number; message: string } };

  it('negotiates the revision on initialize, and refuses initialize without its params or a cursor that is no string', async () => {
    const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const initialized = JSON.parse((await handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params })).body as string) as { result: Record<string, unknown> };
    assert.equal(initialized.result.protocolVersion, '2025-06-18');
    assert.deepEqual(initialized.result.capabilities, { tools: { listChanged: false } });
    assert.deepEqual(initialized.result.serverInfo, { name: 'toolshed', title: 'Toolshed utility tools', version: '1.0.0' });
    assert.match(initialized.result.instructions as string, /toolshed-describe gives one in full/);
    assert.deepEqual((await error({ jsonrpc: '2.0', id: 2, method: 'initialize' })).error.code, -32602);
    assert.deepEqual(await error({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } }), { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Invalid params: cursor must be a string' } });
    assert.deepEqual(await error({ jsonrpc: '2.0', id: 4, method: 'resources/list' }), { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found' } });
    assert.deepEqual(await handle({ jsonrpc: '2.0', method: 'notifications/initialized' }), { status: 202 });
    assert.equal(handle.reads.length, 5, 'each of the five messages read here gives its bytes up once');
  });
});

describe('toolshed-describe', () => {
  it("writes a tool's definition once, at its first call, however often it is asked", async () => {
    const catalog = buildToolCatalog([echo]);
    const definition = catalog.full.get('demo_echo')!;
    let written = 0;
    // JSON.stringify calls toJSON each time it writes the definition: a plugin's text, as long as its manifest makes it.
    const counted = { ...definition, toJSON: () => (written++, definition) };
    const full = new Map([...catalog.full, ['demo_echo', counted]]);
    const executor = { operations: () => [echo], find: () => echo, nearest: () => undefined, run: () => Promise.reject(new Error('not run')) } as unknown as Executor;
    const handle = createMcpServer({ executor, catalog: { ...catalog, full }, version: '1.0.0', runInWorker: notOnPool, offloadBytes: 200, requestBudgetMs: 500, maxAnswerBytes: 10_000, unit: 'request', logger: createLogger('silent') });
    const ask = async (id: number) => {
      const reply = await handle(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'toolshed-describe', arguments: { name: 'demo_echo' } } })), {});
      return JSON.parse(reply.body as string) as { id: number; result: { content: [{ text: string }]; structuredContent: unknown } };
    };
    const first = await ask(1);
    const second = await ask(2);
    assert.equal(second.id, 2);
    assert.deepEqual(second.result, first.result);
    assert.deepEqual(first.result.structuredContent, JSON.parse(JSON.stringify(definition)));
    assert.deepEqual(JSON.parse(first.result.content[0].text), first.result.structuredContent);
    assert.equal(written, 1);
  });
});
