// A Redis that does not answer, as an operator meets it (issue 47, item 12): a wrong or unreachable
// URL passed `config check`, and the service counted each instance alone, seen only in one log
// line. Now the operator chooses (rateLimit.redis.unavailable: local | refuse), and the fallback
// shows in /healthz's body and in /metrics. Against a
// real redis-server on 127.0.0.1, killed and started again.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { send, type Answer } from './support/http.js';
import { repoRoot } from './support/packages.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestService, type TestService } from './support/service.js';

let redis: RedisServer;
const services: TestService[] = [];

before(async () => {
  redis = await startRedisServer();
});
after(async () => {
  await Promise.all(services.map((service) => service.stop()));
  await redis?.stop();
});

async function start(redisSection: Record<string, unknown>): Promise<TestService> {
  const service = await startTestService({ rateLimit: { anonymous: { max: 100 }, redis: { url: redis.url, ...redisSection } }, metrics: { enabled: true } });
  services.push(service);
  return service;
}

const echo = (service: TestService, headers: Record<string, string> = {}): Promise<Answer> => send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' }, headers });
const health = async (service: TestService): Promise<unknown> => (await send(service.url, '/healthz', { method: 'GET' })).json;

/** The value of one sample line of /metrics. */
async function sample(service: TestService, series: string): Promise<number | undefined> {
  const text = (await send(service.url, '/metrics', { method: 'GET' })).text;
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Asks `probe` until it answers `expected`, 100 ms apart, bounded by count; returns the last answer. */
async function eventually<T>(probe: () => Promise<T>, expected: T, attempts = 100): Promise<T> {
  let last = await probe();
  for (let attempt = 0; attempt < attempts && JSON.stringify(last) !== JSON.stringify(expected); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await probe();
  }
  return last;
}

describe('rateLimit.redis.unavailable: local (the default)', () => {
  it('counts alone while Redis is down, and says so in /healthz and /metrics until it is back', async () => {
    const service = await start({});
    assert.deepEqual(await health(service), { status: 'ok', rateLimit: 'redis' });
    assert.equal(await sample(service, 'toolshed_rate_limit_redis_up'), 1);
    await redis.kill();
    // The next requests are answered, counted by this instance.
    assert.equal((await echo(service)).status, 200);
    const counted = await echo(service);
    assert.deepEqual([counted.status, counted.headers['ratelimit-limit']], [200, '100']);
    assert.deepEqual(await eventually(() => health(service), { status: 'ok', rateLimit: 'local' }), { status: 'ok', rateLimit: 'local' });
    assert.equal(await sample(service, 'toolshed_rate_limit_redis_up'), 0);
    assert.equal(await sample(service, 'toolshed_rate_limit_redis_fallbacks_total'), 1);
    await redis.restart();
    assert.deepEqual(await eventually(() => health(service), { status: 'ok', rateLimit: 'redis' }), { status: 'ok', rateLimit: 'redis' });
  });

  it('leaves /healthz as it was without Redis', async () => {
    const plain = await startTestService();
    services.push(plain);
    assert.deepEqual(await health(plain), { status: 'ok' });
  });
});

describe('rateLimit.redis.unavailable: refuse', () => {
  it('answers what the limit counts 503 rate_limit_unavailable while Redis is down, keeps /healthz and /metrics, and serves again once it is back', async () => {
    const service = await start({ unavailable: 'refuse' });
    assert.equal((await echo(service)).status, 200);
    await redis.kill();
    const refused = await eventually(async () => (await echo(service)).status, 503);
    assert.equal(refused, 503);
    const answer = await echo(service);
    assert.equal(answer.status, 503);
    assert.equal((answer.json as { error: { code: string } }).error.code, 'rate_limit_unavailable');
    assert.deepEqual([answer.headers['retry-after'], answer.headers['ratelimit-remaining'], answer.headers['ratelimit-limit']], ['1', '0', '100']);
    // A wrong key is still a wrong key.
    assert.equal((await echo(service, { Authorization: 'Bearer tsk_wrong' })).status, 401);
    assert.deepEqual(await health(service), { status: 'ok', rateLimit: 'refusing' });
    assert.equal(await sample(service, 'toolshed_rate_limit_redis_up'), 0);
    assert.ok((await sample(service, 'toolshed_rate_limit_redis_refused_total'))! >= 2);
    await redis.restart();
    assert.equal(await eventually(async () => (await echo(service)).status, 200), 200);
    assert.deepEqual(await health(service), { status: 'ok', rateLimit: 'redis' });
  });

  it('is documented: the key, its default and the reason, and the 503', async () => {
    const configuration = (await readFile(path.join(repoRoot, 'docs', 'configuration.md'), 'utf8')).replace(/\s+/g, ' ');
    assert.match(configuration, /\| `rateLimit\.redis\.unavailable` \| `local` \| [^|]*`refuse`: every request the limit counts is answered 503 `rate_limit_unavailable`[^|]*The default keeps the service answering/);
    const errors = await readFile(path.join(repoRoot, 'docs', 'errors.md'), 'utf8');
    assert.match(errors, /^\| 503 \| `rate_limit_unavailable` \|/m);
  });
});
