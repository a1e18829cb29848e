// Issue 44's "652 bytes take 1.2 GB": a recipe of text-converter/encode steps (format binary, a
// separator of ten U+0001, so each answer is 68 × its input), every step wired to the recipe's input
// and sent gzipped, once made the service hold every step's answer, outside every byte budget,
// until the run ended. Now a recipe holds only what a later step reads or it keeps: the chain runs
// with one answer at a time (keep: last), or is refused at the step that passes the cap (keep: all).
// The service runs as its own process, started as npm start starts it, so that its peak resident
// memory (the kernel's VmHWM, a count of pages, whatever the machine's speed) is its own.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchEnvironment } from './bench/launch.js';
import { send } from './support/http.js';
import { exitOf, listeningUrl } from './support/started-service.js';
import { tempFolder } from './support/temp-folder.js';

const MiB = 1024 * 1024;
/** The loadtest's target for the service's resident memory (issue 44). */
const RSS_TARGET = 512 * MiB;
/** 490,000 × 68 bytes of JSON: each answer just under the default answer cap (32 MiB). */
const INPUT_LENGTH = 490_000;
/** Twelve steps: held together, 12 × 32 MiB alone would pass the target. (The thirty: the loadtest's row.) */
const STEPS = 12;
const separator = '\u0001'.repeat(10);
const step = { operation: 'text-converter/encode', body: { text: { $from: '/input' }, format: 'binary', separator } };
const recipe = (keep?: 'all') => gzipSync(JSON.stringify({ input: 'x'.repeat(INPUT_LENGTH), steps: Array.from({ length: STEPS }, () => step), ...(keep ? { keep } : {}) }));
const root = fileURLToPath(new URL('../../', import.meta.url));

/** The peak resident memory of process `pid` in bytes, as its kernel counted it. */
function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((candidate) => candidate.startsWith('VmHWM:'));
  return Number(/(\d+) kB/.exec(line ?? '')?.[1]) * 1024;
}

let folder: string;
let service: ChildProcess;
let url: string;

before(async () => {
  folder = tempFolder('toolshed-amplify-');
  const config = path.join(folder, 'config.yaml');
  // The defaults (budgets, caps, pool), but deadlines long enough for the whole chain on a busy
  // machine: the test is about memory, and a deadline would cut the chain after however many steps
  // the machine managed. The limit per address is raised for the other client's requests.
  await writeFile(config, ['server:', '  port: 0', '  writeTimeoutMs: 300000', 'operations:', '  deadlineMs: 240000', 'workers:', '  requestBudgetMs: 240000', 'rateLimit:', '  anonymous: { max: 100000 }', ''].join('\n'));
  service = spawn(process.execPath, [path.join(root, 'dist/service/main.js')], { cwd: root, env: launchEnvironment(process.env, { TOOLSHED_CONFIG: config }), stdio: ['ignore', 'pipe', 'pipe'] });
  url = await listeningUrl(service);
});
after(async () => {
  service.kill();
  await exitOf(service);
});

/** Sends small POSTs and /healthz from another client until `done` settles; every answer they got. */
async function othersWhile(done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const statuses: number[] = [];
  while (!finished) {
    statuses.push((await send(url, '/v1/base64/encode', { body: { text: 'hi' }, localAddress: '127.0.0.2' })).status);
    statuses.push((await send(url, '/healthz', { method: 'GET', localAddress: '127.0.0.2' })).status);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return statuses;
}

describe('the amplifying recipe, sent gzipped', { timeout: 600_000 }, () => {
  it('runs with one answer held at a time, the service under the memory target, the other client answered', async () => {
    const body = recipe();
    assert.ok(body.length < 700, `${body.length} bytes on the wire`);
    const running = send(url, '/v1/recipes/run', { body, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } });
    const others = await othersWhile(running);
    const answer = await running;
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const expected = Array.from({ length: INPUT_LENGTH }, () => '01111000').join(separator);
    assert.equal((answer.json as { result: { bytes: string } }).result.bytes, expected, "the last step's answer");
    assert.ok(others.length >= 2, 'the other client asked while the recipe ran');
    assert.deepEqual([...new Set(others)], [200]);
    const peak = peakRss(service.pid!);
    assert.ok(peak < RSS_TARGET, `peak RSS ${(peak / MiB).toFixed(0)} MiB`);
  });

  it('with keep: all, is refused at the second step, which passes the cap: 422 output_too_large', async () => {
    const answer = await send(url, '/v1/recipes/run', { body: recipe('all'), headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } });
    assert.equal(answer.status, 422, answer.text.slice(0, 300));
    const { code, message, details } = (answer.json as { error: { code: string; message: string; details: { path: string }[] } }).error;
    assert.equal(code, 'output_too_large');
    assert.match(message, /^Step 1 \(text-converter\/encode\) failed: The answers held at once would be \d+ bytes; at most 33554432 may be$/);
    assert.equal(details[0]!.path, '/steps/1');
    const peak = peakRss(service.pid!);
    assert.ok(peak < RSS_TARGET, `peak RSS ${(peak / MiB).toFixed(0)} MiB`);
  });
});
