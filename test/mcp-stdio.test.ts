// `toolshed mcp`: the same tools over stdio, checked with the SDK's stdio client against the real
// command in a child process, configured through TOOLSHED_CONFIG as `serve` is.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadRegistry } from '../cli/load.js';
import { externalPlugins } from './support/service.js';

const toolshed = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'toolshed-mcp-'));
const configFile = join(folder, 'config.yaml');
// A short work budget, so that kernel-probe's endless `spin` (offload: always) ends soon; trusted,
// so that its operations choose their own place as a built-in's do (a contained plugin's pool job
// has its deadline instead of the request budget).
writeFileSync(configFile, `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n  trusted: [kernel-probe]\n  disabled: [lorem-ipsum]\nworkers:\n  requestBudgetMs: 1000\n`);

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
  rmSync(folder, { recursive: true, force: true });
});

describe('toolshed mcp (stdio)', () => {
  it('lists one tool per operation the configuration mounts, the folder plugin included', async () => {
    const { registry } = await loadRegistry({ TOOLSHED_CONFIG: configFile });
    const { tools } = await client.listTools();
    const mounted = [...registry.operations.values()].map(({ operation }) => `${operation.group}_${operation.name}`);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), mounted.sort());
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

  it('runs work on the worker pool under its budget: an endless handler ends as input_too_complex', async () => {
    const result = (await client.callTool({ name: 'kernel-probe_spin', arguments: {} })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.deepEqual(JSON.parse((result.content[0] as { text: string }).text), { error: { code: 'input_too_complex', message: 'The input needs more than 1000 ms of work' } });
  });

  it('runs a large argument (over workers.offloadBytes) to the right answer', async () => {
    const text = 'x'.repeat(1024 * 1024);
    const result = (await client.callTool({ name: 'base64_encode', arguments: { text } })) as CallToolResult;
    assert.equal((result.structuredContent as { base64: string }).base64, Buffer.from(text).toString('base64'));
  });

  it('keeps stdout for the protocol: log lines go to stderr', () => {
    assert.deepEqual(protocolErrors, [], 'every stdout line was a JSON-RPC message');
    const lines = Buffer.concat(stderr).toString('utf8').trim().split('\n');
    assert.ok(lines.some((line) => JSON.parse(line).msg === 'serving MCP on stdio'));
  });
});
