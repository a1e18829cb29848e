// kernel/composite.ts on its own: composite operations beside a base executor's, found, listed,
// hinted and run; a name served twice stops the start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withComposites, type CompositeOperation } from '../kernel/composite.js';
import type { HostExecutor, OperationInfo, RunAnswer } from '../kernel/executor.js';
import { ByteBudget } from '../kernel/byte-budget.js';

const info = (group: string, operation: string): OperationInfo =>
  ({ id: `${group}.${operation}`, name: `${group}/${operation}`, group, operation, path: `/v1/${group}/${operation}`, summary: 's', requestSchema: {}, responseSchema: {}, examples: [], errors: {}, upstream: false, definition: {} }) as unknown as OperationInfo;
const answer = (json: string): RunAnswer => ({ body: json, json, bytes: Buffer.byteLength(json), value: () => JSON.parse(json) as unknown });

/** A base executor with one operation, `text/echo`, answering its body. */
const base: HostExecutor = {
  operations: () => [info('text', 'echo')],
  find: (name) => (name === 'text/echo' ? info('text', 'echo') : undefined),
  nearest: () => undefined,
  run: async (request) => answer(JSON.stringify(request.body)),
  notFoundMessage: () => 'none',
  budgets: { reading: new ByteBudget(1 << 20), sending: new ByteBudget(1 << 20) },
  bodyLimit: 1 << 20,
  maxAnswerBytes: 64,
};

const twice: CompositeOperation = { info: info('pair', 'twice'), run: async (body, _request, operations) => answer(`[${(await operations.run({ operation: 'text/echo', body })).json},${(await operations.run({ operation: 'text/echo', body })).json}]`) };

describe('composite operations', () => {
  it('are listed after the base operations, found, run through the base and marked composite', async () => {
    const executor = withComposites(base, [twice], []);
    assert.deepEqual(executor.operations().map((operation) => operation.name), ['text/echo', 'pair/twice']);
    assert.equal(executor.find('pair/twice')?.composite, true);
    assert.equal(executor.find('text/echo')?.composite, undefined);
    assert.equal(executor.nearest('pair/twise'), 'pair/twice');
    assert.match(executor.notFoundMessage('/v1/pair/twise'), /\/v1\/pair\/twice/);
    assert.equal((await executor.run({ operation: 'pair/twice', body: { bytes: Buffer.from('{"a":1}') } })).json, '[{"a":1},{"a":1}]');
    assert.equal((await executor.run({ operation: 'text/echo', body: { b: 2 } })).json, '{"b":2}');
  });

  it('hold a composite\'s answer to the answer cap, and refuse a body that is no JSON object', async () => {
    const executor = withComposites(base, [twice], []);
    await assert.rejects(executor.run({ operation: 'pair/twice', body: { text: 'x'.repeat(40) } }), { status: 422, code: 'output_too_large' });
    await assert.rejects(executor.run({ operation: 'pair/twice', body: { bytes: Buffer.from('[1]') } }), { status: 400, code: 'invalid_json' });
  });

  it('refuse a name served twice, and leave the base as it is without composites', () => {
    assert.throws(() => withComposites(base, [{ ...twice, info: info('text', 'echo') }], []), /text\/echo is served already/);
    assert.throws(() => withComposites(base, [twice, twice], []), /pair\/twice is served already/);
    assert.equal(withComposites(base, [], []), base);
  });
});
