// Two service instances and one real redis-server share the anonymous limit (issue 11).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send } from './support/http.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { buildTestService, type InProcessService } from './support/service.js';

let redis: RedisServer;
const services: InProcessService[] = [];
before(async () => {
  redis = await startRedisServer();
});
after(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await redis?.stop();
});

describe('several instances with Redis', () => {
  it('share one limit: 30 anonymous requests spread over both, the 31st refused by either', async () => {
    // A generous command timeout: counting, not timing, is the subject, and one command slower than
    // the default 100 ms on a busy machine would send an instance to its own memory.
    const config = { rateLimit: { anonymous: { max: 30 }, redis: { url: redis.url, commandTimeoutMs: 10_000 } } };
    for (let index = 0; index < 2; index++) services.push(await buildTestService(config));
    const [a, b] = services as [InProcessService, InProcessService];
    for (let index = 0; index < 30; index++) {
      const answer = await send((index % 2 === 0 ? a : b).url, '/v1/kernel-probe/echo', { body: { text: 'x' } });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['ratelimit-remaining'], String(29 - index));
    }
    assert.equal((await send(a.url, '/v1/kernel-probe/echo', { body: { text: 'x' } })).status, 429);
    assert.equal((await send(b.url, '/v1/kernel-probe/echo', { body: { text: 'x' } })).status, 429);
  });
});
