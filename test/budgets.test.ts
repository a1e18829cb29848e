// The operator's budgets as docs/configuration.md and docs/deployment.md describe them: the reading
// budget, the worker pool's bulk lane and the time budget of a request run on the pool.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type WorkerPoolStats } from '../kernel/host/pool/worker-pool.js';
import { ByteBudget } from '../kernel/host/byte-budget.js';
import { send, type Answer } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const echo = '/v1/kernel-probe/echo';
const hold = '/v1/kernel-probe/hold';
const errorOf = (json: unknown) => (json as { error: { code: string; message: string } }).error;

const folder = tempFolder('toolshed-budgets-');

/** Resolves once the pool's numbers satisfy `ready` (a guard of 20 s only against a hang). */
async function poolReaches(service: InProcessService, ready: (stats: WorkerPoolStats) => boolean): Promise<void> {
  const giveUp = Date.now() + 20_000;
  while (!ready(service.host.poolStats())) {
    assert.ok(Date.now() < giveUp, `the pool never got there: ${JSON.stringify(service.host.poolStats())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The value of an unlabelled sample of a Prometheus text. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('server.readingBytes', () => {
  let service: InProcessService;
  before(async () => {
    // The smallest budgets allowed (1 MiB each), and time enough for 2 MiB of work on a busy machine.
    service = await buildTestService({ server: { readingBytes: 1048576, sendingBytes: 1048576, writeTimeoutMs: 90_000 }, workers: { requestBudgetMs: 60_000 } });
  });
  after(() => service.stop());

  it('reads a body alone larger than the budget when nothing else is held', async () => {
    const text = 'a'.repeat(2 * 1024 * 1024);
    const answer = await send(service.url, echo, { body: { text } });
    assert.equal(answer.status, 200, answer.text.slice(0, 200));
    assert.equal((answer.json as { text: string }).text, text);
  });

  it("counts a body's own earlier chunks as its own, and everyone else's against it", () => {
    const budget = new ByteBudget(100);
    assert.equal(budget.tryTake(60), true, 'the first chunk of body A');
    assert.equal(budget.tryTake(60, 60), true, 'A alone may pass the budget');
    assert.equal(budget.tryTake(1), false, 'body B may not, while A holds bytes');
    budget.give(120);
    assert.equal(budget.inUse, 0);
  });
});

describe('the bulk lane of the worker pool', () => {
  let service: InProcessService;
  before(async () => {
    // threads 2 → whole requests hold max(1, 2 − 1) = 1 thread; maxQueue 16 → they wait in max(1, ⌊16/16⌋) = 1 place.
    service = await buildTestService({ metrics: { enabled: true }, workers: { threads: 2, maxQueue: 16, requestBudgetMs: 60_000 }, server: { writeTimeoutMs: 90_000 } });
  });
  after(() => service.stop());

  it('refuses the third whole request while one runs and one waits, and shows its numbers in /metrics', async () => {
    const release = path.join(folder, 'release-lane');
    const admitted = [send(service.url, hold, { body: { text: release } }), send(service.url, hold, { body: { text: release } })];
    await poolReaches(service, (stats) => stats.bulkRunning === 1 && stats.bulkQueued === 1);
    const refused = await Promise.all([send(service.url, hold, { body: { text: release } }), send(service.url, hold, { body: { text: release } })]);
    for (const answer of refused) {
      assert.equal(answer.status, 503);
      assert.equal(errorOf(answer.json).code, 'server_busy');
      assert.equal(answer.headers['retry-after'], '1');
    }
    const metrics = (await send(service.url, '/metrics', { method: 'GET' })).text;
    assert.equal(sample(metrics, 'toolshed_worker_pool_max_queue'), 16);
    assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_threads'), 1);
    assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_max_queue'), 1);
    assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_running'), 1);
    assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_queued'), 1);
    assert.equal(sample(metrics, 'toolshed_worker_jobs_bulk_refused_total'), 2);
    // The small-job lane had room all along: 1 of 2 threads and 15 of 16 places were free.
    assert.equal(sample(metrics, 'toolshed_worker_jobs_refused_total'), 2, 'the general counter includes the bulk refusals');
    await writeFile(release, '');
    for (const answer of await Promise.all(admitted)) assert.equal(answer.status, 200);
    const drained = (await send(service.url, '/metrics', { method: 'GET' })).text;
    assert.equal(sample(drained, 'toolshed_worker_pool_bulk_running'), 0);
    assert.equal(sample(drained, 'toolshed_worker_pool_bulk_queued'), 0);
  });
});

describe('the bulk lane with the default configuration', () => {
  it('is 1 thread and 16 places (threads 2, maxQueue 256), as configuration.md says', async () => {
    const service = await buildTestService({ metrics: { enabled: true } });
    try {
      const metrics = (await send(service.url, '/metrics', { method: 'GET' })).text;
      // max(1, 2 − 1) = 1; max(1, ⌊256 / 16⌋) = 16.
      assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_threads'), 1);
      assert.equal(sample(metrics, 'toolshed_worker_pool_bulk_max_queue'), 16);
      assert.equal(sample(metrics, 'toolshed_worker_pool_max_queue'), 256);
    } finally {
      await service.stop();
    }
  });
});

describe('workers.requestBudgetMs', () => {
  const budgetMs = 6000;
  let service: InProcessService;
  before(async () => {
    service = await buildTestService({ workers: { threads: 2, maxQueue: 16, requestBudgetMs: budgetMs } });
  });
  after(() => service.stop());

  it('answers 503 server_busy, not 422, for a request cut after it started when most of its budget went waiting', async () => {
    const release = path.join(folder, 'release-budget');
    const first = send(service.url, hold, { body: { text: release } });
    // Never released: the second runs until its budget ends.
    const second: Promise<Answer> = send(service.url, hold, { body: { text: path.join(folder, 'never') } });
    await poolReaches(service, (stats) => stats.bulkRunning === 1 && stats.bulkQueued === 1);
    // The second has now waited in the queue for more than half its budget (3 s), and has 2.5 s
    // left: it starts once the first ends, and is cut before it has run half its budget.
    await new Promise((resolve) => setTimeout(resolve, budgetMs / 2 + 500));
    await writeFile(release, '');
    assert.equal((await first).status, 200);
    await poolReaches(service, (stats) => stats.bulkQueued === 0);
    assert.equal(service.host.poolStats().bulkRunning, 1, 'the second left the queue and runs');
    const answer = await second;
    assert.equal(answer.status, 503);
    assert.equal(errorOf(answer.json).code, 'server_busy');
    assert.match(errorOf(answer.json).message, /spent most of its time budget waiting for a free worker thread/);
    assert.equal(answer.headers['retry-after'], '1');
  });
});
