import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore, GenerationMap } from '../kernel/rate-limit/memory-store.js';

describe('memory rate-limit store', () => {
  it('keeps an entry through one rotation and forgets it at the second, whole', () => {
    const db = new GenerationMap<string, number>();
    assert.ok(db instanceof Map, 'koa-ratelimit asserts instanceof Map');
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

  it('hands koa-ratelimit a Map and clears it on close', async () => {
    const store = createMemoryStore(60_000);
    const db = store.driver.db as Map<string, unknown>;
    db.set('ip:1', { reset: 1 });
    assert.equal(db.size, 1);
    await store.close();
    assert.equal(db.size, 0);
  });
});
