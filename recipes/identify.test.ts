import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { definePlugin, defineOperation, isToolshedError, Type } from '@toolshed/plugin-sdk';
import { SLICE_MS } from './event-loop-slice.js';
import { identify, MAX_SPECULATIVE_BYTES, MAX_SPECULATIVE_RUNS } from './identify.js';
import { corpus, jwtOf, prose } from './identify-corpus.data.js';
import { runRecipe } from './run.js';
import { answerValue, jsonHere, type CompositeJson } from './executor.js';
import { MAX_IDENTIFY_INPUT_CHARS } from './schemas.js';

let executor: FakeExecutor;
before(async () => {
  executor = await fakeExecutor();
});

describe('identify names what an input is', () => {
  it('names at least 90 % of a varied corpus first, and every recipe it answers runs as given', async () => {
    assert.ok(corpus.length >= 60, `${corpus.length} inputs`);
    const wrong: string[] = [];
    for (const [input, kind] of corpus) {
      const { candidates } = await identify(executor, { input });
      const first = candidates[0];
      if (first?.kind !== kind) wrong.push(`${JSON.stringify(input.slice(0, 60))}: expected ${kind}, got ${first?.kind ?? 'nothing'} (${first?.confidence})`);
      for (const candidate of candidates) if (candidate.recipe.steps.length > 0) await runRecipe(executor, { input, steps: candidate.recipe.steps });
    }
    console.log(`identify named ${corpus.length - wrong.length} of ${corpus.length} first${wrong.length > 0 ? `; missed:\n${wrong.join('\n')}` : ''}`);
    assert.ok(wrong.length <= corpus.length * 0.1, wrong.join('\n'));
  });

  it('gives plain prose no candidate above 0.5', async () => {
    for (const input of prose) {
      const { candidates } = await identify(executor, { input });
      for (const candidate of candidates) assert.ok(candidate.confidence <= 0.5, `${input}: ${candidate.kind} ${candidate.confidence}`);
    }
  });
});

describe('identify unwraps layers', () => {
  // A payload whose token's length is not a multiple of 3, so its Base64 ends in "=" (%3D).
  let payload = { sub: 'user-1842', exp: 1710507600, note: '' };
  while (jwtOf(payload).length % 3 === 0) payload = { ...payload, note: `${payload.note}x` };
  const token = jwtOf(payload);

  it('answers percent-encoded Base64 of a JWT as one three-step recipe that runs as given', async () => {
    const input = encodeURIComponent(Buffer.from(token).toString('base64'));
    assert.match(input, /%3D$/, 'the Base64 is padded, so the percent-encoding shows');
    const [first] = (await identify(executor, { input })).candidates;
    assert.equal(first?.kind, 'percent-encoding');
    assert.equal(first?.title, 'Percent-encoded text → Base64 → JSON Web Token');
    assert.deepEqual(first?.recipe.steps, [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }]);
    assert.deepEqual((first?.preview as { payload: unknown }).payload, payload);
    const ran = await runRecipe(executor, { input, steps: first!.recipe.steps });
    assert.deepEqual((answerValue(ran) as { result: { payload: unknown } }).result.payload, payload);
  });

  it('answers hex bytes of a JWT as a two-step recipe carrying the recognizer\'s fixed fields', async () => {
    const input = Buffer.from(token).toString('hex');
    const [first] = (await identify(executor, { input })).candidates;
    assert.deepEqual(first?.recipe.steps, [{ operation: 'text-converter/decode', body: { format: 'hex' } }, { operation: 'jwt-decoder/decode' }]);
    assert.deepEqual((first?.preview as { payload: unknown }).payload, payload);
  });

  it('stops at depth, and answers at most limit candidates', async () => {
    const input = encodeURIComponent(Buffer.from(token).toString('base64'));
    const { candidates } = await identify(executor, { input, depth: 1 });
    assert.deepEqual(candidates[0]?.recipe.steps, [{ operation: 'url-encoder/decode' }]);
    const closed = { additionalProperties: false } as const;
    const operation = (confidence: number) =>
      defineOperation({
        summary: 'Echo',
        io: { input: 'text', output: 'text' },
        recognizers: [{ kind: 'word', title: 'A word', pattern: /^\w+$/, confidence }],
        body: Type.Object({ text: Type.String() }, closed),
        response: Type.Object({ text: Type.String() }, closed),
        examples: [{ body: { text: 'a' }, response: { text: 'a' } }],
        handler: ({ text }) => ({ text }),
      });
    const echo = definePlugin({ group: 'echo', sdk: '^1.0.0', operations: { low: operation(0.2), high: operation(0.3) } });
    const withEcho = await fakeExecutor({ plugins: [echo], withoutBuiltins: true });
    const both = (await identify(withEcho, { input: 'abc' })).candidates;
    assert.deepEqual(both.map((candidate) => [candidate.recipe.steps[0]!.operation, candidate.confidence]), [['echo/high', 0.3], ['echo/low', 0.2]]);
    assert.deepEqual((await identify(withEcho, { input: 'abc', limit: 1 })).candidates.map((candidate) => candidate.recipe.steps[0]!.operation), ['echo/high']);
  });

  it('wires a recognizer\'s field that is not the main input with $from, and the recipe runs', async () => {
    const [first] = (await identify(executor, { input: '^\\d{3}-\\d{4}$' })).candidates;
    assert.deepEqual(first?.recipe.steps, [{ operation: 'regex-tester/test', body: { text: '', pattern: { $from: '/input' } } }]);
    await runRecipe(executor, { input: '^\\d{3}-\\d{4}$', steps: first!.recipe.steps });
  });
});

