// invoke() is typed from the operation it runs: the answer has the static type of the response
// schema. The @ts-expect-error lines are the test of that: `tsc -b` (npm run typecheck, the build)
// fails when one of them compiles, that is, when the answer's type is lost. And the
// `context.runInWorker` it hands a handler: the one handed in, or the function run in this thread.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineOperation, definePlugin, type Plugin } from './define.js';
import { invoke, workerJobRecorder } from './invoke.js';
import { Type } from './typebox.js';
import { SDK_VERSION } from './version.js';
import { isWorkerJobError, type RunInWorker } from './worker-errors.js';

const closed = { additionalProperties: false } as const;
const numerals: readonly [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];

const roman = definePlugin({
  group: 'roman-numerals',
  sdk: `^${SDK_VERSION}`,
  operations: {
    'to-roman': defineOperation({
      summary: 'An integer as a Roman numeral',
      body: Type.Object({ n: Type.Integer({ minimum: 1, maximum: 3999 }) }, closed),
      response: Type.Object({ roman: Type.String({ maxLength: 15 }) }, closed),
      examples: [{ body: { n: 1990 }, response: { roman: 'MCMXC' } }],
      handler: ({ n }) => {
        let rest = n;
        let text = '';
        for (const [value, letters] of numerals) for (; rest >= value; rest -= value) text += letters;
        return { roman: text };
      },
    }),
  },
});

describe('invoke() types', () => {
  it('gives the answer the type of the response schema', async () => {
    // 1994 = M (1000) + CM (900) + XC (90) + IV (4).
    const { roman: text } = await invoke(roman, 'to-roman', { n: 1994 });
    const typed: string = text;
    assert.equal(typed, 'MCMXCIV');
    // @ts-expect-error the answer is { roman: string }: it has no field `numeral`
    const { numeral } = await invoke(roman, 'to-roman', { n: 4 });
    assert.equal(numeral, undefined);
    // @ts-expect-error `roman` is a string, not a number
    const wrong: number = (await invoke(roman, 'to-roman', { n: 4 })).roman;
    assert.equal(wrong, 'IV');
  });

  it('answers unknown for a plugin known only as Plugin, which a test must narrow itself', async () => {
    const loose: Plugin = roman;
    const answer = await invoke(loose, 'to-roman', { n: 9 });
    // @ts-expect-error the answer of an untyped plugin is unknown
    assert.equal(answer.roman, 'IX');
  });
});

const jobs = new URL('./fixtures/jobs.js', import.meta.url);
/** An operation that runs a job of fixtures/jobs.ts and answers its result, or why it gave none. */
const runner = definePlugin({
  group: 'runner',
  sdk: `^${SDK_VERSION}`,
  operations: {
    run: defineOperation({
      summary: 'Runs a job off the main thread',
      body: Type.Object({ job: Type.String(), args: Type.Array(Type.Number()), deadlineMs: Type.Integer() }, closed),
      response: Type.Object({ result: Type.Optional(Type.Number()), reason: Type.Optional(Type.String()), errorName: Type.Optional(Type.String()) }, closed),
      examples: [{ body: { job: 'double', args: [2], deadlineMs: 1000 }, response: { result: 4 } }],
      handler: async ({ job, args, deadlineMs }, context) => {
        try {
          return { result: await context.runInWorker<number>(jobs, job, args, { deadlineMs, signal: context.signal }) };
        } catch (error) {
          if (!isWorkerJobError(error)) throw error;
          return { reason: error.reason, ...(error.errorName === undefined ? {} : { errorName: error.errorName }) };
        }
      },
    }),
  },
});

describe('invoke() runInWorker', () => {
  it('runs the function in the test\'s own thread unless a runner is handed in', async () => {
    assert.deepEqual(await invoke(runner, 'run', { job: 'double', args: [21], deadlineMs: 1000 }), { result: 42 });
    assert.deepEqual(await invoke(runner, 'run', { job: 'later', args: [7, 1], deadlineMs: 1000 }), { result: 7 });
    assert.deepEqual(await invoke(runner, 'run', { job: 'notAFunction', args: [], deadlineMs: 1000 }), { reason: 'failed', errorName: 'TypeError' });
  });

  it('rejects as the host\'s pool would: timeout past the deadline, aborted when the signal fires', async () => {
    assert.deepEqual(await invoke(runner, 'run', { job: 'later', args: [7, 60_000], deadlineMs: 20 }), { reason: 'timeout' });
    const aborted = new AbortController();
    aborted.abort();
    assert.deepEqual(await invoke(runner, 'run', { job: 'double', args: [1], deadlineMs: 1000 }, { signal: aborted.signal }), { reason: 'aborted' });
    const during = new AbortController();
    const answer = invoke(runner, 'run', { job: 'later', args: [7, 60_000], deadlineMs: 60_000 }, { signal: during.signal });
    setImmediate(() => during.abort());
    assert.deepEqual(await answer, { reason: 'aborted' });
  });

  it('records the jobs a handler runs through workerJobRecorder, each run in this thread', async () => {
    const { runInWorker, jobs } = workerJobRecorder();
    assert.deepEqual(jobs, []);
    assert.deepEqual(await invoke(runner, 'run', { job: 'double', args: [21], deadlineMs: 1000 }, { runInWorker }), { result: 42 });
    assert.deepEqual(await invoke(runner, 'run', { job: 'later', args: [7, 60_000], deadlineMs: 20 }, { runInWorker }), { reason: 'timeout' });
    assert.deepEqual(jobs, ['double', 'later']);
  });

  it('hands the handler the runner given, with the module, export, arguments and options', async () => {
    const calls: unknown[][] = [];
    const runInWorker: RunInWorker = async <Result>(...call: Parameters<RunInWorker>) => {
      calls.push([call[0].href, call[1], call[2], call[3].deadlineMs]);
      return 99 as Result;
    };
    assert.deepEqual(await invoke(runner, 'run', { job: 'double', args: [1], deadlineMs: 500 }, { runInWorker }), { result: 99 });
    assert.deepEqual(calls, [[jobs.href, 'double', [1], 500]]);
  });
});
