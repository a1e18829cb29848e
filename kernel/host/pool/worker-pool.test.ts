import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { getPriority } from 'node:os';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isToolshedError, isWorkerJobError, type WorkerFailure } from '@toolshed/plugin-sdk';
import { POOL_TASK_FILE, WorkerPool, YOUNG_GENERATION_MB, type WorkerPoolOptions } from './worker-pool.js';

const jobs = new URL('./fixtures/worker-jobs.js', import.meta.url);
const pools: WorkerPool[] = [];
function pool(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
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

describe('the host worker pool', () => {
  it('runs an export of a module and returns its value, sync or async', async () => {
    const workers = pool();
    assert.equal(await workers.run(jobs, 'add', [2, 3], { deadlineMs: 60_000 }), 5);
    assert.equal(await workers.run(jobs, 'later', ['x'], { deadlineMs: 60_000 }), 'x');
    assert.equal(workers.stats().completed, 2);
  });

  it('counts the jobs its workers answered, a refusal or a failure as well as a result; completed counts results', async () => {
    const workers = pool();
    assert.equal(await workers.run(jobs, 'add', [2, 3], { deadlineMs: 60_000 }), 5);
    await assert.rejects(workers.run(jobs, 'refuse', [], { deadlineMs: 60_000 }));
    await assert.rejects(workers.run(jobs, 'fail', [], { deadlineMs: 60_000 }));
    assert.deepEqual([workers.stats().completed, workers.stats().answered], [1, 3]);
  });

  it('moves a transferred buffer instead of copying it', async () => {
    const buffer = new ArrayBuffer(1024);
    assert.equal(await pool().run(jobs, 'bytes', [buffer], { deadlineMs: 60_000, transfer: [buffer] }), 1024);
    assert.equal(buffer.byteLength, 0, 'the caller no longer holds the buffer');
  });

  it('moves an answer that is a whole Uint8Array, and copies a slice', async () => {
    const workers = pool({ workers: 1 });
    const whole = await workers.run<Uint8Array>(jobs, 'answerBytes', [4096, false], { deadlineMs: 60_000 });
    assert.deepEqual([whole.byteLength, whole[0]], [4096, 7]);
    assert.equal(await workers.run(jobs, 'lastAnswerBytes', [], { deadlineMs: 60_000 }), 0, 'the worker no longer holds it');
    assert.equal((await workers.run<Uint8Array>(jobs, 'answerBytes', [16, true], { deadlineMs: 60_000 })).byteLength, 16);
    assert.equal(await workers.run(jobs, 'lastAnswerBytes', [], { deadlineMs: 60_000 }), 16, 'a slice is copied, not moved');
  });

  it('moves the buffers a job names in a moving() value, and copies the rest of the value', async () => {
    const workers = pool({ workers: 1 });
    const value = await workers.run<{ name: string; parts: Uint8Array[] }>(jobs, 'movingBytes', [2048], { deadlineMs: 60_000 });
    assert.equal(value.name, 'two');
    assert.deepEqual(value.parts.map((part) => [part.byteLength, part[0]]), [[2048, 7], [2048, 9]]);
    assert.equal(await workers.run(jobs, 'lastAnswerBytes', [], { deadlineMs: 60_000 }), 0, 'the named buffer moved');
    assert.equal(await workers.run(jobs, 'lastCopiedBytes', [], { deadlineMs: 60_000 }), 2048, 'the other was copied');
  });

  it('rethrows an SDK error unchanged, and hides the message of any other', async () => {
    const workers = pool();
    await assert.rejects(workers.run(jobs, 'refuse', [], { deadlineMs: 60_000 }), (error: unknown) => {
      return isToolshedError(error) && error.status === 422 && error.code === 'not_today' && error.message === 'This job refuses';
    });
    await assert.rejects(workers.run(jobs, 'refuseField', [], { deadlineMs: 60_000 }), (error: unknown) => {
      assert.ok(isToolshedError(error));
      assert.deepEqual([error.status, error.code, error.message], [400, 'validation_failed', 'Give exactly one of text and dataBase64']);
      assert.deepEqual(error.details, [{ path: '/text', message: 'must not be given with dataBase64' }]);
      return true;
    });
    await assert.rejects(workers.run(jobs, 'fail', [], { deadlineMs: 60_000 }), (error: unknown) => {
      assert.ok(isWorkerJobError(error) && error.reason === 'failed' && error.errorName === 'RangeError');
      // Source maps are on in pool workers: the frame names the TypeScript file when the build has its map.
      assert.ok(error.frames.some((frame) => /worker-jobs\.(js|ts)/.test(frame)), 'the frames name where it threw');
      assert.ok(![error.message, ...error.frames].some((text) => text.includes('quote')), 'the message is not carried');
      return true;
    });
    await failsWith(workers.run(jobs, 'missing', [], { deadlineMs: 60_000 }), 'failed');
    await assert.rejects(workers.run(jobs, 'unclonable', [], { deadlineMs: 60_000 }), (error: unknown) => {
      return isWorkerJobError(error) && error.reason === 'failed' && error.errorName === 'DataCloneError';
    });
    assert.equal(await workers.run(jobs, 'add', [1, 2], { deadlineMs: 60_000 }), 3);
  });

  it('ends a job at its deadline while another worker keeps answering, then recovers', async () => {
    const workers = pool();
    // It ran its whole budget: the input's doing, not the server's shortage.
    const endless = assert.rejects(workers.run(jobs, 'spin', [], { deadlineMs: 300 }), (error: unknown) => {
      return isWorkerJobError(error) && error.reason === 'timeout' && !error.starved;
    });
    assert.equal(await workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 2);
    await endless;
    assert.equal(workers.stats().timeouts, 1);
    assert.equal(await workers.run(jobs, 'add', [2, 2], { deadlineMs: 60_000 }), 4);
  });

  it('counts queue time against the deadline, and calls a job that only waited starved', async () => {
    const workers = pool({ workers: 1 });
    const blocker = new AbortController();
    const first = workers.run(jobs, 'spin', [], { deadlineMs: 600_000, signal: blocker.signal });
    // The only worker is taken for good, so this job can only ever wait: it must time out in the queue.
    await assert.rejects(workers.run(jobs, 'add', [1, 2], { deadlineMs: 200 }), (error: unknown) => {
      return isWorkerJobError(error) && error.reason === 'timeout' && error.starved;
    });
    assert.equal(workers.stats().queued, 0, 'the job given up left the queue');
    blocker.abort();
    await failsWith(first, 'aborted');
  });

  it('does not count the time a new worker takes to import the job’s module', async () => {
    // The module's import takes 3 s (fixtures/slow-import.ts), the job itself 0.5 s of its 2 s.
    const slow = new URL('./fixtures/slow-import.js', import.meta.url);
    assert.equal(await pool({ workers: 1 }).run(slow, 'ready', [], { deadlineMs: 2000 }), 'ready');
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

  /** Holds a thread with a small job until the returned function lets it go; its answer is the thread. */
  function holdOne(workers: WorkerPool): { thread: Promise<number>; release(): void } {
    const shared = new SharedArrayBuffer(4);
    const thread = workers.run<number>(jobs, 'holdThread', [shared], { deadlineMs: 60_000 });
    const release = (): void => {
      Atomics.store(new Int32Array(shared), 0, 1);
      Atomics.notify(new Int32Array(shared), 0);
    };
    return { thread, release };
  }

  it('runs bulk jobs on one thread, small jobs on another while both are free', async () => {
    const workers = pool();
    const small = { deadlineMs: 60_000 };
    const bulk = { deadlineMs: 60_000, bulk: true };
    // Two threads, both booted: one held while the other answers.
    const held = holdOne(workers);
    const second = await workers.run<number>(jobs, 'whichThread', [], small);
    held.release();
    assert.notEqual(await held.thread, second);
    const bulkThread = await workers.run<number>(jobs, 'whichThread', [], bulk);
    for (let round = 0; round < 4; round++) {
      assert.notEqual(await workers.run<number>(jobs, 'whichThread', [], small), bulkThread, `round ${round}: a small job`);
      assert.equal(await workers.run<number>(jobs, 'whichThread', [], bulk), bulkThread, `round ${round}: a bulk job`);
    }
  });

  it('holds a bulk job back while its thread finishes a small job, though another thread is free', async () => {
    const workers = pool();
    const first = holdOne(workers);
    const second = holdOne(workers);
    first.release();
    second.release();
    const bulkThread = await workers.run<number>(jobs, 'whichThread', [], { deadlineMs: 60_000, bulk: true });
    assert.ok([await first.thread, await second.thread].includes(bulkThread), 'two threads booted, the bulk job on one');
    // Both threads held by small jobs (the first goes to the other thread, the second to the bulk thread); then the other let go.
    const elsewhere = holdOne(workers);
    const onBulkThread = holdOne(workers);
    await until(() => workers.stats().running === 2, 'both small jobs running');
    elsewhere.release();
    assert.notEqual(await elsewhere.thread, bulkThread);
    const waiting = workers.run<number>(jobs, 'whichThread', [], { deadlineMs: 60_000, bulk: true });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([workers.stats().bulkQueued, workers.stats().running], [1, 1], 'the bulk job waits; the free thread stays free');
    onBulkThread.release();
    assert.equal(await onBulkThread.thread, bulkThread);
    assert.equal(await waiting, bulkThread);
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
    assert.deepEqual([workers.stats().queued, workers.stats().bulkQueued, workers.stats().bulkRunning], [1, 1, 1]);
    // The bulk queue holds 32 / 16 = 2 jobs; with one waiting, one more fits, then 503.
    const second = workers.run(jobs, 'spin', [], bulk);
    await assert.rejects(workers.run(jobs, 'spin', [], bulk), (error: unknown) => isToolshedError(error) && error.status === 503);
    assert.deepEqual([workers.stats().refused, workers.stats().bulkRefused], [1, 1]);
    stop.abort();
    for (const job of [running, waiting, second]) await failsWith(job, 'aborted');
  });

  it('answers crashed when a job passes the heap cap, and the pool goes on', async () => {
    const workers = pool({ memoryMb: 32 });
    await failsWith(workers.run(jobs, 'hoard', [], { deadlineMs: 600_000 }), 'crashed');
    assert.equal(await workers.run(jobs, 'add', [3, 4], { deadlineMs: 60_000 }), 7);
  });

  it("has a worker's young generation stay within what the deployment guide counts for it", async () => {
    // V8's own limit, which grows with Node (about 40 MiB reached on Node 20, 65 on Node 26): a Node that grows it past the figure fails here.
    const mb = await pool({ workers: 1 }).run<number>(jobs, 'youngGenerationMb', [], { deadlineMs: 60_000 });
    assert.ok(mb > 0 && mb <= YOUNG_GENERATION_MB, `${mb} MiB`);
  });

  it('forgets a worker that dies while idle, so the next job gets a live one', async () => {
    // Idle workers are kept for the whole test: retiring the dead one after idleMs would hide the bug.
    const workers = pool({ workers: 1, idleMs: 600_000 });
    assert.equal(await workers.run(jobs, 'answerThenThrowOn', ['toolshed-host-pool-test-death'], { deadlineMs: 60_000 }), 1);
    const death = new BroadcastChannel('toolshed-host-pool-test-death');
    death.postMessage('now');
    death.close();
    // The throw ends the idle worker (and must not reach this thread as an unhandled 'error').
    await until(() => workers.stats().workers === 0, 'the pool still counts the dead worker');
    // Posted to the dead worker instead, this job would wait out its deadline and answer timeout.
    assert.equal(await workers.run(jobs, 'add', [2, 2], { deadlineMs: 60_000 }), 4);
  });

  it('does not start a job whose signal already fired, and ends idle workers', async () => {
    const workers = pool({ idleMs: 0 });
    await failsWith(workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000, signal: AbortSignal.abort() }), 'aborted');
    assert.equal(await workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 2);
    await until(() => workers.stats().workers === 0, 'the idle worker was not ended');
  });

  it('runs its threads at the configured niceness on Linux, leaving the main thread as it was', { skip: process.platform !== 'linux' && 'per-thread niceness is Linux only' }, async () => {
    const before = getPriority(0);
    assert.equal(await pool({ niceness: 7 }).run(jobs, 'niceness', [], { deadlineMs: 60_000 }), Math.max(7, before));
    assert.equal(await pool().run(jobs, 'niceness', [], { deadlineMs: 60_000 }), before);
    assert.equal(getPriority(0), before);
  });

  it('gives its workers exactly the environment it was given, none of the service’s', async () => {
    process.env.TOOLSHED_POOL_TEST_SECRET = 'not for plugins';
    try {
      const given = { ONLY_THIS: 'yes' };
      assert.deepEqual(await pool({ env: given }).run(jobs, 'environment', [], { deadlineMs: 60_000 }), given);
      // Without `env`, Node's default: a copy of the service's.
      const inherited = await pool().run<Record<string, string>>(jobs, 'environment', [], { deadlineMs: 60_000 });
      assert.equal(inherited.TOOLSHED_POOL_TEST_SECRET, 'not for plugins');
    } finally {
      delete process.env.TOOLSHED_POOL_TEST_SECRET;
    }
  });

  it('reports today’s counters, without young-generation trims', async () => {
    const workers = pool({ workers: 3, maxQueue: 40 });
    assert.deepEqual(workers.stats(), {
      workers: 0,
      running: 0,
      queued: 0,
      completed: 0,
      answered: 0,
      timeouts: 0,
      refused: 0,
      bulkRunning: 0,
      bulkQueued: 0,
      bulkRefused: 0,
      bulkThreads: 2,
      bulkMaxQueue: 2,
    });
  });

  it('aborts running and queued jobs on close, and answers aborted after it', async () => {
    const workers = pool({ workers: 1 });
    const running = workers.run(jobs, 'spin', [], { deadlineMs: 600_000 });
    const queued = workers.run(jobs, 'add', [1, 1], { deadlineMs: 600_000 });
    const outcomes = Promise.all([failsWith(running, 'aborted'), failsWith(queued, 'aborted')]);
    await workers.close();
    await outcomes;
    await failsWith(workers.run(jobs, 'add', [1, 1], { deadlineMs: 60_000 }), 'aborted');
  });
});

describe('a job that runs work off its own thread', () => {
  it('runs it on its worker’s own one-thread pool', async () => {
    assert.equal(await pool({ workers: 1 }).run(jobs, 'nestedAdd', [20, 22], { deadlineMs: 60_000 }), 42);
  });

  it('ends only the inner work at its own deadline, so the outer job answers', async () => {
    const workers = pool({ workers: 1, idleMs: 600_000 });
    assert.equal(await workers.run(jobs, 'nestedSpin', [200], { deadlineMs: 600_000 }), 'timeout');
    // The outer worker lived through it, and its nested pool serves again.
    assert.equal(await workers.run(jobs, 'nestedAdd', [1, 1], { deadlineMs: 60_000 }), 2);
    assert.equal(workers.stats().workers, 1);
  });
});

describe('the pool’s source', () => {
  it('gives piscina a CommonJS task file that imports the task module, so no worker require()s an ES module', async () => {
    // piscina require()s its task file first; an ES module required there loads synchronously on
    // Node 20.19+, and a worker terminated in that load aborted the process (worker-task.cts).
    assert.match(fileURLToPath(POOL_TASK_FILE), /\.cjs$/);
    const task = createRequire(import.meta.url)(fileURLToPath(POOL_TASK_FILE)) as (request: unknown) => Promise<unknown>;
    assert.equal(typeof task, 'function');
    assert.deepEqual(await task({ id: 1, module: jobs.href, exportName: 'add', args: [2, 3] }), { kind: 'result', value: 5 });
  });

  it('touches no V8 flag, no vm context and no gc (what made an idle worker die)', async () => {
    const folder = new URL('./', import.meta.url);
    const files = (await readdir(folder)).filter((name) => name.endsWith('.js') && !name.endsWith('.test.js'));
    assert.ok(files.includes('worker-entry.js') && files.includes('worker-pool.js'));
    for (const name of files) {
      const text = await readFile(new URL(name, folder), 'utf8');
      assert.doesNotMatch(text, /node:v8|node:vm|setFlagsFromString|runInNewContext|\bgc\(/, name);
    }
  });
});
