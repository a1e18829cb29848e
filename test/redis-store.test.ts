// Rate limits shared through a real redis-server, and what happens while it is down or stalled.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { createLogger } from '../kernel/host/logger.js';
import { errors } from '../kernel/http/middleware/errors.js';
import { rateLimit } from '../kernel/http/middleware/rate-limit.js';
import type { HitResult, HitStore } from '../kernel/http/rate-limit/store.js';
import { createRedisStore, type RedisHitStore } from '../kernel/http/rate-limit/redis-store.js';
import type { KernelState } from '../kernel/http/types.js';
import { send } from './support/http.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';

interface Line {
  level: 'warn' | 'info';
  obj: object;
  msg: string;
}

/** A store with a logger that records what it says. */
async function store(url: string, windowMs = 60_000, commandTimeoutMs?: number): Promise<RedisHitStore & { lines: Line[] }> {
  const lines: Line[] = [];
  const logger = {
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
    info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
  };
  const created = await createRedisStore({ url, windowMs, logger, commandTimeoutMs });
  closers.push(() => created.close());
  return Object.assign(created, { lines });
}

/** Polls `condition` up to `attempts` times, 100 ms apart: bounded by count, whatever the machine. */
async function eventually(condition: () => boolean, attempts = 100): Promise<boolean> {
  for (let attempt = 0; attempt < attempts && !condition(); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
  return condition();
}

const pick = ({ admitted, remaining, total }: HitResult) => ({ admitted, remaining, total });

/** Hits `count` times and returns the slowest hit in ms; the store must answer every one. */
async function slowest(target: HitStore, key: string, max: number, count: number): Promise<number> {
  let worst = 0;
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await target.hit(key, max, 60_000);
    worst = Math.max(worst, performance.now() - started);
  }
  return worst;
}

