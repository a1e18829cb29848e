import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { isToolshedError, Type, type ErrorDetail } from '@toolshed/plugin-sdk';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import { fakeExecutor, type FakeExecutor } from './fake-executor.js';
import { checkRecipe } from './check.js';
import { LONGEST_REMEMBERED_STEPS, REMEMBERED_RECIPES } from './plan-memory.js';
import { schemasAt, standIn } from './pointer.js';
import { runRecipe } from './run.js';

let executor: FakeExecutor;
before(async () => {
  executor = await fakeExecutor();
});

/** The details of the 400 the recipe gets, after checking that nothing ran. */
async function detailsOf(recipe: unknown): Promise<ErrorDetail[]> {
  executor.runs.length = 0;
  const error = await runRecipe(executor, recipe).then(() => undefined, (caught: unknown) => caught);
  assert.ok(isToolshedError(error), String(error));
  assert.equal(error.status, 400);
  assert.equal(error.code, 'validation_failed');
  assert.equal(executor.runs.length, 0, 'nothing runs');
  return [...(error.details ?? [])];
}

describe('checking a recipe before it runs', () => {
  it('names an unknown operation with the nearest known one', async () => {
    assert.deepEqual(await detailsOf({ input: 'x', steps: [{ operation: 'base64/decod' }] }), [{ path: '/steps/0/operation', message: 'is not an operation; did you mean "base64/decode"?' }]);
  });

  it('refuses a pointer to a field the earlier answer\'s schema does not have', async () => {
    const details = await detailsOf({ input: 'x', steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode', body: { base64: { $from: '/steps/0/decodd' } } }] });
    assert.deepEqual(details, [{ path: '/steps/1/body/base64', message: 'points at /decodd, which the answer of step 0 (url-encoder/decode) does not have' }]);
  });

  it('refuses a pointer to the same or a later step, and one outside /input and /steps', async () => {
    const details = await detailsOf({ input: 'x', steps: [{ operation: 'base64/encode', body: { text: { $from: '/steps/0/base64' } } }, { operation: 'base64/decode', body: { base64: { $from: '/result' } } }] });
    assert.deepEqual(details, [
      { path: '/steps/0/body/text', message: 'points at step 0, which does not run before step 0' },
      { path: '/steps/1/body/base64', message: 'must point into /input or /steps/<earlier step>' },
    ]);
  });

  it('refuses a wired value whose schema type cannot fit the target field, explicit or by default', async () => {
    const explicit = await detailsOf({ input: '{}', steps: [{ operation: 'json-formatter/validate' }, { operation: 'base64/decode', body: { base64: { $from: '/steps/0/valid' } } }] });
    assert.deepEqual(explicit, [{ path: '/steps/1/body/base64', message: 'takes string, but /steps/0/valid is boolean' }]);
    // jwt-decoder/decode's main output is its payload, an object; base64/decode takes a string.
    const implicit = await detailsOf({ input: 'x', steps: [{ operation: 'jwt-decoder/decode' }, { operation: 'base64/decode' }] });
    assert.deepEqual(implicit, [{ path: '/steps/1/body/base64', message: 'takes string, but /steps/0/payload is object' }]);
  });

  it('refuses literal values that break a step\'s schema, and a missing field nothing fills', async () => {
    const details = await detailsOf({ steps: [{ operation: 'base64/encode', body: { urlSafe: 'yes' } }] });
    assert.deepEqual(details.sort((a, b) => a.path.localeCompare(b.path)), [
      { path: '/steps/0/body/text', message: 'is required' },
      { path: '/steps/0/body/urlSafe', message: 'must be a boolean' },
    ]);
  });

  it('refuses a step after one that declares no main output, when its main input is not given', async () => {
    const details = await detailsOf({ input: 'x', steps: [{ operation: 'text-diff/lines', body: { original: 'a', changed: 'b' } }, { operation: 'base64/encode' }] });
    assert.deepEqual(details, [{ path: '/steps/1/body/text', message: 'text-diff/lines declares no main output to hand on; set this field or wire it with $from' }]);
  });

  it('refuses more than 32 steps', async () => {
    const details = await detailsOf({ input: 'x', steps: Array.from({ length: 33 }, () => ({ operation: 'base64/encode' })) });
    assert.deepEqual(details, [{ path: '/steps', message: 'must not have more than 32 items' }]);
    assert.equal(checkRecipe(executor, { input: 'x', steps: Array.from({ length: 32 }, (_, index) => ({ operation: index % 2 === 0 ? 'base64/encode' : 'base64/decode' })) }).steps.length, 32);
  });

  it('lets a rule across fields see a wired field as present (hash-generator: exactly one of text and dataBase64)', () => {
    const plan = checkRecipe(executor, { input: 'a,b\n1,2\n', steps: [{ operation: 'data-converter/convert', body: { to: 'json' } }, { operation: 'hash-generator/hash', body: { algorithms: ['SHA-256'] } }] });
    assert.deepEqual(plan.steps[1]!.wires, [{ at: ['text'], from: ['steps', '0', 'output'] }]);
  });

  it('accepts a wired value whose source may fit (a number into a number-or-string field)', () => {
    const plan = checkRecipe(executor, { steps: [{ operation: 'percent-calculator/of', body: { percent: 50, base: 3400000000 } }, { operation: 'timestamp-converter/convert' }] });
    assert.deepEqual(plan.steps[1]!.wires, [{ at: ['input'], from: ['steps', '0', 'result'] }]);
  });

  it('stands in for a wired field with a value its own schema takes, so checking the literal values has no failure to set aside', () => {
    const body = Type.Object({
      token: Type.String({ minLength: 3 }),
      mode: Type.Union([Type.Literal('fast'), Type.Literal('slow')]),
      unit: Type.Enum(['s', 'ms']),
      count: Type.Integer({ minimum: 2 }),
      pattern: Type.String({ pattern: '^[0-9]+$' }),
      flags: Type.Array(Type.String()),
    });
    const standIns = Object.fromEntries(Object.keys(body.properties).map((field) => [field, standIn(schemasAt(body, [field]))]));
    assert.deepEqual(standIns, { token: 'xxx', mode: 'fast', unit: 's', count: 2, pattern: '', flags: [] });
    // A pattern is beyond a stand-in: that one field breaks its rule, and only that one.
    assert.deepEqual(compileSchema(body).problems(standIns).map((problem) => problem.path), ['/pattern']);
  });

  it('leaves the request it checks as it was', () => {
    const request = { input: { text: 'hi' }, steps: [{ operation: 'base64/encode', body: { text: { $from: '/input/text' } } }, { operation: 'base64/decode' }] };
    const before = structuredClone(request);
    const plan = checkRecipe(executor, request);
    assert.equal(plan.keep, 'last', 'the default is the plan\'s');
    assert.deepEqual(request, before);
  });
});

describe('a recipe\'s steps are checked once', () => {
  /** A catalog of its own (so a memory of its own) that lists every operation looked up. */
  function counting(): { catalog: FakeExecutor; looked: string[] } {
    const looked: string[] = [];
    return { catalog: { ...executor, find: (name: string) => (looked.push(name), executor.find(name)) }, looked };
  }
  const steps = [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }];

  it('takes the steps checked before for the same steps on another input', () => {
    const { catalog, looked } = counting();
    checkRecipe(catalog, { input: 'first', steps });
    assert.equal(looked.length, 3);
    const plan = checkRecipe(catalog, { input: 'second', steps: structuredClone(steps), keep: 'all' });
    assert.equal(looked.length, 3, 'nothing looked up again');
    assert.deepEqual([plan.input, plan.keep, plan.steps.length], ['second', 'all', 3]);
  });

  it('checks the same steps again when the recipe gives no input', async () => {
    const { catalog } = counting();
    checkRecipe(catalog, { input: 'x', steps: [{ operation: 'base64/encode' }] });
    assert.throws(() => checkRecipe(catalog, { steps: [{ operation: 'base64/encode' }] }), (error: unknown) => isToolshedError(error) && error.details?.[0]?.path === '/steps/0/body/text');
  });

  it(`keeps ${REMEMBERED_RECIPES} recipes, the least recently run going first`, () => {
    const { catalog, looked } = counting();
    const recipe = (n: number): unknown => ({ steps: [{ operation: 'base64/encode', body: { text: `text ${n}` } }] });
    for (let n = 0; n < REMEMBERED_RECIPES; n++) checkRecipe(catalog, recipe(n));
    checkRecipe(catalog, recipe(0));
    assert.equal(looked.length, REMEMBERED_RECIPES, 'the first is kept, and now the most recent');
    checkRecipe(catalog, recipe(REMEMBERED_RECIPES));
    checkRecipe(catalog, recipe(0));
    assert.equal(looked.length, REMEMBERED_RECIPES + 1);
    checkRecipe(catalog, recipe(1));
    assert.equal(looked.length, REMEMBERED_RECIPES + 2, 'the least recently run went');
  });

  it(`checks steps longer than ${LONGEST_REMEMBERED_STEPS} characters of JSON every time`, () => {
    const { catalog, looked } = counting();
    const recipe = { steps: [{ operation: 'base64/encode', body: { text: 'x'.repeat(LONGEST_REMEMBERED_STEPS) } }] };
    checkRecipe(catalog, recipe);
    checkRecipe(catalog, recipe);
    assert.equal(looked.length, 2);
  });
});
