// Composite operations hold to the same rule as a plugin's (issue 44): over workers.offloadBytes,
// a recipe's body is parsed and checked on the pool, identify's parsed there, a step's body written
// and an earlier answer a step reads parsed there, and the main thread only moves their bytes; a
// recipe holds only what a later step reads, counted against its cap.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, type InProcessService } from './support/service.js';

let service: InProcessService;
before(async () => {
  const recipes = { 'text-to-binary': { summary: 'Text as its binary digits', steps: [{ operation: 'text-converter/encode', body: { format: 'binary' } }] } };
  service = await buildTestService({ workers: { offloadBytes: 1024 }, server: { maxAnswerBytes: 64 * 1024 }, recipes }, { builtinDir: builtinPluginDir });
});
after(() => service.stop());

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };
const completed = (): number => service.host.poolStats().completed;

describe('a large recipe', () => {
  it('is parsed and checked on the pool: one job, and its steps (small, linear) stay here', async () => {
    const input = 'a'.repeat(4096);
    const before = completed();
    const answer = await send(service.url, '/v1/recipes/run', { body: { input, steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }] } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.deepEqual(answer.json, { result: { text: input } });
    assert.equal(completed() - before, 1, 'the check ran on the pool, the two steps here');
  });

  it('comes back from its check with the body of a step that reads only the input written, and without the input', async () => {
    // text-converter's bound is workers.offloadBytes (1024 here): its 2,031-byte body runs on the pool.
    const input = 'x'.repeat(2000);
    const before = completed();
    const answer = await send(service.url, '/v1/recipes/run', { body: { input, steps: [{ operation: 'text-converter/encode', body: { format: 'binary' } }] } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    // "x" is 0x78: 01111000, each of the 2,000 joined by a space.
    const { result } = answer.json as { result: { bytes: string; count: number } };
    assert.equal(result.count, 2000);
    assert.ok(result.bytes === Array.from({ length: 2000 }, () => '01111000').join(' '), 'each "x" written as its eight binary digits');
    // Sent as the frame's parts around the step's bytes, with their length.
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.text)));
    assert.equal(completed() - before, 2, 'the check wrote the step body where it parsed the input: no job of its own to write it');
  });

  it('is refused by the check on the pool as on the main thread: 400 naming every place, nothing run', async () => {
    const steps = [{ operation: 'base64/encod' }, { operation: 'base64/decode', body: { base64: 'b'.repeat(2048), extra: true } }];
    const small = await send(service.url, '/v1/recipes/run', { body: { input: 'x', steps: steps.map((step) => ({ operation: step.operation })) } });
    const before = completed();
    const large = await send(service.url, '/v1/recipes/run', { body: { input: 'x', steps } });
    // A refusal is no completed job: nothing ran but the check.
    assert.equal(completed() - before, 0);
    assert.equal(large.status, 400, large.text.slice(0, 300));
    const details = (large.json as ErrorBody).error.details!;
    assert.deepEqual(details[0], (small.json as ErrorBody).error.details![0]);
    assert.deepEqual(details, [
      { path: '/steps/0/operation', message: 'is not an operation; did you mean "base64/encode"?' },
      { path: '/steps/1/body/extra', message: 'is not an allowed property; allowed: base64' },
    ]);
  });
});

