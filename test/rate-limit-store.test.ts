import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore } from '../kernel/rate-limit/memory-store.js';

describe('memory rate-limit store', () => {
  it('sweeps expired windows once it passes its size bound, keeping live ones', async () => {
    const store = createMemoryStore(60_000, 3);
    const db = store.driver.db as Map<string, { reset: number }>;
    const now = Date.now() / 1000;
    db.set('old-1', { reset: now - 1 });
    db.set('old-2', { reset: now - 5 });
    db.set('live-1', { reset: now + 30 });
    store.touch();
    assert.equal(db.size, 3, 'no sweep at the bound');
    db.set('live-2', { reset: now + 30 });
    store.touch();
    assert.deepEqual([...db.keys()].sort(), ['live-1', 'live-2']);
    await store.close();
    assert.equal(db.size, 0);
  });
});
