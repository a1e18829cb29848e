// The background warm-up after listening (kernel/warm-up.ts, issue 25): each operation's first
// example runs WARM_UP_RUNS times through the request's run path, upstream operations never, and
// the whole of it stops once the service is stopping. Before the first example, one HTTP exchange
// on a private loopback server (kernel/prime-http.ts).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { compileOperation, definePlugin, defineOperation, Type, workerPool } from '@toolshed/plugin-sdk';
import { ByteBudget } from '../kernel/byte-budget.js';
import { YOUNG_GENERATION_TRIM, youngGenerationBytes } from '../kernel/idle-collection.js';
import { createLogger } from '../kernel/logger.js';
import type { DispatchLimits } from '../kernel/middleware/dispatch.js';
import type { RegisteredOperation } from '../kernel/registry.js';
import { builtinPluginDir } from '../kernel/server.js';
import { EventLoopWatchdog } from '../kernel/watchdog.js';
import { primeHttp } from '../kernel/prime-http.js';
import { WARM_UP_RUNS, warmUp } from '../kernel/warm-up.js';
import { externalPlugins, startTestService, type TestService } from './support/service.js';

const calls = { plain: 0, upstream: 0, failing: 0 };
const text = Type.Object({ text: Type.String() }, { additionalProperties: false });
const fixture = definePlugin({
  group: 'warm-fixture',
  sdk: '^1.0.0',
  errors: { broken: 'always fails' },
  operations: {
    plain: defineOperation({
      summary: 'Counts its runs',
      body: text,
      response: text,
      examples: [{ body: { text: 'a' }, response: { text: 'a' } }],
      handler: ({ text }) => {
        calls.plain++;
        return { text };
      },
    }),
    upstream: defineOperation({
      summary: 'Would call an upstream',
      upstream: true,
      body: text,
      response: text,
      examples: [{ body: { text: 'b' }, response: { text: 'b' } }],
      handler: ({ text }) => {
        calls.upstream++;
        return { text };
      },
    }),
    failing: defineOperation({
      summary: 'Throws',
      body: text,
      response: text,
      examples: [{ body: { text: 'c' }, response: { text: 'c' } }],
      handler: () => {
        calls.failing++;
        throw new Error('no');
      },
    }),
  },
});

const silent = createLogger('silent', new Writable({ write: (_chunk, _encoding, done) => done() }));
const limits: DispatchLimits = {
  bodyLimit: 1024,
  offloadBytes: 65536,
  offloadBudgetMs: 1000,
  maxAnswerBytes: 1024,
  reading: new ByteBudget(1024),
  sending: new ByteBudget(1024),
  notFoundMessage: () => 'none',
  logger: silent,
  watchdog: new EventLoopWatchdog(1000, silent),
};
const registered = (name: string): RegisteredOperation => ({
  operation: compileOperation(fixture, name),
  path: `/v1/warm-fixture/${name}`,
  config: undefined,
  module: 'unused:',
  offload: 'never',
  offloadBytes: 65536,
  deadlineMs: 1000,
  contained: false,
});

describe('the warm-up after listening', () => {
  it(`runs each example ${WARM_UP_RUNS} times, skips upstream operations and names the ones that fail`, async () => {
    Object.assign(calls, { plain: 0, upstream: 0, failing: 0 });
    const report = await warmUp(['plain', 'upstream', 'failing'].map(registered), limits, () => false);
    assert.deepEqual(calls, { plain: WARM_UP_RUNS, upstream: 0, failing: 1 });
    assert.equal(report.operations, 2);
    assert.deepEqual(report.failed, ['warm-fixture.failing']);
    assert.equal(report.primed, true);
  });

  it('primes the HTTP path before the first example, and warms up all the same when that fails', async () => {
    Object.assign(calls, { plain: 0, upstream: 0, failing: 0 });
    const runsBeforePrime: number[] = [];
    // A machine without an IPv4 loopback: the exchange answers 0.
    const report = await warmUp([registered('plain')], limits, () => false, () => {
      runsBeforePrime.push(calls.plain);
      return Promise.resolve(0);
    });
    assert.deepEqual(runsBeforePrime, [0]);
    assert.equal(calls.plain, WARM_UP_RUNS);
    assert.equal(report.primed, false);
  });

  it('exchanges one POST with a private server on 127.0.0.1 and reads its 200', async () => {
    assert.equal(await primeHttp(), 200);
  });

  it('stops once the service is stopping', async () => {
    Object.assign(calls, { plain: 0, upstream: 0, failing: 0 });
    let stopping = false;
    const operations = ['plain', 'failing'].map(registered);
    // The first operation's runs end the warm-up: the second is never started.
    const report = await warmUp(operations, limits, () => {
      const answer = stopping;
      stopping = true;
      return answer;
    });
    assert.deepEqual(calls, { plain: WARM_UP_RUNS, upstream: 0, failing: 0 });
    assert.deepEqual(report.failed, []);
  });

  describe('in the service with every built-in plugin', () => {
    let service: TestService;
    before(async () => {
      // With the fixture folder plugins beside them: their examples are never run.
      service = await startTestService({ operations: { warmUp: true }, plugins: { dirs: [externalPlugins] } }, { builtinDir: builtinPluginDir });
    });
    after(() => service.stop());

    it('runs every built-in example without upstream after listening, all of them answering, none of a folder plugin, and leaves a pool worker started', async () => {
      await service.warmedUp;
      const line = service.logs.map((entry) => JSON.parse(entry) as { msg: string; operations?: number; failed?: string[]; primed?: boolean }).find((entry) => entry.msg === 'operations warmed');
      const builtIns = [...service.registry.operations.values()].filter((operation) => !operation.path.startsWith('/v1/kernel-probe/') && !operation.contained);
      const withoutUpstream = builtIns.filter((operation) => operation.operation.definition.upstream !== true).length;
      assert.equal(line?.operations, withoutUpstream);
      assert.deepEqual(line?.failed, []);
      assert.equal(line?.primed, true);
      // sql-formatter, regex-tester and others do their work on the pool: the warm-up started a worker.
      assert.ok(workerPool().stats().workers >= 1);
      // Nothing of it is a request: no access-log line.
      assert.equal(service.logs.filter((entry) => entry.includes('"msg":"request"')).length, 0);
    });

    it('gives the young generation the warm-up grew back before warmedUp settles', async () => {
      await service.warmedUp;
      const young = youngGenerationBytes();
      assert.ok(young <= YOUNG_GENERATION_TRIM.goalBytes, `young generation ${young} bytes`);
    });
  });
});
