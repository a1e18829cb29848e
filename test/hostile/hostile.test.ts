// Replays the hostile corpus against the real service with every built-in plugin: each row must get
// a documented answer (never a 500), and /healthz must keep being answered while it runs, because
// the main thread only moves bytes. The margin is one no busy machine can miss; the tight figures
// (p99 in milliseconds) are `npm run loadtest`'s.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../../kernel/host/index.js';
import { send } from '../support/http.js';
import { startTestService, type TestService } from '../support/service.js';
import { kernelRows, operationRows, type HostileRow } from './corpus.js';

/** The longest /healthz may take while a hostile request runs: a stalled event loop took 4–13 s. */
const HEALTH_MARGIN_MS = 3000;

let service: TestService;
before(async () => {
  // The rows test what each input is answered with, not how fast this machine is: with the default
  // 10 s request budget, a busy CI machine once turned the 1.18 M-key row's 400 into a 422
  // input_too_complex. The budget itself is tested in offload.test.ts.
  // The same for the operations' deadline (10 s by default). Both must end before the idle close,
  // with room for the pool's 30 s guard on a worker that never starts: at 120 s each, a request stuck
  // on the pool was closed silently at 120 s, and the row waited for an answer that never came.
  // Every row is sent from one address, and the regex row sends 8 bodies of 9 MB at once: the
  // per-address share of the reading budget (its own test: slow-bodies.test.ts) is the whole budget here.
  service = await startTestService(
    { workers: { requestBudgetMs: 120_000 }, operations: { deadlineMs: 100_000 }, server: { writeTimeoutMs: 180_000, readingBytesPerClient: 128 * 1024 * 1024 } },
    { builtinDir: builtinPluginDir },
  );
});
after(() => service.stop());

/** Probes /healthz back to back until stopped; resolves with the longest wait seen. */
function probeHealth(url: string): { stop: () => Promise<number> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let running = true;
  let longest = 0;
  const once = (): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const req = request(`${url}/healthz`, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          longest = Math.max(longest, performance.now() - started);
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end();
    });
  const loop = (async () => {
    while (running) {
      await once();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
      return longest;
    },
  };
}

async function replay(row: HostileRow): Promise<void> {
  const body = row.body();
  const headers = { 'Content-Type': 'application/json' };
  const probe = probeHealth(service.url);
  const copies = Array.from({ length: row.concurrent ?? 1 }, () => send(service.url, row.path, { body, headers }));
  const normal = row.normal === undefined ? undefined : send(service.url, row.normal.path, { body: row.normal.body });
  const answers = await Promise.all(copies);
  const normalAnswer = await normal;
  const longest = await probe.stop();
  for (const answer of answers) {
    assert.notEqual(answer.status, 500, `${row.name}: ${answer.text.slice(0, 200)}`);
    assert.ok(row.status.includes(answer.status), `${row.name}: status ${answer.status} ${answer.text.slice(0, 200)}`);
    if (answer.status !== 200) assert.match((answer.json as { error: { message: string } }).error.message, /\S/, `${row.name}: a clear message`);
  }
  if (row.normal !== undefined) assert.ok(row.normal.status.includes(normalAnswer!.status), `${row.name}: the normal request got ${normalAnswer!.status}`);
  assert.ok(longest < HEALTH_MARGIN_MS, `${row.name}: /healthz waited ${Math.round(longest)} ms`);
}

describe('the hostile corpus', () => {
  for (const row of kernelRows) it(row.name, () => replay(row));

  it('has a hostile row for every operation, each answered as documented while /healthz keeps answering', async () => {
    const rows = operationRows(service.registry.operations.values());
    assert.equal(rows.length, service.registry.operations.size);
    for (const row of rows) await replay(row);
  });

  it('names the first 100 unknown keys of a body of 100,000 members, the most a body may hold', async () => {
    // The 1.18 M-key body of the corpus is refused before it is parsed (docs/decisions.md); at the
    // bound the body is parsed, and the schema's check still names only 100 of its unknown keys.
    const keys = Array.from({ length: 99_999 }, (_, index) => `,"${index.toString(36)}x":0`);
    const answer = await send(service.url, kernelRows[0]!.path, { body: `{"text":"x"${keys.join('')}}`, headers: { 'Content-Type': 'application/json' } });
    const details = (answer.json as { error: { code: string; details: { path: string; message: string }[] } }).error.details;
    assert.equal((answer.json as { error: { code: string } }).error.code, 'validation_failed');
    assert.equal(details.length, 100);
    // Which 100 come first is V8's order of the keys; each is named.
    assert.ok(details.every((detail) => detail.path !== '/text' && detail.message.startsWith('is not an allowed property;')));
  });
});
