// Composite operations in the one executor (kernel/host/executor.ts): listed after the plugins'
// operations, found and hinted from the same table, run through the plugins' operations only, held
// to the answer cap and to the cap on the answers they hold at once; a name served twice stops the start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineOperation, definePlugin, Type } from '@toolshed/plugin-sdk';
import { answerOf, answerText } from '../kernel/host/answer.js';
import type { CompositeOperation } from '../kernel/host/executor-types.js';
import { checkCoreConfig, type Config } from '../kernel/host/config.js';
import { createExecutor, type Executor, type OperationInfo } from '../kernel/host/executor.js';
import { createLogger } from '../kernel/host/logger.js';
import { buildRegistry } from '../kernel/host/registry.js';
import { EventLoopWatchdog } from '../kernel/host/watchdog.js';

const text = definePlugin({
  group: 'text',
  sdk: '^1.0.0',
  operations: {
    echo: defineOperation({
      summary: 'Echo',
      body: Type.Object({ text: Type.String() }, { additionalProperties: false }),
      response: Type.Object({ text: Type.String() }, { additionalProperties: false }),
      examples: [{ body: { text: 'a' }, response: { text: 'a' } }],
      handler: ({ text: given }) => ({ text: given }),
    }),
  },
});

const info = (group: string, operation: string): Omit<OperationInfo, 'composite'> =>
  ({ id: `${group}.${operation}`, name: `${group}/${operation}`, group, operation, summary: 's', requestSchema: {}, responseSchema: {}, examples: [], errors: {}, upstream: false, definition: {} }) as unknown as OperationInfo;

/** `pair/twice`: echoes its body's text twice through text/echo, holding both answers. */
const twice: CompositeOperation = {
  info: info('pair', 'twice'),
  async run(body, request, operations) {
    const first = await operations.run({ operation: 'text/echo', body });
    request.held.hold(first);
    const second = await operations.run({ operation: 'text/echo', body });
    request.held.hold(second);
    return answerOf(`[${answerText(first)},${answerText(second)}]`, Number.POSITIVE_INFINITY);
  },
};

/** `pair/nested`: tries to run a composite as a step. */
const nested: CompositeOperation = { info: info('pair', 'nested'), run: (_body, _request, operations) => operations.run({ operation: 'pair/twice', body: {} }) };

function executorWith(composites: readonly CompositeOperation[], server: Record<string, unknown> = {}, watchdog?: EventLoopWatchdog): Executor {
  const { config, problems } = checkCoreConfig({ server });
  assert.deepEqual(problems, []);
  const registry = buildRegistry([{ plugin: text, imported: text, source: 'test', specifier: 'test', origin: 'built-in' }], config as Config);
  const logger = createLogger('silent');
  return createExecutor({ registry, config, logger, watchdog: watchdog ?? new EventLoopWatchdog(100, logger), composites: () => composites });
}

describe('composite operations', () => {
  it('are listed after the plugins\' operations, found, run through them and marked composite', async () => {
    const executor = executorWith([twice]);
    assert.deepEqual(executor.operations().map((operation) => operation.name), ['text/echo', 'pair/twice']);
    assert.equal(executor.find('pair/twice')?.composite, true);
    assert.equal(executor.find('text/echo')?.composite, undefined);
    assert.equal(executor.nearest('pair/twise'), 'pair/twice');
    assert.equal(answerText(await executor.run({ operation: 'pair/twice', bytes: Buffer.from('{"text":"a"}') })), '[{"text":"a"},{"text":"a"}]');
    assert.equal(answerText(await executor.run({ operation: executor.find('text/echo')!, body: { text: 'b' } })), '{"text":"b"}');
  });

  it('are never the step of another composite', async () => {
    const executor = executorWith([twice, nested]);
    await assert.rejects(executor.run({ operation: 'pair/nested', body: {} }), { status: 404, code: 'not_found' });
  });

  it('hold a composite\'s answer to the answer cap, and refuse a body that is no JSON object', async () => {
    const executor = executorWith([twice], { maxAnswerBytes: 1024 });
    // Each echo is 611 bytes; held together (1222) they pass the 1024-byte cap before the answer is built.
    await assert.rejects(executor.run({ operation: 'pair/twice', body: { text: 'x'.repeat(600) } }), { status: 422, code: 'output_too_large', message: 'The answers held at once would be 1222 bytes; at most 1024 may be' });
    await assert.rejects(executor.run({ operation: 'pair/twice', bytes: Buffer.from('[1]') }), { status: 400, code: 'invalid_json' });
  });

  it('are named by the watchdog when their own check holds the main thread', async () => {
    const watchdog = new EventLoopWatchdog(10, createLogger('silent'));
    // A check that holds the thread until the clock has moved past the watchdog's 10 ms.
    const slow: CompositeOperation = {
      info: info('pair', 'slow'),
      check: {
        here: (body) => {
          const until = performance.now() + 20;
          while (performance.now() < until);
          return body;
        },
        module: new URL('./composite.test.js', import.meta.url),
        exportName: 'unused',
      },
      run: async () => answerOf('{}', 100),
    };
    await executorWith([slow], {}, watchdog).run({ operation: 'pair/slow', body: {} });
    assert.deepEqual([...watchdog.blocks], [['pair.slow', 1]]);
  });

  it('refuse a name served twice', () => {
    assert.throws(() => executorWith([{ ...twice, info: info('text', 'echo') }]), /text\/echo is served already/);
    assert.throws(() => executorWith([twice, twice]), /pair\/twice is served already/);
  });
});
