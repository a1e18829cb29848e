import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { isToolshedError, type ToolshedError } from '@toolshed/plugin-sdk';
import { SLICE_MS } from './event-loop-slice.js';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { checkRecipeJob } from './pool-checks.js';
import { runPlan, runRecipe } from './run.js';
import { answerText, answerValue, jsonHere, type Answer, type CompositeJson, type Executor } from './executor.js';

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

  it('keeps a long step answer in its outcome as the step gave it, not copied, and joins it only when read', async () => {
    const text = 'x'.repeat(20_000);
    const given: Answer[] = [];
    const recording: Executor = { ...executor, run: async (request) => { const answer = await executor.run(request); given.push(answer); return answer; } };
    const answer = await runRecipe(recording, { input: text, steps: [{ operation: 'base64/encode' }] });
    assert.ok(given[0]!.body instanceof Uint8Array, 'a long answer is bytes');
    assert.equal(answer.parts?.[1], given[0]!.body, 'the step\'s bytes themselves, between the frame\'s');
    assert.deepEqual(answer.parts.map((part) => Buffer.from(part).toString()), ['{"result":', Buffer.from(given[0]!.body).toString(), '}']);
    assert.deepEqual(answerValue(answer), { result: { base64: Buffer.from(text).toString('base64') } });
    assert.equal(answer.bytes, Buffer.byteLength(answerText(answer)));
  });

  it('gives the event loop a turn between steps once the recipe has held it for a slice, so other clients are answered while a long recipe runs', async () => {
    const events: string[] = [];
    let clock = 0;
    // Each step holds the main thread for a whole slice.
    const slow: Executor = { ...executor, run: async (request) => { events.push(`step ${typeof request.operation === 'string' ? request.operation : request.operation.name}`); clock += SLICE_MS; return executor.run(request); } };
    // Queued before the recipe starts, and again at each turn while it runs: one entry per turn of the event loop.
    let running = true;
    setImmediate(function turn() {
      events.push('turn');
      if (running) setImmediate(turn);
    });
    await runRecipe(slow, { input: 'hi', steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }, { operation: 'base64/encode' }] }, { now: () => clock });
    running = false;
    assert.deepEqual(events, ['step base64/encode', 'turn', 'step base64/decode', 'turn', 'step base64/encode']);
  });

  it('runs steps back to back while the recipe has held the event loop for less than a slice', async () => {
    const events: string[] = [];
    const recording: Executor = { ...executor, run: async (request) => { events.push(`step ${typeof request.operation === 'string' ? request.operation : request.operation.name}`); return executor.run(request); } };
    setImmediate(() => events.push('turn'));
    // A clock that never moves: the steps take no time at all.
    await runRecipe(recording, { input: 'hi', steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }, { operation: 'base64/encode' }] }, { now: () => 0 });
    assert.deepEqual(events, ['step base64/encode', 'step base64/decode', 'step base64/encode']);
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

describe('a large recipe as its check on the pool hands it over', () => {
  const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8'));

  it('comes with the bodies of the steps that read only the input written, and without the input', async () => {
    const body = { input: 'foob', steps: [{ operation: 'base64/encode' }, { operation: 'base64/decode' }, { operation: 'url-encoder/encode', body: { text: { $from: '/input' } } }] };
    const plan = checkRecipeJob(body, executor);
    assert.equal(plan.input, null);
    assert.deepEqual(plan.steps.map((step) => text(step.built)), ['{"text":"foob"}', undefined, '{"text":"foob"}']);
    // It runs as the recipe does from its body: the same answer, each step given the same body.
    executor.runs.length = 0;
    const answer = answerText(await runPlan(executor, plan));
    const built = executor.runs.map((run) => run.body);
    executor.runs.length = 0;
    assert.equal(answer, answerText(await runRecipe(executor, body)));
    assert.deepEqual(built, executor.runs.map((run) => run.body));
    // "foob" has no character to percent-encode.
    assert.equal(answer, '{"result":{"encoded":"foob"}}');
  });

  it('drops an input no step reads', () => {
    const plan = checkRecipeJob({ input: 'x'.repeat(100), steps: [{ operation: 'base64/encode', body: { text: 'Zm9v' } }] }, executor);
    assert.equal(plan.input, null);
    assert.equal(plan.steps[0]!.built, undefined);
  });

  it('keeps the input, and writes nothing, when a step reads it beside an earlier answer', () => {
    const plan = checkRecipeJob({ input: 'x', steps: [{ operation: 'base64/encode' }, { operation: 'regex-tester/test', body: { text: { $from: '/steps/0/base64' }, pattern: { $from: '/input' } } }] }, executor);
    assert.equal(plan.input, 'x');
    assert.deepEqual(plan.steps.map((step) => step.built), [undefined, undefined]);
  });

  it('keeps the input when a pointer finds nothing in it, so the run names the step', async () => {
    const plan = checkRecipeJob({ input: { a: 'x' }, steps: [{ operation: 'base64/encode', body: { text: { $from: '/input/b' } } }] }, executor);
    assert.deepEqual(plan.input, { a: 'x' });
    assert.equal(plan.steps[0]!.built, undefined);
    const error = await refusal(runPlan(executor, plan));
    assert.deepEqual([error.status, error.details?.[0]?.path], [400, '/steps/0/body/text']);
  });

  it('keeps the input when the written bodies together would pass one step body\'s cap', () => {
    // Two bodies of 5 MiB of text and 11 bytes of JSON around it: 10,485,782 bytes, over 10,485,760.
    const input = 'a'.repeat(5 * 1024 * 1024);
    const steps = [{ operation: 'base64/encode' }, { operation: 'url-encoder/encode', body: { text: { $from: '/input' } } }];
    const plan = checkRecipeJob({ input, steps }, executor);
    assert.equal(plan.input, input);
    assert.deepEqual(plan.steps.map((step) => step.built), [undefined, undefined]);
    // One of them alone is within it.
    assert.equal(checkRecipeJob({ input, steps: steps.slice(0, 1) }, executor).steps[0]!.built?.byteLength, 5 * 1024 * 1024 + 11);
  });
});
