// Memory given back once a busy service falls quiet (kernel/idle-collection.ts). The looks are
// called by hand with the memory and the event loop's use the test sets; nothing waits on a timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { fullCollection, startIdleCollection, trimYoungGeneration, YOUNG_GENERATION_TRIM, youngGenerationBytes, type Collector } from '../kernel/idle-collection.js';

const MiB = 2 ** 20;

/** A collection whose memory and loop use the test sets; `collections` counts full collections. */
function looking(start = 100 * MiB) {
  const state = { memory: start, utilization: 0, collections: 0, trims: 0 };
  const idle = startIdleCollection({
    everyMs: 3_600_000,
    growthBytes: 16 * MiB,
    quietUtilization: 0.05,
    collect: () => state.collections++,
    trim: async () => state.trims++,
    memory: () => state.memory,
    utilization: () => state.utilization,
  });
  return { state, check: () => idle.check(), stop: () => idle.stop() };
}

describe('collection once the service is quiet', () => {
  it('collects once when the loop was quiet and memory grew by growthBytes', () => {
    const { state, check, stop } = looking();
    state.memory += 16 * MiB;
    check();
    assert.equal(state.collections, 1);
    stop();
  });

  it('does not collect while the loop is busy, however much memory grew', () => {
    const { state, check, stop } = looking();
    state.memory += 64 * MiB;
    state.utilization = 0.5;
    check();
    assert.equal(state.collections, 0);
    state.utilization = 0.01;
    check();
    assert.equal(state.collections, 1, 'the first quiet look collects');
    stop();
  });

  it('does not collect for growth below growthBytes', () => {
    const { state, check, stop } = looking();
    state.memory += 16 * MiB - 1;
    check();
    assert.equal(state.collections, 0);
    stop();
  });

  it('measures growth from the lowest reading since the last collection, so garbage V8 collected itself is not growth', () => {
    const { state, check, stop } = looking(100 * MiB);
    state.memory = 80 * MiB;
    check();
    state.memory = 90 * MiB; // 10 MiB above the low, though 10 below the start
    check();
    assert.equal(state.collections, 0);
    state.memory = 96 * MiB; // 16 MiB above the low
    check();
    assert.equal(state.collections, 1);
    stop();
  });

  it('does not collect twice for the same garbage', () => {
    const { state, check, stop } = looking(100 * MiB);
    state.memory = 120 * MiB;
    check();
    assert.equal(state.collections, 1);
    // Still read high right after: not growth, and not collected again.
    check();
    state.memory = 130 * MiB;
    check();
    assert.equal(state.collections, 1, '10 MiB over the base read after the collection');
    stop();
  });

  it('reaches V8’s full collection without giving the service’s global scope a gc', async () => {
    const collect = fullCollection();
    assert.equal(typeof collect, 'function');
    assert.equal((globalThis as { gc?: unknown }).gc, undefined);
    assert.equal(runInNewContext('typeof gc'), 'undefined', 'a context made afterwards (a worker’s) gets none either');
    // A real collection frees what nothing references: a weak reference to it is cleared (once the
    // job that made the reference has ended: until then the target is kept).
    const weak = new WeakRef({ large: new Array(1000).fill(0) });
    await new Promise((resolve) => setImmediate(resolve));
    collect!();
    assert.equal(weak.deref(), undefined);
  });
});

/** A young generation of `bytes` that shrinks to `shrunk` at the `shrinksAt`-th scavenge; records V8-style gc calls. */
function youngGeneration(bytes: number, shrinksAt: number, shrunk = 1 * MiB) {
  const calls: string[] = [];
  let size = bytes;
  const gc: Collector = (options) => {
    calls.push(options?.type ?? 'major');
    if (options?.type === 'minor' && calls.length === shrinksAt) size = shrunk;
  };
  return { calls, gc, youngBytes: () => size };
}

describe('the young generation’s trim', () => {
  const options = { goalBytes: 2 * MiB, gapMs: 0, maxScavenges: 30 };

  it('scavenges until the young generation is down to goalBytes, and no more (no full collection)', async () => {
    const young = youngGeneration(16 * MiB, 13);
    assert.equal(await trimYoungGeneration({ ...options, ...young }), 13);
    assert.deepEqual(young.calls, Array<string>(13).fill('minor'));
  });

  it('stops after maxScavenges when the young generation does not shrink', async () => {
    const young = youngGeneration(16 * MiB, Number.POSITIVE_INFINITY);
    assert.equal(await trimYoungGeneration({ ...options, maxScavenges: 5, ...young }), 5);
    assert.deepEqual(young.calls, ['minor', 'minor', 'minor', 'minor', 'minor']);
  });

  it('ends at its next step once the service is stopping', async () => {
    const young = youngGeneration(16 * MiB, Number.POSITIVE_INFINITY);
    let stopping = false;
    const trimmed = trimYoungGeneration({ ...options, maxScavenges: 1000, ...young, stopped: () => stopping });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stopping = true;
    const scavenges = await trimmed;
    assert.ok(scavenges >= 1 && scavenges < 1000, `${scavenges} scavenges`);
    assert.equal(young.calls.length, scavenges);
  });

  it('does nothing when the young generation is at goalBytes already', async () => {
    const young = youngGeneration(2 * MiB, 1);
    assert.equal(await trimYoungGeneration({ ...options, ...young }), 0);
    assert.deepEqual(young.calls, []);
  });

  it('gives V8’s young generation back once nothing allocates (real scavenges)', async () => {
    // Survivors of many scavenges make V8 double the semi-spaces: keep ~24 MB alive while allocating.
    const kept: number[][] = [];
    for (let index = 0; index < 300_000; index++) kept.push([index, index + 1]);
    const grown = youngGenerationBytes();
    assert.ok(grown > YOUNG_GENERATION_TRIM.goalBytes, `the young generation grew (${grown} bytes)`);
    kept.length = 0;
    const scavenges = await trimYoungGeneration();
    const trimmed = youngGenerationBytes();
    assert.ok(trimmed <= YOUNG_GENERATION_TRIM.goalBytes, `${grown} -> ${trimmed} bytes after ${scavenges} scavenges`);
    assert.ok(scavenges > 0 && scavenges < YOUNG_GENERATION_TRIM.maxScavenges, `${scavenges} scavenges`);
  });

  it('runs on a quiet look, not on a busy one, and one trim at a time', async () => {
    const { state, check, stop } = looking();
    state.utilization = 0.5;
    check();
    assert.equal(state.trims, 0);
    state.utilization = 0.01;
    check();
    assert.equal(state.trims, 1);
    stop();
    let calls = 0;
    let finish = (): void => undefined;
    const idle = startIdleCollection({ everyMs: 3_600_000, growthBytes: MiB, quietUtilization: 0.05, collect: () => undefined, memory: () => 0, utilization: () => 0, trim: () => {
      calls++;
      return calls === 1 ? new Promise<number>((resolve) => (finish = () => resolve(7))) : Promise.resolve(8);
    } });
    const first = idle.trim();
    const second = idle.trim();
    assert.equal(calls, 1, 'a second trim while the first runs joins it');
    finish();
    assert.deepEqual(await Promise.all([first, second]), [7, 7]);
    assert.equal(await idle.trim(), 8);
    assert.equal(calls, 2, 'a trim after the first ended runs again');
    idle.stop();
  });
});
