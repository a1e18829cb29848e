// regex-tester's time budget on the host's worker threads: only a thread can be stopped in the middle
// of a catastrophic backtracking loop. A test beside the plugin may not import the host
// (.dependency-cruiser.mjs), so this one lives here and hands invoke() the host's threads
// (service/testing.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import regexTester from '../../plugins/regex-tester/index.js';
import { runInWorker } from '../../service/testing.js';

after(() => regexTester.close?.());

interface Result {
  matches: { index: number; end: number; text: string; groups: string[]; named: Record<string, string> }[];
}
const run = async (body: Record<string, unknown>, config?: unknown): Promise<Result> => (await invoke(regexTester, 'test', body, { config, runInWorker })) as Result;
const rejects = (body: Record<string, unknown>, status: number, code: string, config?: unknown): Promise<void> =>
  assert.rejects(invoke(regexTester, 'test', body, { config, runInWorker }), (error: { status?: number; code?: string }) => error.status === status && error.code === code);

describe('regex-tester.test: hostile input on the host\'s worker threads', () => {
  // Beside the plugin, the tests before this one had started a worker: the catastrophic job's budget
  // is then its run, not a thread's start on a busy machine (half the budget spent waiting is a 503).
  before(async () => assert.equal((await run({ pattern: 'a', text: 'a' })).matches.length, 1));

  it('stops a catastrophic pattern at the time budget while other work goes on', async () => {
    const config = { timeoutMs: 300, workers: 2 };
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = Date.now();
    let elapsed = 0;
    try {
      const catastrophic = rejects({ pattern: '(a+)+$', text: `${'a'.repeat(40)}!` }, 422, 'regex_timeout', config).finally(() => (elapsed = Date.now() - started));
      // A second job runs on the other worker and answers at once.
      const normal = await run({ pattern: 'b', text: 'abc' }, config);
      assert.equal(normal.matches.length, 1);
      await catastrophic;
    } finally {
      clearInterval(ticker);
    }
    // The budget is 300 ms: the answer must come at the budget, not after the pattern would have finished.
    assert.ok(elapsed >= 290 && elapsed < 3000, `took ${elapsed} ms`);
    // The event loop kept running: about 30 ticks of 10 ms fit in the budget; demand a third of them.
    assert.ok(ticks >= 10, `only ${ticks} ticks`);
    // The pool recovers: the next job gets a fresh worker.
    assert.equal((await run({ pattern: 'a', text: 'a' }, config)).matches.length, 1);
  });
});
