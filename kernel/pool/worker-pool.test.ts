import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { isWorkerJobError, WorkerJobError, workerRefusal, type WorkerFailure } from '@toolshed/plugin-sdk';
import { configureWorkerPool, workerPool, WorkerPool } from './worker-pool.js';

const jobs = new URL('./fixtures/worker-jobs.js', import.meta.url);
const pools: WorkerPool[] = [];
function pool(options: Partial<WorkerPool['options']> = {}): WorkerPool {
  const created = new WorkerPool({ workers: 2, memoryMb: 128, maxQueue: 8, idleMs: 30_000, ...options });
  pools.push(created);
  return created;
}
after(() => Promise.all(pools.map((created) => created.close())));

/** Waits for something a worker thread does on its own; the 30 s guard is a last resort, not a timing. */
async function until(done: () => boolean, failure: string): Promise<void> {
  const giveUp = Date.now() + 30_000;
  while (!done()) {
    assert.ok(Date.now() < giveUp, failure);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function failsWith(promise: Promise<unknown>, reason: WorkerFailure): Promise<void> {
  await assert.rejects(promise, (error: unknown) => isWorkerJobError(error) && error.reason === reason);
}

describe('the worker pool', () => {
  it('runs an export of a module and returns its value, sync or async', async () => {
    const workers = pool();
    assert.equal(await workers.run(jobs, 'add', [2, 3], { deadlineMs: 60_000 }), 5);
    assert.equal(await workers.run(jobs, 'later', ['x'], { deadlineMs: 60_000 }), 'x');
    assert.equal(workers.stats().completed, 2);
  });

  it('moves a transferred buffer instead of copying it', async () => {
    const buffer = new ArrayBuffer(1024);
    assert.equal(await pool().run(jobs, 'bytes', [buffer], { deadlineMs: 60_000, transfer: [buffer] }), 1024);
    assert.equal(buffer.byteLength, 0, 'the caller no longer holds the buffer');
  });

  it('rethrows an SDK error with its status and code, and hides the message of any other', async () => {
    const workers = pool();
    await assert.rejects(workers.run(jobs, 'refuse', [], { deadlineMs: 60_000 }), (error: unknown) => {
      return isToolshedError(error) && error.status === 422 && error.code === 'not_today' && error.message === 'This job refuses';
    });
    await assert.rejects(workers.run(jobs, 'fail', [], { deadlineMs: 60_000 }), (error: unknown) => {
      return isWorkerJobError(error) && error.reason === 'failed' && error.errorName === 'RangeError' && !error.message.includes('quote');
    });
    await failsWith(workers.run(jobs, 'missing', [], { deadlineMs: 60_000 }), 'failed');
    await failsWith(workers.run(jobs, 'unclonable', [], { deadlineMs: 60_000 }), 'failed');
  });

  it('ends a job at its deadline while another worker keeps answering, then recovers', async () => {
    const workers = pool();
    const endless = workers.run(jobs, 'spin', [], { deadlineMs: 300 });
    assert.equal(await workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 2);
    await assert.rejects(endless, (error: unknown) => isWorkerJobError(error) && error.reason === 'timeout' && !error.starved);
    assert.equal(workers.stats().timeouts, 1);
    assert.equal(await workers.run(jobs, 'add', [2, 2], { deadlineMs: 60_000 }), 4);
  });

  it('counts queue time against the deadline', async () => {
    const workers = pool({ workers: 1 });
    const blocker = new AbortController();
    const first = workers.run(jobs, 'spin', [], { deadlineMs: 600_000, signal: blocker.signal });
    // The only worker is taken for good, so this job can only ever wait: it must time out in the queue.
    await assert.rejects(workers.run(jobs, 'add', [1, 2], { deadlineMs: 200 }), (error: unknown) => {
      return isWorkerJobError(error) && error.reason === 'timeout' && error.starved;
    });
    blocker.abort();
    await failsWith(first, 'aborted');
  });

  it('refuses at once with 503 server_busy when the queue is full', async () => {
    const workers = pool({ workers: 1, maxQueue: 1 });
    const stop = new AbortController();
    const running = workers.run(jobs, 'spin', [], { deadlineMs: 600_000, signal: stop.signal });
    const queued = workers.run(jobs, 'add', [1, 1], { deadlineMs: 600_000, signal: stop.signal });
    await assert.rejects(workers.run(jobs, 'add', [1, 1], { deadlineMs: 600_000 }), (error: unknown) => {
      return isToolshedError(error) && error.status === 503 && error.code === 'server_busy';
    });
    assert.equal(workers.stats().refused, 1);
    stop.abort();
    await failsWith(running, 'aborted');
    await failsWith(queued, 'aborted');
  });

  it('keeps one worker for small jobs while bulk jobs wait in a short queue', async () => {
    const workers = pool({ workers: 2, maxQueue: 32 });
    const stop = new AbortController();
    const bulk = { deadlineMs: 600_000, signal: stop.signal, bulk: true };
    const running = workers.run(jobs, 'spin', [], bulk);
    // Bulk may use 2 − 1 = 1 worker: the next bulk job waits although a worker is free...
    const waiting = workers.run(jobs, 'spin', [], bulk);
    // ...and a small job still gets that worker at once.
    assert.equal(await workers.run(jobs, 'add', [2, 5], { deadlineMs: 60_000 }), 7);
    assert.equal(workers.stats().queued, 1);
    // The bulk queue holds 32 / 16 = 2 jobs; with one waiting, one more fits, then 503.
    const second = workers.run(jobs, 'spin', [], bulk);
    await assert.rejects(workers.run(jobs, 'spin', [], bulk), (error: unknown) => isToolshedError(error) && error.status === 503);
    stop.abort();
    for (const job of [running, waiting, second]) await failsWith(job, 'aborted');
  });

  it('answers crashed when a job passes the heap cap, and the pool goes on', async () => {
    const workers = pool({ memoryMb: 32 });
    await failsWith(workers.run(jobs, 'hoard', [], { deadlineMs: 600_000 }), 'crashed');
    assert.equal(await workers.run(jobs, 'add', [3, 4], { deadlineMs: 60_000 }), 7);
  });

  it('forgets a worker that dies while idle, so the next job gets a live one', async () => {
    // Idle workers are kept for the whole test: retiring the dead one after idleMs would hide the bug.
    const workers = pool({ workers: 1, idleMs: 600_000 });
    assert.equal(await workers.run(jobs, 'answerThenThrowOn', ['toolshed-pool-test-death'], { deadlineMs: 60_000 }), 1);
    const death = new BroadcastChannel('toolshed-pool-test-death');
    death.postMessage('now');
    death.close();
    // The throw ends the idle worker; the pool must stop counting it.
    await until(() => workers.stats().workers === 0, 'the pool still counts the dead worker');
    // Handed to the dead worker instead, this job would wait out its deadline and answer timeout.
    assert.equal(await workers.run(jobs, 'add', [2, 2], { deadlineMs: 60_000 }), 4);
  });

  it('does not start a job whose signal already fired, and ends idle workers', async () => {
    const workers = pool({ idleMs: 0 });
    await failsWith(workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000, signal: AbortSignal.abort() }), 'aborted');
    assert.equal(await workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 2);
    for (let turn = 0; turn < 1000 && workers.stats().workers > 0; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(workers.stats().workers, 0);
  });

  it('runs its threads at the configured niceness on Linux, leaving the main thread as it was', { skip: process.platform !== 'linux' && 'per-thread niceness is Linux only' }, async () => {
    const before = getPriority(0);
    assert.equal(await pool({ niceness: 7 }).run(jobs, 'niceness', [], { deadlineMs: 60_000 }), Math.max(7, before));
    assert.equal(await pool().run(jobs, 'niceness', [], { deadlineMs: 60_000 }), before);
    assert.equal(getPriority(0), before);
  });

  it('aborts running and queued jobs on close, and answers aborted after it', async () => {
    const workers = pool({ workers: 1 });
    const running = workers.run(jobs, 'spin', [], { deadlineMs: 600_000 });
    const queued = workers.run(jobs, 'add', [1, 1], { deadlineMs: 600_000 });
    await workers.close();
    await failsWith(running, 'aborted');
    await failsWith(queued, 'aborted');
    await failsWith(workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 'aborted');
  });
});

describe('workerRefusal', () => {
  const refusals = {
    timeout: () => new UnprocessableError('too_slow', 'slow'),
    crashed: () => new UnprocessableError('too_big', 'big'),
  };
  const codeOf = (error: unknown) => (error as { status: number; code: string });

  it('turns each way a job can fail into its answer', () => {
    assert.equal(codeOf(workerRefusal(new WorkerJobError('timeout'), refusals)).code, 'too_slow');
    assert.equal(codeOf(workerRefusal(new WorkerJobError('aborted'), refusals)).code, 'too_slow');
    assert.equal(codeOf(workerRefusal(new WorkerJobError('crashed'), refusals)).code, 'too_big');
    assert.equal(codeOf(workerRefusal(new WorkerJobError('crashed'), { timeout: refusals.timeout })).code, 'too_slow');
    const queued = codeOf(workerRefusal(new WorkerJobError('timeout', undefined, true), refusals));
    assert.deepEqual([queued.status, queued.code], [503, 'server_busy']);
  });

  it('passes SDK errors from the job and bugs through unchanged', () => {
    const failed = new WorkerJobError('failed', 'TypeError');
    assert.equal(workerRefusal(failed, refusals), failed);
    const sdk = new UnprocessableError('own', 'own');
    assert.equal(workerRefusal(sdk, refusals), sdk);
  });
});

describe('the process-wide pool', () => {
  it('is one pool for every copy of the SDK in the process, sized by the kernel', async () => {
    // A folder plugin with its own node_modules loads its own copy of the SDK; a copy of this build
    // next to it (so it resolves the same dependencies) stands in for one.
    const here = dirname(fileURLToPath(import.meta.url));
    const copy = await mkdtemp(`${dirname(here)}/dist-copy-`);
    try {
      await cp(here, copy, { recursive: true, filter: (source) => source === here || !source.endsWith('.map') });
      const other = (await import(pathToFileURL(`${copy}/worker-pool.js`).href)) as typeof import('./worker-pool.js');
      configureWorkerPool({ workers: 1, maxQueue: 3 });
      assert.notEqual(other.WorkerPool, WorkerPool, 'the copy is a module instance of its own');
      assert.equal(other.workerPool(), workerPool());
      assert.equal(other.workerPool().options.maxQueue, 3);
      assert.equal(await other.runInWorker(jobs, 'add', [1, 2], { deadlineMs: 60_000 }), 3);
      assert.equal(workerPool().stats().completed, 1, 'the job ran on the kernel-sized pool');
    } finally {
      await workerPool().close();
      await rm(copy, { recursive: true, force: true });
    }
  });
});
