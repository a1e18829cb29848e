// GET /metrics (issue 12) over real HTTP: off by default, exact counters by operation and status,
// rate-limit refusals, the worker pool and Redis read at scrape, and no label ever made from a path.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { digestApiKey, generateApiKey } from '../kernel/http/api-keys.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { startRedisServer } from './support/redis-server.js';
import { buildTestService, type InProcessService } from './support/service.js';

const services: InProcessService[] = [];
after(() => Promise.all(services.map((service) => service.stop())));

/** A service with the real base64 plugin only. */
async function start(config: Record<string, unknown>, options: { bodyLimit?: number } = {}): Promise<InProcessService> {
  const service = await buildTestService({ plugins: { enabled: ['base64'] }, ...config }, { builtinDir: builtinPluginDir, ...options });
  services.push(service);
  return service;
}

async function scrape(service: InProcessService): Promise<string> {
  const answer = await send(service.url, '/metrics', { method: 'GET' });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return answer.text;
}

/** The exposition's sample lines (no # HELP / # TYPE). */
const samples = (text: string): string[] => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

/** The value of the sample line that is exactly `series`, or undefined. */
function value(text: string, series: string): number | undefined {
  const line = samples(text).find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const encode = '/v1/base64/encode';

describe('GET /metrics', () => {
  it('is an unknown path (404 not_found) while metrics.enabled is false, the default', async () => {
    const service = await start({});
    const metrics = await send(service.url, '/metrics', { method: 'GET' });
    const unknown = await send(service.url, '/no-such-path', { method: 'GET' });
    assert.equal(metrics.status, 404);
    assert.deepEqual(metrics.json, unknown.json);
    assert.equal((metrics.json as { error: { code: string } }).error.code, 'not_found');
  });

  it('is outside the rate limit only when enabled: off, it counts and carries RateLimit headers as any unknown path (README)', async () => {
    const readme = (await readFile(new URL('../../README.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
    assert.ok(readme.includes('CORS preflights and, with `metrics.enabled: true`, `/metrics` are outside the limit and carry none'), 'README: on');
    assert.ok(readme.includes('with metrics off (the default), `/metrics` is an unknown path, a 404 that counts and carries the headers'), 'README: off');
    const limits = { rateLimit: { anonymous: { max: 3 } } };
    const off = await start(limits);
    const remaining = async (service: InProcessService, path: string, method = 'GET'): Promise<[number, string | undefined]> => {
      const answer = await send(service.url, path, method === 'GET' ? { method } : { body: { text: 'x' } });
      return [answer.status, answer.headers['ratelimit-remaining'] as string | undefined];
    };
    assert.deepEqual(await remaining(off, '/metrics'), [404, '2']);
    assert.deepEqual(await remaining(off, '/metrics'), [404, '1']);
    assert.deepEqual(await remaining(off, encode, 'POST'), [200, '0']);
    const on = await start({ ...limits, metrics: { enabled: true } });
    for (let scrape = 0; scrape < 4; scrape++) assert.deepEqual(await remaining(on, '/metrics'), [200, undefined]);
    // Four scrapes spent nothing: the first request counted is the first of the window.
    assert.deepEqual(await remaining(on, encode, 'POST'), [200, '2']);
  });

  it('counts answers by operation id and status, with exact lines, and latency histograms beside them', async () => {
    const service = await start({ metrics: { enabled: true } });
    assert.equal((await send(service.url, encode, { body: { text: 'hi' } })).status, 200);
    assert.equal((await send(service.url, encode, { body: { text: 'ho' } })).status, 200);
    assert.equal((await send(service.url, encode, { body: { text: 5 } })).status, 400);
    assert.equal((await send(service.url, '/v1/nope', { body: {} })).status, 404);
    assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
    const text = await scrape(service);
    const lines = samples(text);
    assert.ok(lines.includes('toolshed_http_requests_total{operation="base64.encode",status="200"} 2'), text);
    assert.ok(lines.includes('toolshed_http_requests_total{operation="base64.encode",status="400"} 1'), text);
    assert.ok(lines.includes('toolshed_http_requests_total{operation="none",status="404"} 1'), text);
    assert.ok(lines.includes('toolshed_http_requests_total{operation="none",status="200"} 1'), text);
    assert.equal(lines.filter((line) => line.startsWith('toolshed_http_requests_total')).length, 4, 'the scrapes themselves are not counted');
    assert.ok(lines.includes('toolshed_http_request_duration_seconds_count{operation="base64.encode",status="200"} 2'), text);
    assert.ok(lines.includes('toolshed_http_request_duration_seconds_bucket{le="+Inf",operation="base64.encode",status="200"} 2'), text);
    assert.ok((value(text, 'toolshed_http_request_duration_seconds_sum{operation="base64.encode",status="200"}') ?? -1) > 0);
    // Node's process metrics, from prom-client's defaults.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.ok(value(text, name) !== undefined, `${name} is exposed`);
    }
    assert.equal((await send(service.url, '/metrics', { method: 'HEAD' })).status, 200);
  });

  it('sees the kernel statuses of every stage: 401, 413, 405, 429 — and counts refusals by client kind', async () => {
    const key = generateApiKey();
    const service = await start(
      { metrics: { enabled: true }, auth: { apiKeys: [{ name: 'ci', sha256: digestApiKey(key) }] }, rateLimit: { anonymous: { max: 4 }, apiKey: { max: 1 } } },
      { bodyLimit: 1024 },
    );
    const headers = { Authorization: `Bearer ${key}` };
    assert.equal((await send(service.url, encode, { body: { text: 'x' }, headers: { Authorization: 'Bearer tsk_wrong' } })).status, 401);
    assert.equal((await send(service.url, encode, { body: { text: 'x'.repeat(2048) } })).status, 413);
    assert.equal((await send(service.url, encode, { method: 'GET' })).status, 405);
    assert.equal((await send(service.url, encode, { body: { text: 'x' } })).status, 200);
    assert.equal((await send(service.url, encode, { body: { text: 'x' } })).status, 429);
    assert.equal((await send(service.url, encode, { body: { text: 'x' }, headers })).status, 200);
    assert.equal((await send(service.url, encode, { body: { text: 'x' }, headers })).status, 429);
    assert.equal((await send(service.url, '/v1/elsewhere', { body: { text: 'x' }, headers })).status, 429);
    const text = await scrape(service);
    const lines = samples(text);
    for (const [status, count] of [['401', 1], ['413', 1], ['405', 1], ['200', 2], ['429', 2]] as const) {
      assert.ok(lines.includes(`toolshed_http_requests_total{operation="base64.encode",status="${status}"} ${count}`), `${status}\n${text}`);
    }
    assert.ok(lines.includes('toolshed_http_requests_total{operation="none",status="429"} 1'), text);
    assert.ok(lines.includes('toolshed_rate_limit_refusals_total{client="anonymous"} 1'), text);
    assert.ok(lines.includes('toolshed_rate_limit_refusals_total{client="api_key"} 2'), text);
    assert.ok(!text.includes('"ci"'), 'key names are not labels');
  });

  it('never makes a label of the path: a thousand unknown paths add no series', async () => {
    const service = await start({ metrics: { enabled: true } });
    const http = (text: string): string[] => samples(text).filter((line) => line.startsWith('toolshed_http_'));
    assert.deepEqual(http(await scrape(service)), []);
    for (let index = 0; index < 1000; index++) {
      const path = index % 2 === 0 ? `/v1/nope-${index}` : `/x${index}?q=${index}`;
      assert.equal((await send(service.url, path, { body: {} })).status, 404);
    }
    // Also a path that tries to break out of the label syntax.
    assert.equal((await send(service.url, '/v1/"}evil{a="b', { body: {} })).status, 404);
    const text = await scrape(service);
    assert.ok(samples(text).includes('toolshed_http_requests_total{operation="none",status="404"} 1001'), text);
    assert.ok(!/nope|evil|x999/.test(text), 'no path in the exposition');
    // One counter series and one histogram (15 buckets, +Inf, sum, count); nothing per path.
    assert.equal(http(text).length, 1 + 18);
  });

  it('reads the worker pool at each scrape: queue length, running jobs, time-outs', async () => {
    const service = await start({ metrics: { enabled: true } });
    const jobs = new URL('../kernel/host/pool/fixtures/worker-jobs.js', import.meta.url);
    let text = await scrape(service);
    assert.equal(value(text, 'toolshed_worker_pool_queued'), 0);
    assert.equal(value(text, 'toolshed_worker_jobs_timeouts_total'), 0);
    await assert.rejects(service.host.runInWorker(jobs, 'spin', [], { deadlineMs: 200 }), { name: 'WorkerJobError', reason: 'timeout' });
    text = await scrape(service);
    assert.equal(value(text, 'toolshed_worker_jobs_timeouts_total'), 1);
    assert.equal(value(text, 'toolshed_worker_pool_running'), 0);
    assert.equal(value(text, 'toolshed_worker_jobs_refused_total'), 0);
    assert.ok(value(text, 'toolshed_worker_pool_threads') !== undefined);
  });

  it('keeps a registry per service: two services in one process count apart', async () => {
    const [a, b] = [await start({ metrics: { enabled: true } }), await start({ metrics: { enabled: true } })];
    assert.equal((await send(a.url, encode, { body: { text: 'a' } })).status, 200);
    assert.ok(samples(await scrape(a)).includes('toolshed_http_requests_total{operation="base64.encode",status="200"} 1'));
    assert.ok(!(await scrape(b)).includes('toolshed_http_requests_total{'), 'b answered nothing yet');
  });

  it('with a Redis store, says whether limits are shared and counts the falls back to memory', async () => {
    const redis = await startRedisServer();
    try {
      // A generous command timeout: one reply late by the default 100 ms would count a fall back.
      const service = await start({ metrics: { enabled: true }, rateLimit: { redis: { url: redis.url, commandTimeoutMs: 10_000 } } });
      let text = await scrape(service);
      assert.equal(value(text, 'toolshed_rate_limit_redis_up'), 1);
      assert.equal(value(text, 'toolshed_rate_limit_redis_fallbacks_total'), 0);
      await redis.kill();
      // This request either finds the store in memory mode already or fails its command and switches.
      assert.equal((await send(service.url, encode, { body: { text: 'x' } })).status, 200);
      text = await scrape(service);
      assert.equal(value(text, 'toolshed_rate_limit_redis_up'), 0);
      assert.equal(value(text, 'toolshed_rate_limit_redis_fallbacks_total'), 1);
    } finally {
      await redis.stop();
    }
    // Without Redis there is nothing to report.
    const memory = await start({ metrics: { enabled: true } });
    assert.equal(value(await scrape(memory), 'toolshed_rate_limit_redis_up'), undefined);
  });
});
