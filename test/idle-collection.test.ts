// Memory given back once a busy service falls quiet (kernel/idle-collection.ts). The looks are
// called by hand with the memory and the event loop's use the test sets; nothing waits on a timer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { fullCollection, startIdleCollection } from '../kernel/idle-collection.js';

const MiB = 2 ** 20;

/** A collection whose memory and loop use the test sets; `collections` counts full collections. */
function looking(start = 100 * MiB) {
  const state = { memory: start, utilization: 0, collections: 0 };
  const idle = startIdleCollection({
    everyMs: 3_600_000,
    growthBytes: 16 * MiB,
    quietUtilization: 0.05,
    collect: () => state.collections++,
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
