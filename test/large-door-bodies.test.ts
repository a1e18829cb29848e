// Issue 44's "composite and MCP bodies skip the offload": a 10 MiB body to /v1/recipes/run,
// /v1/recipes/identify or /mcp was parsed and checked on the main thread, blocking every other
// client for as long, and the watchdog blamed another operation or none. Over workers.offloadBytes,
// every door's parsing and checking runs on the pool, so the main thread only moves the bytes.
// The bodies are the costly kind to parse: 10 MiB of about 3.5 million empty arrays (seconds of
// JSON.parse on a busy 2-core machine, where the same bytes as one string take milliseconds).
// Each request is the service's only one, so any "event loop blocked" line logged while it is in
// flight is its own, whatever operation the line names. The watchdog's threshold is a generous
// 1 s: moving 10 MiB takes milliseconds, parsing these takes seconds. The service runs as its own
// process (as npm start starts it): a body that takes the service down fails its test, not the file.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { launchEnvironment } from './bench/launch.js';
import { send } from './support/http.js';
import { exitOf, listeningUrl } from './support/started-service.js';
import { tempFolder } from './support/temp-folder.js';

const BLOCKED_MS = 1000;
/** `before` + a JSON array of empty arrays + `rest`, 10 MiB less 1 KiB in all. */
function body(before: string, rest: string): Buffer {
  const count = Math.floor((10 * 1024 * 1024 - 1024 - before.length - rest.length - 2) / 3);
  return Buffer.from(`${before}[${'[],'.repeat(count)}[]]${rest}`);
}
const root = fileURLToPath(new URL('../../', import.meta.url));

let folder: string;
let service: ChildProcess;
let url: string;
/** The service's log lines, as it writes them. */
const lines: string[] = [];

before(async () => {
  folder = tempFolder('toolshed-large-bodies-');
  const config = path.join(folder, 'config.yaml');
  // Time enough for the pool to parse 10 MiB on a busy machine: the test counts blocks, not time.
  await writeFile(config, [`watchdog: { blockedMs: ${BLOCKED_MS} }`, 'server: { port: 0, writeTimeoutMs: 300000 }', 'operations: { deadlineMs: 240000 }', 'workers: { requestBudgetMs: 240000 }', ''].join('\n'));
  service = spawn(process.execPath, [path.join(root, 'dist/service/main.js')], { cwd: root, env: launchEnvironment(process.env, { TOOLSHED_CONFIG: config }), stdio: ['ignore', 'pipe', 'pipe'] });
  url = await listeningUrl(service);
  let partial = '';
  service.stdout!.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const whole = text.split('\n');
    partial = whole.pop() ?? '';
    lines.push(...whole);
  });
});
after(async () => {
  service.kill();
  await exitOf(service);
});

/**
 * Sends `bytes` to `path`; the answer, and the "event loop blocked" lines logged while it was in
 * flight. The watchdog's timer reports a block at its first tick after it (every BLOCKED_MS / 2),
 * and the log reaches stdout in batches (at least every second): so a small request follows after
 * two ticks, and the lines are read once its own line is there, the log being in order.
 */
async function sendAlone(path: string, bytes: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown; blocks: string[] }> {
  const from = lines.length;
  const answer = await send(url, path, { body: bytes, headers: { 'Content-Type': 'application/json', ...headers } });
  await new Promise((resolve) => setTimeout(resolve, BLOCKED_MS));
  const marker = await send(url, '/v1/base64/encode', { body: { text: 'after' } });
  const id = `"requestId":"${String(marker.headers['x-request-id'])}"`;
  // A guard of 60 s against a hang only.
  for (const giveUp = Date.now() + 60_000; !lines.slice(from).some((line) => line.includes(id)); await new Promise((resolve) => setTimeout(resolve, 20))) {
    assert.ok(Date.now() < giveUp, "the following request's log line never came");
  }
  return { status: answer.status, json: answer.json, blocks: lines.slice(from).filter((line) => line.includes('"event loop blocked"')) };
}

/** A refusal for the input's size: what a worker's heap cannot hold is 422, never the service's end. */
const tooComplex = { error: { code: 'input_too_complex', message: 'The input needs more memory than one request may use' } };

describe('a 10 MiB body costly to parse', { timeout: 600_000 }, () => {
  it('to /v1/recipes/run does not block the event loop', async () => {
    const recipe = body('{"input":', ',"steps":[{"operation":"base64/encode","body":{"text":"x"}}]}');
    const { status, json, blocks } = await sendAlone('/v1/recipes/run', recipe);
    // Run, or refused for the worker's heap (256 MiB): either way parsed off the main thread.
    if (status === 200) assert.deepEqual(json, { result: { base64: 'eA==' } });
    else assert.deepEqual([status, json], [422, tooComplex]);
    assert.deepEqual(blocks, []);
  });

  it(
    'to /mcp does not block the event loop',
    async () => {
      const accept = { Accept: 'application/json, text/event-stream' };
      // The first /mcp request loads the MCP door on the main thread, once (about 300 ms of compiling
      // in pieces of up to 120 ms, longer under coverage on a busy machine): not what this test
      // measures, so a small call does it first, and the blocks it may log are its own.
      const warm = await sendAlone('/mcp', Buffer.from('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"base64_encode","arguments":{"text":"x"}}}'), accept);
      assert.equal(warm.status, 200, JSON.stringify(warm.json).slice(0, 300));
      const call = body('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"base64_encode","arguments":{"text":"x"},"_meta":{"pad":', '}}}');
      const { status, json, blocks } = await sendAlone('/mcp', call, accept);
      assert.equal(status, 200, JSON.stringify(json).slice(0, 300));
      assert.equal((json as { id: number }).id, 7);
      assert.deepEqual(blocks, []);
    },
  );

  // On 5a861e0 this body ended the service: parsed on the pool and handed back whole, the worker's
  // walk of it grew past its heap cap and V8 aborted the process (nodejs/node#47224). Now it is
  // checked on the pool and only a request of the schema's size, or the refusal, comes back.
  it(
    'to /v1/recipes/identify does not block the event loop, and is refused without ending the service',
    async () => {
      const request = body('{"input":"eA==","hints":', '}');
      const { status, json, blocks } = await sendAlone('/v1/recipes/identify', request);
      if (status === 400) assert.equal((json as { error: { code: string } }).error.code, 'validation_failed');
      else assert.deepEqual([status, json], [422, tooComplex]);
      assert.deepEqual(blocks, []);
    },
  );
});