describe('a large call of a saved recipe', () => {
  it('is checked on the pool, where its step body is written: two jobs, the check and the step', async () => {
    const before = completed();
    const answer = await send(service.url, '/v1/recipes/text-to-binary', { body: { input: 'x'.repeat(2000) } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const result = answer.json as { bytes: string; count: number };
    assert.equal(result.count, 2000);
    assert.ok(result.bytes === Array.from({ length: 2000 }, () => '01111000').join(' '), 'each "x" written as its eight binary digits');
    assert.equal(completed() - before, 2, 'checked and written in one job on the pool, run in another');
  });

  it('is refused by its request schema on the pool, as a small call is here: nothing runs', async () => {
    const small = await send(service.url, '/v1/recipes/text-to-binary', { body: { input: 'x', extra: 'y' } });
    const before = completed();
    const large = await send(service.url, '/v1/recipes/text-to-binary', { body: { input: 'x', extra: 'y'.repeat(2000) } });
    // A refusal is no completed job: the check refused on the pool, and nothing ran.
    assert.equal(completed() - before, 0);
    assert.equal(large.status, 400, large.text.slice(0, 300));
    assert.deepEqual((large.json as ErrorBody).error, (small.json as ErrorBody).error);
    assert.deepEqual((large.json as ErrorBody).error.details, [{ path: '/extra', message: 'is not an allowed property; allowed: input' }]);
  });
});

describe('a step body or an earlier answer over the bound', () => {
  // text-converter (not linear: its bound is workers.offloadBytes, 1024 here) writes each of 200
  // characters as 8 binary digits and a space: a small request whose first answer is 1.8 KB.
  const input = 'x'.repeat(200);
  const steps = [
    { operation: 'text-converter/encode', body: { format: 'binary' } },
    { operation: 'text-converter/decode', body: { format: 'binary' } },
  ];

  it('is written and read on the pool, not here: the answer parsed there, the body written there, then the step run there', async () => {
    const before = completed();
    const answer = await send(service.url, '/v1/recipes/run', { body: { input, steps } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.deepEqual(answer.json, { result: { text: input } });
    // The request (under 1024 bytes) was checked here and step 0 ran here; step 1's three jobs are
    // reading step 0's answer, writing step 1's body and running step 1.
    assert.equal(completed() - before, 3, 'three jobs on the pool');
  });

  it('answers byte for byte what the steps answer when called one by one', async () => {
    const first = await send(service.url, '/v1/text-converter/encode', { body: { text: input, format: 'binary' } });
    const second = await send(service.url, '/v1/text-converter/decode', { body: { bytes: (first.json as { bytes: string }).bytes, format: 'binary' } });
    const answer = await send(service.url, '/v1/recipes/run', { body: { input, steps, keep: 'all' } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    const expected = `{"result":${second.text},"steps":[{"operation":"text-converter/encode","answer":${first.text}},{"operation":"text-converter/decode","answer":${second.text}}]}`;
    assert.equal(answer.text, expected);
  });
});

describe('a large identify body', () => {
  it('is parsed on the pool', async () => {
    const before = completed();
    const answer = await send(service.url, '/v1/recipes/identify', { body: { input: 'word '.repeat(400) } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.ok(completed() - before >= 1);
  });
});

describe('what a recipe holds', () => {
  // text-converter/encode as binary with a separator of ten U+0001: each input byte becomes 8 digits and
  // 10 escaped separators (68 bytes of JSON), the amplifying step of issue 44's attack.
  const amplify = { operation: 'text-converter/encode', body: { text: { $from: '/input' }, format: 'binary', separator: '\u0001'.repeat(10) } };

  it('refuses thirty amplifying steps kept together: 422 output_too_large at the step that passes the cap, naming it', async () => {
    const answer = await send(service.url, '/v1/recipes/run', { body: { input: 'x'.repeat(300), keep: 'all', steps: Array.from({ length: 30 }, () => amplify) } });
    assert.equal(answer.status, 422, answer.text.slice(0, 300));
    const { code, message, details } = (answer.json as ErrorBody).error;
    assert.equal(code, 'output_too_large');
    assert.match(message, /^Step \d+ \(text-converter\/encode\) failed: The answers held at once would be \d+ bytes; at most 65536 may be$/);
    assert.match(details![0]!.path, /^\/steps\/\d+$/);
  });

  it('writes no answer nobody reads, here or on the pool, and holds it to the cap all the same', async () => {
    const { executor } = service.host;
    // 300 bytes of text: a body under offloadBytes (1,024) runs here; 2,000 bytes runs on the pool.
    for (const text of ['x'.repeat(300), 'x'.repeat(2000)]) {
      const body = { text, format: 'hex' };
      const read = await executor.run({ operation: 'text-converter/encode', body });
      assert.ok(read.bytes > 2 * text.length, `${text.length}: the answer is written when read`);
      const unread = await executor.run({ operation: 'text-converter/encode', body, unread: true });
      assert.equal(unread.bytes, 0, `${text.length}: no answer written`);
      assert.equal(unread.body.length, 0);
    }
    // 1,000 bytes, each 8 digits, 999 separators of ten U+0001 written \u0001 (6 bytes each):
    // {"bytes":"…","count":1000} is 9 + 2 + 8,000 + 59,940 + 14 = 67,965 bytes, over the 65,536 cap.
    const over = { operation: 'text-converter/encode', body: { text: 'x'.repeat(1000), format: 'binary', separator: '\u0001'.repeat(10) } };
    const refusal = /^The answer would be 67965 bytes; at most 65536 are sent$/;
    for (const unread of [false, true]) await assert.rejects(executor.run({ ...over, unread }), { code: 'output_too_large', message: refusal });
    // In a recipe, a first step nobody reads and the same step kept are refused alike.
    for (const steps of [[over, { operation: 'base64/encode', body: { text: 'kept' } }], [over]]) {
      const answer = await send(service.url, '/v1/recipes/run', { body: { input: 'x', steps } });
      assert.equal(answer.status, 422, answer.text.slice(0, 300));
      assert.match((answer.json as ErrorBody).error.message, /^Step 0 \(text-converter\/encode\) failed: The answer would be 67965 bytes; at most 65536 are sent$/);
    }
  });

  it('runs the same thirty steps keeping the last: each answer no later step reads is dropped at once', async () => {
    const answer = await send(service.url, '/v1/recipes/run', { body: { input: 'x'.repeat(300), steps: Array.from({ length: 30 }, () => amplify) } });
    assert.equal(answer.status, 200, answer.text.slice(0, 300));
    assert.equal(service.host.answers.inUse, 0, 'everything held is given back');
  });
});
