import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactKey, createMemoryHitStore, GenerationWindows } from '../kernel/http/rate-limit/memory-store.js';

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

  it('keeps a window through one rotation and forgets it at the second, whole', () => {
    const windows = new GenerationWindows();
    const now = 1_000_000;
    assert.equal(windows.hit('ip:10.0.0.1', 5, 600_000, now).remaining, 4);
    windows.rotate();
    // Written one window ago: its own window may still run, so it is still counted.
    assert.equal(windows.hit('ip:10.0.0.1', 5, 600_000, now + 1).remaining, 3);
    assert.equal(windows.size, 2, 'read from the previous generation, written into the current one');
    windows.rotate();
    assert.equal(windows.size, 1, 'the older generation is dropped whole');
    assert.equal(windows.hit('ip:10.0.0.1', 5, 600_000, now + 2).remaining, 2, 'rewritten last window: kept');
    windows.hit('key:b', 5, 600_000, now);
    windows.rotate();
    windows.rotate();
    assert.equal(windows.size, 0);
    assert.equal(windows.hit('key:b', 5, 600_000, now + 3).remaining, 4, 'two windows old: gone, a new window');
  });

  it('starts a new window once the running one has ended, in either generation', () => {
    const windows = new GenerationWindows();
    windows.hit('ip:1', 2, 1000, 0);
    windows.hit('ip:1', 2, 1000, 500);
    assert.equal(windows.hit('ip:1', 2, 1000, 999).admitted, false);
    const fresh = windows.hit('ip:1', 2, 1000, 1000);
    assert.deepEqual([fresh.admitted, fresh.remaining, fresh.resetMs], [true, 1, 1000]);
    windows.rotate();
    assert.equal(windows.hit('ip:1', 2, 1000, 2000).remaining, 1, 'ended in the previous generation: a new window');
  });

  it('costs the same per request at any number of clients: rotation drops 200,000 entries at once', () => {
    const windows = new GenerationWindows();
    for (let client = 0; client < 200_000; client++) windows.hit(`ip:10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`, 30, 60_000, 0);
    assert.equal(windows.size, 200_000);
    windows.rotate();
    windows.rotate();
    assert.equal(windows.size, 0);
  });

  it('counts an IPv4 client under a number, one per address, and every other key as it is', () => {
    const addresses = ['ip:10.0.0.1', 'ip:10.0.0.2', 'ip:0.0.0.0', 'ip:255.255.255.255', 'ip:192.168.1.20', 'ip:1.10.0.0', 'ip:1.1.0.0'];
    const keys = addresses.map(compactKey);
    assert.ok(keys.every((key) => Number.isInteger(key) && (key as number) >= -(2 ** 31) && (key as number) < 2 ** 31), 'a 32-bit integer each');
    assert.equal(new Set(keys).size, addresses.length, 'one to one');
    assert.equal(compactKey('ip:10.0.0.1'), keys[0], 'the same number every time');
    // Not a canonical dotted quad: counted under its text, never merged with an address.
    for (const key of ['ip:010.0.0.1', 'ip:10.0.0.256', 'ip:10.0.0', 'ip:10.0.0.1.2', 'ip:10..0.1', 'ip:10.0.0.', 'ip:2001:db8::/64', 'key:10.0.0.1', 'ip:a.b.c.d']) {
      assert.equal(compactKey(key), key, key);
    }
    // Two clients, two counters: the number and the text never meet.
    const windows = new GenerationWindows();
    windows.hit('ip:10.0.0.1', 5, 60_000, 0);
    assert.equal(windows.hit('ip:010.0.0.1', 5, 60_000, 0).remaining, 4);
    assert.equal(windows.hit('ip:10.0.0.1', 5, 60_000, 0).remaining, 3);
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
