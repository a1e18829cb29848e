// A Redis that does not answer, as an operator meets it (issue 47, item 12): a wrong or unreachable
// URL passed `config check`, and the service counted each instance alone, seen only in one log
// line. Now the operator chooses (rateLimit.redis.unavailable: local | refuse), `config check
// --connect` tries the URL, and the fallback shows in /healthz's body and in /metrics. Against a
// real redis-server on 127.0.0.1, killed and started again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { send, type Answer } from './support/http.js';
import { offlineEnv, repoRoot } from './support/packages.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { inProcessStarter, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

let redis: RedisServer;
let scratch: string;
// Made before the `after` below, so that its services stop (its own `after`) before Redis does.
const build = inProcessStarter();

before(async () => {
  redis = await startRedisServer();
  scratch = tempFolder('toolshed-redis-check-');
});
after(async () => {
  await redis?.stop();
});

// A generous command timeout unless a test sets its own: a killed Redis fails each command at once
// (no offline queue), while one reply late by 100 ms (the default) on a busy machine would fall back.
const start = (redisSection: Record<string, unknown>): Promise<InProcessService> =>
  build({ rateLimit: { anonymous: { max: 100 }, redis: { url: redis.url, commandTimeoutMs: 10_000, ...redisSection } }, metrics: { enabled: true } });

const echo = (service: InProcessService, headers: Record<string, string> = {}): Promise<Answer> => send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' }, headers });
const health = async (service: InProcessService): Promise<unknown> => (await send(service.url, '/healthz', { method: 'GET' })).json;

/** The value of one sample line of /metrics. */
async function sample(service: InProcessService, series: string): Promise<number | undefined> {
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

  it('waits for a stalled Redis up to rateLimit.redis.commandTimeoutMs, and counts there when it answers within it', async () => {
    const service = await start({ commandTimeoutMs: 10_000 });
    assert.equal((await echo(service)).status, 200);
    redis.pause();
    let pending: Promise<Answer>;
    try {
      pending = echo(service);
      // Three times the default 100 ms: with it, this request would have been counted in memory.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      redis.resume();
    }
    const answer = await pending;
    assert.deepEqual([answer.status, answer.headers['ratelimit-remaining']], [200, '98']);
    assert.equal(await sample(service, 'toolshed_rate_limit_redis_fallbacks_total'), 0);
    assert.deepEqual(await health(service), { status: 'ok', rateLimit: 'redis' });
  });

  it('leaves /healthz as it was without Redis', async () => {
    const plain = await build();
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

/** `toolshed config check [args]` with the configuration in `yaml`. */
async function check(yaml: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = path.join(scratch, `config-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, yaml);
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'toolshed.js'), 'config', 'check', file, ...args], { env: offlineEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('toolshed config check --connect', () => {
  it('tries the Redis of rateLimit.redis.url: one that answers passes, one that does not is a problem with its reason', async () => {
    await redis.restart();
    const site = `rateLimit:\n  redis:\n    url: "${redis.url}"\n`;
    const valid = await check(site, '--connect');
    assert.equal(valid.code, 0, valid.stdout);
    assert.match(valid.stdout, new RegExp(`\\nRedis at ${redis.url} answers and runs the rate-limit script: the service will count there\\.\\n$`));
    await redis.kill();
    // Without --connect the check stays offline, and passes as before.
    assert.equal((await check(site)).code, 0);
    const down = await check(site, '--connect');
    assert.deepEqual([down.code, down.stderr], [1, '']);
    assert.equal(down.stdout, `Invalid configuration:\n- /rateLimit/redis/url: Redis at ${redis.url} does not answer as the service needs it (connect ECONNREFUSED 127.0.0.1:${redis.port})\n`);
  });

  it('never prints the password of the URL', async () => {
    const down = await check(`rateLimit:\n  redis:\n    url: "redis://:hunter2@127.0.0.1:${redis.port}/0"\n`, '--connect');
    assert.equal(down.code, 1);
    assert.ok(down.stdout.includes(`Redis at redis://:…@127.0.0.1:${redis.port}/0 does not answer`), down.stdout);
    assert.ok(!down.stdout.includes('hunter2'));
  });

  it('names a wrong password as Redis refuses it, and passes with the right one', async () => {
    await redis.restart();
    const admin = new Redis(redis.url);
    try {
      await admin.config('SET', 'requirepass', 'right-one');
    } finally {
      admin.disconnect();
    }
    try {
      const site = (password: string): string => `rateLimit:\n  redis:\n    url: "redis://:${password}@127.0.0.1:${redis.port}"\n`;
      const wrong = await check(site('wrong-one'), '--connect');
      assert.equal(wrong.code, 1);
      assert.match(wrong.stdout, new RegExp(`^Invalid configuration:\\n- /rateLimit/redis/url: Redis at redis://:…@127\\.0\\.0\\.1:${redis.port} does not answer as the service needs it \\(WRONGPASS [^)]*\\)\\n$`));
      assert.ok(!wrong.stdout.includes('wrong-one'));
      assert.equal((await check(site('right-one'), '--connect')).code, 0);
    } finally {
      // A fresh redis-server has no password again.
      await redis.restart();
    }
  });

  it('says there is nothing to try without a Redis URL', async () => {
    const alone = await check('{}\n', '--connect');
    assert.equal(alone.code, 0);
    assert.match(alone.stdout, /\nNothing to connect to: rateLimit\.redis\.url is unset, so each instance counts its own rate limits\.\n$/);
  });
});
