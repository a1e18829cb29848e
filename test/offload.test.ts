// Large requests do all their work on the worker pool; the main thread keeps answering meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LONG_ANSWER_CHARS } from '../kernel/host/answer.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  // 5 s: small jobs must finish inside the budget even on a loaded machine; only the spin test
  // waits it out.
  service = await buildTestService({ workers: { offloadBytes: 1024, requestBudgetMs: 5000 }, server: { maxAnswerBytes: 64 * 1024 } });
});
after(() => service.stop());

const echo = '/v1/kernel-probe/echo';
const errorOf = (json: unknown) => (json as { error: { code: string; message: string; details?: unknown } }).error;

describe('offloading large requests to the worker pool', () => {
  it('answers a body over workers.offloadBytes from a worker, exactly as on the main thread', async () => {
    const before = service.host.poolStats().completed;
    const text = 'é'.repeat(2000);
    const answer = await send(service.url, echo, { body: { text, tags: ['a'] } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { text, count: 1, mode: 'a', tags: ['a'] });
    assert.equal(service.host.poolStats().completed, before + 1, 'one job ran on the pool');
    const small = await send(service.url, echo, { body: { text: 'x' } });
    assert.equal(small.status, 200);
    assert.equal(service.host.poolStats().completed, before + 1, 'a small body stays on the main thread');
  });

  it('brings back 400s with their details and 422s from the worker', async () => {
    const invalid = await send(service.url, echo, { body: `{"text":"${'a'.repeat(2000)}",}`, headers: { 'Content-Type': 'application/json' } });
    assert.equal(invalid.status, 400);
    assert.equal(errorOf(invalid.json).code, 'invalid_json');
    // `{"text":"` is columns 1–9, the a's 10–2009, `"` 2010, `,` 2011: the `}` at 2012 is unexpected.
    assert.match(errorOf(invalid.json).message, /line 1, column 2012/);
    const wrong = await send(service.url, echo, { body: { text: 'a'.repeat(2000), count: 'many' } });
    assert.equal(wrong.status, 400);
    assert.deepEqual(errorOf(wrong.json).details, [{ path: '/count', message: 'must be an integer' }]);
    const declared = await send(service.url, '/v1/kernel-probe/declared', { body: { text: 'a'.repeat(2000) } });
    assert.equal(declared.status, 422);
    assert.equal(errorOf(declared.json).code, 'declared_problem');
    const bug = await send(service.url, '/v1/kernel-probe/crash', { body: { text: 'secret'.repeat(400) } });
    assert.equal(bug.status, 500);
    assert.ok(!service.logs.join('').includes('secret'), 'the input never reaches the log');
  });

  it('ends work past the budget with 422 input_too_complex while /healthz keeps answering', async () => {
    const spinning = send(service.url, '/v1/kernel-probe/spin', { body: {} });
    // The main thread is free: health answers while the worker spins.
    for (let probe = 0; probe < 3; probe++) assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
    const answer = await spinning;
    assert.equal(answer.status, 422);
    assert.equal(errorOf(answer.json).code, 'input_too_complex');
  });

  it('lets a handler on the pool use the pool itself (a nested, one-thread pool)', async () => {
    const answer = await send(service.url, '/v1/kernel-probe/nested', { body: { text: 'ab' } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { text: 'abab' });
  });

  it('refuses an answer over server.maxAnswerBytes with 422 output_too_large', async () => {
    const answer = await send(service.url, echo, { body: { text: 'a'.repeat(70 * 1024) } });
    assert.equal(answer.status, 422);
    assert.equal(errorOf(answer.json).code, 'output_too_large');
  });
});

describe('operations declaring linear work (cost: linear) keep larger bodies on the main thread', () => {
  let builtins: InProcessService;
  before(async () => {
    builtins = await buildTestService({ workers: { offloadBytes: 1024, linearOffloadBytes: 8192, requestBudgetMs: 5000 } }, { builtinDir: builtinPluginDir });
  });
  after(() => builtins.stop());
  const jobsFor = async (path: string, text: string): Promise<number> => {
    const before = builtins.host.poolStats().completed;
    const answer = await send(builtins.url, path, { body: { text } });
    assert.equal(answer.status, 200);
    return builtins.host.poolStats().completed - before;
  };

  it('runs base64/encode of a 4 KiB body here (over workers.offloadBytes, under workers.linearOffloadBytes) and of a 10 KiB body on the pool', async () => {
    assert.equal(await jobsFor('/v1/base64/encode', 'a'.repeat(4096)), 0);
    assert.equal(await jobsFor('/v1/base64/encode', 'a'.repeat(10_240)), 1);
    const answer = await send(builtins.url, '/v1/base64/encode', { body: { text: 'abc'.repeat(1400) } });
    assert.deepEqual(answer.json, { base64: Buffer.from('abc'.repeat(1400)).toString('base64') });
  });

  it('runs hash-generator/hash of a 4 KiB body here too, and word-counter (not linear) of the same body on the pool', async () => {
    assert.equal(await jobsFor('/v1/hash-generator/hash', 'a'.repeat(4096)), 0);
    assert.equal(await jobsFor('/v1/word-counter/stats', 'a '.repeat(2048)), 1);
  });

  it('runs text-diff (cost: superlinear) of a 512-byte body here and of a larger one on the pool, though under workers.offloadBytes', async () => {
    for (const path of ['/v1/text-diff/lines', '/v1/text-diff/inline']) {
      for (const [bytes, jobs] of [[512, 0], [513, 1]] as const) {
        const before = builtins.host.poolStats().completed;
        const frame = JSON.stringify({ original: '', changed: 'b' }).length;
        const body = { original: 'a'.repeat(bytes - frame), changed: 'b' };
        assert.equal(JSON.stringify(body).length, bytes);
        const answer = await send(builtins.url, path, { body });
        assert.equal(answer.status, 200);
        assert.equal((answer.json as { identical: boolean }).identical, false);
        assert.equal(builtins.host.poolStats().completed - before, jobs, `${path}, ${bytes} bytes`);
      }
    }
  });
});

describe('long answers from the main thread go out as their UTF-8 bytes, encoded once', () => {
  let builtins: InProcessService;
  before(async () => {
    builtins = await buildTestService({ server: { maxAnswerBytes: 48 * 1024 } }, { builtinDir: builtinPluginDir });
  });
  after(() => builtins.stop());
  const decode = (text: string) => send(builtins.url, '/v1/base64/decode', { body: { base64: Buffer.from(text).toString('base64') } });

  it('sends an answer of LONG_ANSWER_CHARS or more with its exact Content-Length', async () => {
    // 'é' is 2 bytes of UTF-8 and '€' 3: 20,000 characters, 50,000 bytes of text, over the 16 Ki
    // characters from which the answer is sent as bytes. The body (66,668 characters of base64)
    // is under workers.linearOffloadBytes, so base64 decodes it on the main thread.
    const text = 'é€'.repeat(10_000);
    assert.ok(text.length >= LONG_ANSWER_CHARS);
    const capped = await decode(text);
    assert.equal(capped.status, 422, '50,000 bytes of text do not fit 48 KiB');
    assert.equal(errorOf(capped.json).code, 'output_too_large');
    const fits = 'é€'.repeat(9_000);
    const answer = await decode(fits);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { text: fits });
    // {"text":"…"}: 11 bytes around 45,000 of text.
    assert.equal(answer.headers['content-length'], '45011');
  });

  it('refuses a long answer of one-byte characters over the cap with 422 output_too_large', async () => {
    const answer = await decode('a'.repeat(50 * 1024));
    assert.equal(answer.status, 422);
    assert.equal(errorOf(answer.json).code, 'output_too_large');
  });
});