describe('identify is bounded', () => {
  it('holds the cap its schema states, 1,048,576 characters, however many bytes they take', async () => {
    // 600,000 emoji: 600,000 characters (1,200,000 UTF-16 units, 2,400,000 bytes of UTF-8) are within it.
    assert.ok(Array.isArray((await identify(executor, { input: '😀'.repeat(600_000) })).candidates));
    assert.ok(Array.isArray((await identify(executor, { input: 'a'.repeat(MAX_IDENTIFY_INPUT_CHARS) })).candidates));
    const error = await identify(executor, { input: 'a'.repeat(MAX_IDENTIFY_INPUT_CHARS + 1) }).then(() => undefined, (caught: unknown) => caught);
    assert.ok(isToolshedError(error));
    assert.equal(error.status, 400);
    assert.deepEqual(error.details, [{ path: '/input', message: 'must not have more than 1048576 characters' }]);
  });

  it('does a counted amount of work on a 1 MiB input of any shape', async () => {
    const mib = 1024 * 1024;
    let seed = 7;
    const random = Buffer.from(Array.from({ length: (mib * 3) / 4 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff));
    const shapes = {
      'one letter': 'A'.repeat(mib),
      'random Base64': random.toString('base64').slice(0, mib),
      'Base64 of text': Buffer.from('lorem ipsum '.repeat(mib / 16)).toString('base64').slice(0, mib - 4),
      hex: Buffer.from('x'.repeat(mib / 2)).toString('hex'),
      'JSON array': `[${'1,'.repeat(mib / 2 - 2)}1]`,
      prose: 'The cat sat on the mat. '.repeat(mib / 24),
      'percent-encoding': '%41'.repeat(mib / 3),
    };
    for (const [shape, input] of Object.entries(shapes)) {
      assert.ok(Buffer.byteLength(input) <= mib, shape);
      executor.runs.length = 0;
      await identify(executor, { input });
      const bytes = executor.runs.reduce((sum, run) => sum + Buffer.byteLength(JSON.stringify(run.body)), 0);
      assert.ok(executor.runs.length <= MAX_SPECULATIVE_RUNS, `${shape}: ${executor.runs.length} runs`);
      // Each run's body is its input plus a few fixed fields.
      assert.ok(bytes <= MAX_SPECULATIVE_BYTES + executor.runs.length * 100, `${shape}: ${bytes} bytes`);
    }
  });

  it('writes each try\'s body and reads its answer through the JSON work it is given (the host places it by size)', async () => {
    const written: Uint8Array[] = [];
    let read = 0;
    const json: CompositeJson = {
      body: async (operation, value) => {
        const bytes = await jsonHere.body(operation, value);
        written.push(bytes);
        return bytes;
      },
      value: (operation, answer) => (read++, jsonHere.value(operation, answer)),
    };
    executor.runs.length = 0;
    // Base64 of "hello world", percent-encoded: two layers, so more than one try.
    const { candidates } = await identify(executor, { input: 'aGVsbG8gd29ybGQ%3D' }, { json });
    assert.equal(candidates[0]?.kind, 'percent-encoding');
    // Every run got the bytes written for it, and every answer was read there too (a refused try has none).
    assert.ok(executor.runs.length > 0);
    assert.deepEqual(executor.runs.map((run) => run.bytes), written);
    assert.ok(read > 0 && read <= written.length, `${read} of ${written.length}`);
  });

  it('gives the event loop a turn between tries once it has held it for a slice, as a recipe does between steps', async () => {
    const runs: number[] = [];
    let clock = 0;
    // Each try holds the main thread for a whole slice.
    const slow: FakeExecutor = { ...executor, run: (request) => { clock += SLICE_MS; return executor.run(request); } };
    executor.runs.length = 0;
    let running = true;
    // One entry per turn of the event loop while identify runs: how many tries had run by then (a
    // turn before every try but the first).
    setImmediate(function turn() {
      runs.push(executor.runs.length);
      if (running) setImmediate(turn);
    });
    await identify(slow, { input: 'aGVsbG8gd29ybGQ%3D' }, { now: () => clock });
    running = false;
    assert.ok(executor.runs.length > 1, `${executor.runs.length} tries`);
    assert.deepEqual(runs, Array.from({ length: executor.runs.length - 1 }, (_, index) => index + 1));
  });

  it('makes its tries back to back while it has held the event loop for less than a slice', async () => {
    executor.runs.length = 0;
    let runsAtTurn: number | undefined;
    setImmediate(() => (runsAtTurn = executor.runs.length));
    // A clock that never moves: the tries take no time at all.
    await identify(executor, { input: 'aGVsbG8gd29ybGQ%3D' }, { now: () => 0 });
    assert.ok(executor.runs.length > 1, `${executor.runs.length} tries`);
    assert.equal(runsAtTurn, undefined, 'no turn before identify ended');
  });

  it('compiles the recognizers on its first call an operation at a time, with a turn of the event loop whenever it has held it for a slice', async () => {
    // A new list of operations, so its recognizers are compiled by this call; "   " is blank to a
    // recognizer, so identify tries nothing and any turn it gives is the compiling's.
    const fresh = await fakeExecutor();
    let turns = 0;
    let running = true;
    setImmediate(function turn() {
      turns += 1;
      if (running) setImmediate(turn);
    });
    let clock = 0;
    // Every look at the clock finds a slice gone: a turn before each operation's recognizers.
    const { candidates } = await identify(fresh, { input: '   ' }, { now: () => (clock += SLICE_MS) });
    running = false;
    assert.deepEqual(candidates, []);
    assert.equal(fresh.runs.length, 0);
    assert.ok(turns >= fresh.operations().length - 1, `${turns} turns for ${fresh.operations().length} operations`);
    // Compiled once: the next call, with the same clock, gives no turn.
    let turnedAgain = false;
    setImmediate(() => (turnedAgain = true));
    await identify(fresh, { input: '   ' }, { now: () => (clock += SLICE_MS) });
    assert.equal(turnedAgain, false);
  });

  it('never runs an operation that calls an upstream, whatever its recognizers say', async () => {
    const closed = { additionalProperties: false } as const;
    const lookup = definePlugin({
      group: 'far-lookup',
      sdk: '^1.0.0',
      operations: {
        lookup: defineOperation({
          summary: 'Looks a name up far away',
          io: { input: 'name', output: 'found' },
          recognizers: [{ kind: 'anything', title: 'Anything', pattern: /./, confidence: 1 }],
          upstream: true,
          body: Type.Object({ name: Type.String() }, closed),
          response: Type.Object({ found: Type.Boolean() }, closed),
          examples: [{ body: { name: 'a' }, response: { found: true } }],
          handler: () => ({ found: true }),
        }),
      },
    });
    const withUpstream = await fakeExecutor({ plugins: [lookup] });
    await identify(withUpstream, { input: 'example.com' });
    await identify(withUpstream, { input: '8.8.8.8' });
    assert.ok(withUpstream.runs.length > 0);
    assert.ok(withUpstream.runs.every((run) => run.operation !== 'far-lookup/lookup'));
  });
});
