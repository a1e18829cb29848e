import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { isToolshedError, type ToolshedError } from '@toolshed/plugin-sdk';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { runRecipe } from './run.js';
import { answerText, answerValue, jsonHere, type CompositeJson } from './executor.js';

// A JWT built by hand: header {"alg":"HS256","typ":"JWT"}, payload {"sub":"42","exp":1700000000}.
const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
const payload = Buffer.from('{"sub":"42","exp":1700000000}').toString('base64url');
const jwt = `${header}.${payload}.c2lnbmF0dXJl`;
// Base64 of the token ends in "=" (its 95 bytes are not a multiple of 3), percent-encoded as %3D.
const wrapped = Buffer.from(jwt).toString('base64').replaceAll('=', '%3D');

async function refusal(promise: Promise<unknown>): Promise<ToolshedError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  assert.ok(isToolshedError(error), `expected a refusal, got ${String(error)}`);
  return error;
}

let executor: FakeExecutor;
before(async () => {
  executor = await fakeExecutor();
});

describe('running a recipe', () => {
  it('runs the issue\'s example with $from pointers, answering the last answer', async () => {
    assert.ok(wrapped.endsWith('%3D'));
    const answer = await runRecipe(executor, {
      input: wrapped,
      steps: [
        { operation: 'url-encoder/decode' },
        { operation: 'base64/decode', body: { base64: { $from: '/steps/0/decoded' } } },
        { operation: 'jwt-decoder/decode', body: { token: { $from: '/steps/1/text' } } },
      ],
    });
    const { result } = answerValue(answer) as { result: { payload: unknown; header: unknown } };
    assert.deepEqual(result.payload, { sub: '42', exp: 1700000000 });
    assert.deepEqual(result.header, { alg: 'HS256', typ: 'JWT' });
    assert.equal(answer.bytes, Buffer.byteLength(answerText(answer)));
  });

  it('wires each step\'s main input from the previous main output when the body leaves it out', async () => {
    const answer = await runRecipe(executor, { input: wrapped, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });
    assert.deepEqual((answerValue(answer) as { result: { payload: unknown } }).result.payload, { sub: '42', exp: 1700000000 });
  });

  it('writes every step\'s body and reads every earlier answer through the JSON work it is given (the host places it by size)', async () => {
    const written: string[] = [];
    const read: string[] = [];
    const json: CompositeJson = {
      body: (operation, value) => (written.push(operation.name), jsonHere.body(operation, value)),
      value: (operation, answer) => (read.push(operation.name), jsonHere.value(operation, answer)),
    };
    const steps = [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode', body: { token: { $from: '/steps/1/text' } } }];
    const answer = await runRecipe(executor, { input: wrapped, steps }, { json });
    assert.deepEqual((answerValue(answer) as { result: { payload: unknown } }).result.payload, { sub: '42', exp: 1700000000 });
    assert.deepEqual(written, ['url-encoder/decode', 'base64/decode', 'jwt-decoder/decode']);
    // Each answer a later step reads is read once, as an answer of the operation that gave it.
    assert.deepEqual(read, ['url-encoder/decode', 'base64/decode']);
  });

  it('answers every step with keep "all"', async () => {
    // RFC 4648 §10: BASE64("foob") = "Zm9vYg==".
    const answer = await runRecipe(executor, { input: 'foob', keep: 'all', steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }] });
    assert.deepEqual(answerValue(answer), {
      result: { text: 'foob' },
      steps: [
        { operation: 'base64/encode', answer: { base64: 'Zm9vYg==' } },
        { operation: 'base64/decode', answer: { text: 'foob' } },
      ],
    });
  });

  it('answers a failing step with its status and code, naming the step, and runs nothing after it', async () => {
    executor.runs.length = 0;
    const error = await refusal(runRecipe(executor, { input: 'a%21', steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] }));
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_base64');
    assert.equal(error.details?.[0]?.path, '/steps/1');
    assert.deepEqual(executor.runs.map((run) => run.operation), ['url-encoder/decode', 'base64/decode']);
  });

  it('gives each step what is left of one overall deadline, and stops when none is left', async () => {
    let clock = 0;
    const slow: FakeExecutor = { ...executor, run: async (request) => { const answer = await executor.run(request); clock += 400; return answer; } };
    executor.runs.length = 0;
    const steps = [{ operation: 'base64/encode' }, { operation: 'base64/decode' }, { operation: 'base64/encode' }, { operation: 'base64/decode' }];
    const error = await refusal(runRecipe(slow, { input: 'x', steps }, { deadlineMs: 1000, now: () => clock }));
    assert.deepEqual(executor.runs.map((run) => run.deadlineMs), [1000, 600, 200]);
    assert.equal(error.status, 504);
    assert.equal(error.code, 'recipe_timeout');
    assert.equal(error.details?.[0]?.path, '/steps/3');
  });

  it('refuses a step whose body would pass 10 MiB, before running it', async () => {
    executor.runs.length = 0;
    // Each character becomes 8 binary digits and a separator: 1,200,000 × 9 − 1 bytes, over 10,485,760.
    const error = await refusal(runRecipe(executor, { input: 'a'.repeat(1_200_000), steps: [{ operation: 'text-converter/encode', body: { format: 'binary' } }, { operation: 'base64/encode' }] }));
    assert.equal(error.status, 413);
    assert.equal(error.code, 'payload_too_large');
    assert.equal(error.details?.[0]?.path, '/steps/1');
    assert.equal(executor.runs.length, 1);
  });

  it('answers a step over the executor\'s answer cap with its refusal', async () => {
    const capped = await fakeExecutor({ answerCapBytes: 1000 });
    const error = await refusal(runRecipe(capped, { input: 'a'.repeat(2000), steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }] }));
    assert.equal(error.code, 'output_too_large');
    assert.equal(error.details?.[0]?.path, '/steps/0');
    assert.equal(capped.runs.length, 1);
  });
});