let redis: RedisServer;
const closers: (() => Promise<unknown>)[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// No bound this loose can fail on a busy machine; the measured figures are printed as diagnostics.
const GENEROUS_MS = 1000;

before(async () => {
  redis = await startRedisServer();
});
after(async () => {
  await Promise.all(closers.map((close) => close()));
  await redis?.stop();
});

describe('Redis rate-limit store', () => {
  it('shares one limit between two instances: 30 hits spread over both, the 31st refused by either', async () => {
    const [a, b] = [await store(redis.url, 60_000, GENEROUS_MS), await store(redis.url, 60_000, GENEROUS_MS)];
    for (let index = 0; index < 30; index++) {
      const result = await (index % 2 === 0 ? a : b).hit('ip:203.0.113.9', 30, 60_000);
      assert.deepEqual({ admitted: result.admitted, remaining: result.remaining, total: result.total }, { admitted: true, remaining: 29 - index, total: 30 });
      assert.ok(result.resetMs > 0 && result.resetMs <= 60_000, `resetMs ${result.resetMs}`);
    }
    assert.equal((await a.hit('ip:203.0.113.9', 30, 60_000)).admitted, false);
    assert.equal((await b.hit('ip:203.0.113.9', 30, 60_000)).admitted, false);
    assert.equal((await a.hit('ip:203.0.113.10', 30, 60_000)).remaining, 29, 'another client has its own count');
    assert.deepEqual([a.counted(), b.counted()], [{ fallbacks: 0, mode: 'redis', refused: 0 }, { fallbacks: 0, mode: 'redis', refused: 0 }]);
    assert.deepEqual([...a.lines, ...b.lines], []);
  });

  it('takes a run\'s extra cost only when all of it fits, shared by two instances, counting nothing when it does not', async () => {
    const [a, b] = [await store(redis.url, 60_000, GENEROUS_MS), await store(redis.url, 60_000, GENEROUS_MS)];
    const key = 'key:recipes';
    assert.equal((await a.hit(key, 5, 60_000)).remaining, 4);
    // A 3-step recipe: its first request above, two more here.
    assert.deepEqual(pick(await b.take(key, 5, 60_000, 2)), { admitted: true, remaining: 2, total: 5 });
    assert.equal((await a.hit(key, 5, 60_000)).remaining, 1);
    // Two more do not fit in the one left: refused, and the count stays at 4.
    assert.deepEqual(pick(await a.take(key, 5, 60_000, 2)), { admitted: false, remaining: 1, total: 5 });
    assert.deepEqual(pick(await b.hit(key, 5, 60_000)), { admitted: true, remaining: 0, total: 5 });
    // A take on a key with no count yet starts its window.
    const fresh = await a.take('key:fresh', 5, 60_000, 3);
    assert.deepEqual(pick(fresh), { admitted: true, remaining: 2, total: 5 });
    assert.ok(fresh.resetMs > 0 && fresh.resetMs <= 60_000);
    const client = new Redis(redis.url);
    closers.push(() => client.quit());
    const ttl = await client.pttl('toolshed:rl:key:fresh');
    assert.ok(ttl > 0 && ttl <= 60_000, `the key expires with its window (${ttl} ms)`);
  });

  it('namespaces its keys and lets them expire with the window', async () => {
    // Two seconds, not 500 ms: a stall of a busy machine between the hit and the PTTL read must not
    // let the key expire.
    const WINDOW_MS = 2000;
    const s = await store(redis.url, WINDOW_MS, GENEROUS_MS);
    const raw = new Redis(redis.url);
    closers.push(() => raw.quit());
    const first = await s.hit('key:ci', 1, WINDOW_MS);
    assert.equal(first.admitted, true);
    const ttl = await raw.pttl('toolshed:rl:key:ci');
    assert.ok(ttl > 0 && ttl <= WINDOW_MS, `PTTL ${ttl}`);
    // Sleeping past the reported end of the window: Redis's own clock decides, not this machine's.
    await sleep(first.resetMs + 100);
    assert.equal(await raw.exists('toolshed:rl:key:ci'), 0);
    const next = await s.hit('key:ci', 1, WINDOW_MS);
    assert.deepEqual([next.admitted, next.remaining], [true, 0], 'a new window');
    assert.ok(next.resetMs > 0 && next.resetMs <= WINDOW_MS, `resetMs ${next.resetMs}`);
  });

  it('answers through the middleware with the same headers as the memory limiter, shared by two apps', async () => {
    const urls: string[] = [];
    for (let instance = 0; instance < 2; instance++) {
      const app = new Koa<KernelState>();
      app.use(errors(createLogger('silent')));
      // Counting, not timing, is the subject: a command slower than 100 ms on a busy machine would
      // send this app to its own memory and split the count.
      app.use(rateLimit({ windowSeconds: 60, anonymousMax: 3, apiKeyMax: 10, store: await store(redis.url, 60_000, GENEROUS_MS) }).middleware);
      app.use((ctx) => void (ctx.body = { ok: true }));
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      closers.push(() => new Promise((resolve) => server.close(resolve)));
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    }
    const answers = [];
    for (let index = 0; index < 4; index++) answers.push(await send(urls[index % 2] as string, '/v1/x', { body: {} }));
    assert.deepEqual(answers.map((answer) => [answer.status, answer.headers['ratelimit-limit'], answer.headers['ratelimit-remaining']]), [
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ]);
    const refused = answers[3]!;
    assert.equal((refused.json as { error: { code: string } }).error.code, 'rate_limited');
    for (const answer of answers) {
      const reset = Number(answer.headers['ratelimit-reset']);
      assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `reset ${reset}`);
    }
    assert.equal(refused.headers['retry-after'], refused.headers['ratelimit-reset']);
  });

  it('falls back to memory at once when Redis dies, logs the switch once, and shares again when it is back', async (t: TestContext) => {
    // Generous command timeouts: with the default 100 ms, one slow command on a busy machine sent a
    // store to its own memory while Redis was up, and the two counted apart (4, not 3). With Redis
    // down a command fails at once whatever its timeout (no offline queue).
    const [a, b] = [await store(redis.url, 60_000, GENEROUS_MS), await store(redis.url, 60_000, GENEROUS_MS)];
    assert.equal((await a.hit('ip:198.51.100.7', 5, 60_000)).remaining, 4);
    assert.equal((await b.hit('ip:198.51.100.7', 5, 60_000)).remaining, 3);
    await redis.kill();
    // Each instance now counts alone: 5 of its own hits are admitted, the 6th refused.
    const worst = Math.max(await slowest(a, 'ip:198.51.100.8', 5, 5), await slowest(b, 'ip:198.51.100.8', 5, 5));
    t.diagnostic(`slowest hit while Redis is down: ${worst.toFixed(1)} ms`);
    assert.ok(worst < GENEROUS_MS, `a hit took ${worst} ms`);
    assert.equal((await a.hit('ip:198.51.100.8', 5, 60_000)).admitted, false);
    assert.equal((await b.hit('ip:198.51.100.8', 5, 60_000)).admitted, false);
    for (const s of [a, b]) {
      assert.deepEqual(s.counted(), { fallbacks: 1, mode: 'memory', refused: 0 });
      assert.deepEqual(s.lines.map((line) => line.level), ['warn'], 'the switch is logged once, not per request');
      assert.ok(!JSON.stringify(s.lines).includes('198.51.100'), 'no client id is logged');
    }
    // An instance started while Redis is down starts in memory, within about a second.
    const started = performance.now();
    const late = await store(redis.url, 60_000, GENEROUS_MS);
    t.diagnostic(`store created with Redis down in ${(performance.now() - started).toFixed(1)} ms`);
    assert.deepEqual(late.counted(), { fallbacks: 1, mode: 'memory', refused: 0 });

    await redis.restart();
    assert.ok(await eventually(() => [a, b, late].every((s) => s.counted().mode === 'redis')), 'shared counting resumes');
    for (const s of [a, b, late]) assert.deepEqual(s.lines.map((line) => line.level), ['warn', 'info']);
    const results = [];
    for (const s of [a, b, late, a]) results.push(await s.hit('ip:198.51.100.9', 3, 60_000));
    assert.deepEqual(results.map((result) => result.admitted), [true, true, true, false]);
  });

  it('falls back when Redis stalls with the connection open, and returns to it when it answers', async (t: TestContext) => {
    // The stall is found by the command timeout: half the generous bound, so that a slow command on a
    // busy machine before the stall is not taken for one, and a stalled hit still ends well within it.
    const a = await store(redis.url, 60_000, GENEROUS_MS / 2);
    assert.equal((await a.hit('ip:192.0.2.1', 100, 60_000)).remaining, 99);
    redis.pause();
    try {
      const worst = await slowest(a, 'ip:192.0.2.1', 100, 10);
      t.diagnostic(`slowest hit while Redis is stalled: ${worst.toFixed(1)} ms`);
      assert.ok(worst < GENEROUS_MS, `a hit took ${worst} ms`);
      assert.deepEqual(a.counted(), { fallbacks: 1, mode: 'memory', refused: 0 });
    } finally {
      redis.resume();
    }
    assert.ok(await eventually(() => a.counted().mode === 'redis'), 'the probe finds Redis answering again');
    assert.deepEqual(a.lines.map((line) => line.level), ['warn', 'info']);
    assert.equal((await a.hit('ip:192.0.2.1', 100, 60_000)).admitted, true);
  });

  it('stays in memory, logged once, while Redis answers but refuses writes, and returns when it accepts them', async () => {
    const a = await store(redis.url, 60_000, GENEROUS_MS);
    const raw = new Redis(redis.url);
    closers.push(() => raw.quit());
    // maxmemory 1 byte with noeviction: every write is refused with OOM, reads and PING still work.
    await raw.config('SET', 'maxmemory-policy', 'noeviction');
    await raw.config('SET', 'maxmemory', '1');
    try {
      assert.equal((await a.hit('ip:192.0.2.2', 2, 60_000)).remaining, 1, 'counted in memory');
      assert.deepEqual(a.counted(), { fallbacks: 1, mode: 'memory', refused: 0 });
      // Several probe periods (1 s each): the probe writes too, so the store does not flap back.
      await sleep(2500);
      assert.deepEqual(a.counted(), { fallbacks: 1, mode: 'memory', refused: 0 });
    } finally {
      await raw.config('SET', 'maxmemory', '0');
    }
    assert.ok(await eventually(() => a.counted().mode === 'redis'), 'the probe finds Redis writable again');
    assert.deepEqual(a.lines.map((line) => line.level), ['warn', 'info']);
  });
});
