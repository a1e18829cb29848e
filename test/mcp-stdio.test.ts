// `toolshed mcp`: the same tools over stdio, checked with the SDK's stdio client against the real
// command in a child process, configured through TOOLSHED_CONFIG as `serve` is.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadRegistry } from '../cli/load.js';
import { externalPlugins } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const toolshed = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
const folder = tempFolder('toolshed-mcp-');
const configFile = join(folder, 'config.yaml');
// A short work budget, so that kernel-probe's endless `spin` (offload: always) ends soon; trusted,
// so that its operations choose their own place as a built-in's do (a contained plugin's pool job
// has its deadline instead of the request budget).
writeFileSync(configFile, `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n  trusted: [kernel-probe]\n  disabled: [lorem-ipsum]\noperations:\n  groupDeadlineMs: { kernel-probe: 1000 }\n`);

let client: Client;
let transport: StdioClientTransport;
const stderr: Buffer[] = [];
const protocolErrors: Error[] = [];

before(async () => {
  // The client passes on only a few variables; c8's, so that the child's coverage is counted too.
  const coverage: Record<string, string> = process.env.NODE_V8_COVERAGE === undefined ? {} : { NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE };
  transport = new StdioClientTransport({ command: process.execPath, args: [toolshed, 'mcp'], env: { TOOLSHED_CONFIG: configFile, ...coverage }, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  client = new Client({ name: 'toolshed-test', version: '1.0.0' });
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
});
after(async () => {
  await client.close();
});

describe('toolshed mcp (stdio)', () => {
  it('lists one tool per operation the configuration mounts, the folder plugin included', async () => {
    const { registry } = await loadRegistry({ TOOLSHED_CONFIG: configFile });
    const { tools } = await client.listTools();
    // The plugins' operations and the composition root's recipe and identify tools, as over HTTP.
    const mounted = [...[...registry.operations.values()].map(({ operation }) => `${operation.group}_${operation.name}`), 'recipes_run', 'recipes_identify'];
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...mounted, 'toolshed-describe'].sort());
    // The budget for the default list (every built-in, describe, the tools to come): 48 KiB.
    assert.ok(Buffer.byteLength(JSON.stringify({ tools })) <= 48 * 1024);
    for (const tool of tools) assert.ok(!['allOf', 'anyOf', 'oneOf'].some((key) => key in tool.inputSchema), `${tool.name} is a plain object at the top`);
    assert.ok(tools.some((tool) => tool.name === 'greeting_hello'));
    assert.ok(!tools.some((tool) => tool.name.startsWith('lorem-ipsum_')));
  });

  it('answers a call, a 400 and a 422 as the HTTP service does', async () => {
    const encoded = (await client.callTool({ name: 'base64_encode', arguments: { text: 'foobar' } })) as CallToolResult;
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy".
    assert.deepEqual(encoded.structuredContent, { base64: 'Zm9vYmFy' });
    assert.deepEqual(encoded.content, [{ type: 'text', text: '{"base64":"Zm9vYmFy"}' }]);
    const invalid = (await client.callTool({ name: 'base64_encode', arguments: {} })) as CallToolResult;
    assert.equal(invalid.isError, true);
    assert.deepEqual(JSON.parse((invalid.content[0] as { text: string }).text), {
      error: { code: 'validation_failed', message: 'The request body does not match the schema', details: [{ path: '/text', message: 'is required' }] },
    });
    const refused = (await client.callTool({ name: 'greeting_hello', arguments: { name: ' ' } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.deepEqual(JSON.parse((refused.content[0] as { text: string }).text), { error: { code: 'nobody_to_greet', message: 'Give a name that is not blank' } });
  });

  // The probe's group alone gets a short deadline: a large argument of another group keeps the
  // default budget, so a busy machine cannot turn its answer into a refusal.
  it('runs work on the worker pool under its deadline: an endless handler ends as operation_timeout', async () => {
    const result = (await client.callTool({ name: 'kernel-probe_spin', arguments: {} })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { error: { code: 'operation_timeout', message: 'kernel-probe.spin did not finish within its deadline of 1000 ms' } });
  });

  it('runs a large argument (over workers.offloadBytes) to the right answer', async () => {
    const text = 'x'.repeat(1024 * 1024);
    const result = (await client.callTool({ name: 'base64_encode', arguments: { text } })) as CallToolResult;
    assert.equal((result.structuredContent as { base64: string }).base64, Buffer.from(text).toString('base64'));
  });

  it('names the nearest tool for an unknown one, and answers arguments of the wrong shape with -32602', async () => {
    await assert.rejects(client.callTool({ name: 'base64_encod', arguments: {} }), (error: McpError) => {
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.equal(error.message, 'MCP error -32602: Unknown tool: base64_encod; did you mean "base64_encode"? tools/list names them all');
      return true;
    });
    await assert.rejects(client.request({ method: 'tools/call', params: { name: 'base64_encode', arguments: [1] as unknown as Record<string, unknown> } }, CallToolResultSchema), (error: McpError) => {
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.equal(error.message, "MCP error -32602: Invalid params: arguments must be an object of the tool's named arguments, not an array");
      return true;
    });
  });

  it('answers an 11 MiB message with a JSON-RPC error under its id, and serves the next call', async () => {
    const text = 'a'.repeat(11 * 1024 * 1024);
    await assert.rejects(client.callTool({ name: 'base64_encode', arguments: { text } }), (error: McpError) => {
      assert.equal(error.code, ErrorCode.InvalidRequest);
      assert.equal(error.message, 'MCP error -32600: Invalid request: the message is over 10485760 bytes, the most one line may hold');
      return true;
    });
    const next = (await client.callTool({ name: 'base64_encode', arguments: { text: 'foobar' } })) as CallToolResult;
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy".
    assert.deepEqual(next.structuredContent, { base64: 'Zm9vYmFy' });
  });

  it('keeps stdout for the protocol: log lines go to stderr', () => {
    assert.deepEqual(protocolErrors, [], 'every stdout line was a JSON-RPC message');
    const lines = Buffer.concat(stderr).toString('utf8').trim().split('\n');
    assert.ok(lines.some((line) => JSON.parse(line).msg === 'serving MCP on stdio'));
  });
});

describe('toolshed mcp (stdio) on lines that are no JSON-RPC message', () => {
  it('answers each with a JSON-RPC error and goes on serving', async () => {
    const child = spawn(process.execPath, [toolshed, 'mcp'], { env: { TOOLSHED_CONFIG: configFile }, stdio: ['pipe', 'pipe', 'ignore'] });
    const answers: unknown[] = [];
    let pending = '';
    const enough = new Promise<void>((resolve) => {
      // A server that ends early ends the wait too (and the answers are then too few).
      child.once('exit', () => resolve());
      child.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop()!;
        answers.push(...lines.map((line) => JSON.parse(line) as unknown));
        if (answers.length >= 6) resolve();
      });
    });
    const oversized = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"base64_encode","arguments":{"text":"'), Buffer.alloc(11 * 1024 * 1024, 0x61), Buffer.from('"}}}\n')]);
    child.stdin.write('{"jsonrpc":\n');
    child.stdin.write('\n');
    child.stdin.write('[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n');
    child.stdin.write('{"jsonrpc":"2.0","id":7,"method":7}\n');
    child.stdin.write(oversized);
    child.stdin.write('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"base64_encode","arguments":{"text":"hi"}}}\r\n');
    child.stdin.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n');
    await enough;
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
    child.stdin.end();
    await exited;
    // Refusals are written as each line is read; the two served requests answer in either order.
    const served = answers.slice(4).sort((a, b) => (a as { id: number }).id - (b as { id: number }).id);
    assert.deepEqual([...answers.slice(0, 4), ...served], [
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: The request body is not valid JSON: unexpected end of input at line 1, column 12' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Batches are not supported: send one JSON-RPC message per line' } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request: not a JSON-RPC 2.0 request, notification or response' } },
      { jsonrpc: '2.0', id: 'big-1', error: { code: -32600, message: 'Invalid request: the message is over 10485760 bytes, the most one line may hold' } },
      { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: '{"base64":"aGk="}' }], structuredContent: { base64: 'aGk=' } } },
      { jsonrpc: '2.0', id: 9, result: {} },
    ]);
  });
});
