import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHitStore, GenerationMap } from '../kernel/http/rate-limit/memory-store.js';

describe('memory rate-limit store', () => {
  it('takes a run\'s extra cost only when all of it fits, and counts nothing when it does not', async () => {
    const store = createMemoryHitStore(60_000);
    const pick = ({ admitted, remaining, total }: { admitted: boolean; remaining: number; total: number }) => ({ admitted, remaining, total });
    assert.equal((await store.hit('key:a', 5, 60_000)).remaining, 4);
    assert.deepEqual(pick(await store.take('key:a', 5, 60_000, 2)), { admitted: true, remaining: 2, total: 5 });
    assert.equal((await store.hit('key:a', 5, 60_000)).remaining, 1);
    assert.deepEqual(pick(await store.take('key:a', 5, 60_000, 2)), { admitted: false, remaining: 1, total: 5 });
    assert.deepEqual(pick(await store.hit('key:a', 5, 60_000)), { admitted: true, remaining: 0, total: 5 });
    // A key with no window yet starts one.
    const fresh = await store.take('key:b', 5, 60_000, 5);
    assert.deepEqual(pick(fresh), { admitted: true, remaining: 0, total: 5 });
    assert.ok(fresh.resetMs > 0 && fresh.resetMs <= 60_000);
    await store.close();
  });

  it('keeps an entry through one rotation and forgets it at the second, whole', () => {
    const db = new GenerationMap<string, number>();
    assert.ok(db instanceof Map);
    db.set('a', 1);
    assert.equal(db.get('a'), 1);
    db.rotate();
    // Written one window ago: its own window may still run, so it is still found.
    assert.equal(db.get('a'), 1);
    assert.equal(db.has('a'), true);
    db.set('b', 2);
    db.rotate();
    assert.equal(db.has('a'), false, 'two windows old: gone');
    assert.equal(db.get('b'), 2);
    assert.equal(db.size, 1);
    assert.equal(db.delete('b'), true);
    assert.equal(db.size, 0);
  });

  it('costs the same per request at any number of clients: rotation drops 200,000 entries at once', () => {
    const db = new GenerationMap<string, { reset: number }>();
    for (let client = 0; client < 200_000; client++) db.set(`ip:${client}`, { reset: client });
    db.rotate();
    db.rotate();
    assert.equal(db.size, 0);
  });

  it('counts hits per key in fixed windows: the 4th of max 3 is refused, another key is not', async () => {
    const store = createMemoryHitStore(60_000);
    const results = [];
    for (let hit = 0; hit < 4; hit++) results.push(await store.hit('ip:1', 3, 60_000));
    assert.deepEqual(results.map((result) => [result.admitted, result.remaining]), [[true, 2], [true, 1], [true, 0], [false, 0]]);
    assert.ok(results.every((result) => result.total === 3 && result.resetMs > 0 && result.resetMs <= 60_000));
    assert.equal((await store.hit('ip:2', 3, 60_000)).admitted, true);
    await store.close();
  });
});
