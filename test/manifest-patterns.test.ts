// Nothing from a manifest runs unbounded on the main thread (issue 45, item 4 and finding 3): a
// third-party plugin's recognizer `^(a+)+$`, the same pattern in its body schema and in its response
// schema's patternProperties, reached by a recipe's `$from`. JavaScript's engine backtracks on 30
// `a`s and a `!` for seconds, doubling with each `a`; the service matches manifests' patterns with
// RE2, in linear time. What each attack costs the main thread is counted in CPU time, its own work
// whatever else the machine runs: at most 50 ms, the request's whole path included.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readProcStat } from '../kernel/host/proc-stat.js';
import { send, type Answer } from './support/http.js';
import { buildTestService, fixtures, type InProcessService } from './support/service.js';

const ATTACK = `${'a'.repeat(30)}!`;
/** The most main-thread CPU time one attack may take, request and answer included. */
const MAX_MAIN_THREAD_MS = 50;
let service: InProcessService;

/**
 * CPU time the main thread (the service's, in this process) has used, in ms: user and system time
 * from /proc/self/task/<pid>/stat, in clock ticks of 10 ms (Linux's USER_HZ). Time the thread waits
 * for a core on a busy machine does not count, so the figure is the thread's work alone.
 */
function mainThreadCpuMs(): number {
  return readProcStat(`/proc/self/task/${process.pid}/stat`)!.cpuMs;
}

/** `request`'s answer, and the main thread's CPU time while it ran. */
async function costOf(request: () => Promise<Answer>): Promise<{ answer: Answer; cpuMs: number }> {
  const before = mainThreadCpuMs();
  const answer = await request();
  return { answer, cpuMs: mainThreadCpuMs() - before };
}

before(async () => {
  service = await buildTestService({ plugins: { dirs: [path.join(fixtures, 'pattern-plugins')] } });
  // Each kind of request once with harmless input first: the first loads and compiles what it needs
  // (the plugin's own workers among it), which is no pattern's doing.
  const step = (text: unknown) => ({ steps: [{ operation: 'backtracker/count', body: { text: 'banana' } }, { operation: 'backtracker/shout', body: { text } }] });
  for (const [where, body] of [
    ['/v1/recipes/identify', { input: 'aaa' }],
    ['/v1/recipes/identify', { input: 'bbb!' }],
    ['/v1/backtracker/shout', { text: 'aaa' }],
    ['/v1/backtracker/shout', { text: 'ab' }],
    ['/v1/recipes/run', step({ $from: '/steps/0/aaa' })],
    ['/v1/recipes/run', step({ $from: '/steps/0/b' })],
    ['/v1/recipes/run', step({ $from: '/b'.repeat(65) })],
  ] as const) {
    await send(service.url, where, { body });
  }
});
after(() => service.stop());

const post = (where: string, body: object) => send(service.url, where, { body });
type Candidates = { candidates: { kind: string; recipe: { steps: { operation: string }[] } }[] };
type Refusal = { error: { code: string; details: { path: string; message: string }[] } };

describe('a manifest pattern that backtracks in JavaScript', { timeout: 60_000 }, () => {
  it('as a recognizer: identify answers 30 `a`s and a `!`, and 4,094 of them, each for at most 50 ms of the main thread', async () => {
    // The recognizer is active: a run of `a` is recognised, and the operation run on it.
    const recognised = await post('/v1/recipes/identify', { input: 'aaaa' });
    assert.deepEqual(
      (recognised.json as Candidates).candidates.filter(({ kind }) => kind === 'a-run').map(({ recipe }) => recipe.steps.map(({ operation }) => operation)),
      [['backtracker/shout']],
    );
    for (const input of [ATTACK, `${'a'.repeat(4094)}!`]) {
      const { answer, cpuMs } = await costOf(() => post('/v1/recipes/identify', { input }));
      assert.equal(answer.status, 200, answer.text);
      assert.ok(!(answer.json as Candidates).candidates.some(({ kind }) => kind === 'a-run'), 'the pattern does not match a run that ends in !');
      assert.ok(cpuMs <= MAX_MAIN_THREAD_MS, `${input.length} characters: ${cpuMs} ms of the main thread`);
    }
  });

  it('in a body schema: 400 on /text, for at most 50 ms of the main thread', async () => {
    const { answer, cpuMs } = await costOf(() => post('/v1/backtracker/shout', { text: ATTACK }));
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual((answer.json as Refusal).error.details.map(({ path: at }) => at), ['/text']);
    assert.ok(cpuMs <= MAX_MAIN_THREAD_MS, `${cpuMs} ms of the main thread`);
    assert.deepEqual((await post('/v1/backtracker/shout', { text: 'aaa' })).json, { text: 'AAA' });
  });

  it("in a response schema's patternProperties, reached by a $from of 31 characters and of 1,010: 400 naming the field, for at most 50 ms of the main thread", async () => {
    for (const key of [`${'a'.repeat(21)}!`, `${'a'.repeat(1000)}!`]) {
      const pointer = `/steps/0/${key}`;
      const steps = [{ operation: 'backtracker/count', body: { text: 'banana' } }, { operation: 'backtracker/shout', body: { text: { $from: pointer } } }];
      const { answer, cpuMs } = await costOf(() => post('/v1/recipes/run', { steps }));
      assert.equal(answer.status, 400, answer.text);
      assert.deepEqual((answer.json as Refusal).error.details, [
        { path: '/steps/1/body/text', message: `points at /${key}, which the answer of step 0 (backtracker/count) does not have` },
      ]);
      assert.ok(cpuMs <= MAX_MAIN_THREAD_MS, `a pointer of ${pointer.length} characters: ${cpuMs} ms of the main thread`);
    }
    assert.equal(`/steps/0/${'a'.repeat(21)}!`.length, 31);
    // A key the pattern matches is a field the answer has: the pointer is followed to its type.
    const wired = await post('/v1/recipes/run', {
      steps: [{ operation: 'backtracker/count', body: { text: 'banana' } }, { operation: 'backtracker/count', body: { text: { $from: '/steps/0/aaa' } } }],
    });
    assert.deepEqual((wired.json as Refusal).error.details, [{ path: '/steps/1/body/text', message: 'takes string, but /steps/0/aaa is number' }]);
  });

  it('a $from longer than 1,024 characters or of more than 64 tokens is 400 before any schema is walked', async () => {
    const long = `/steps/0/${'a'.repeat(1016)}`;
    const deep = `/steps/0${'/a'.repeat(63)}`;
    assert.deepEqual([long.length, deep.split('/').length - 1], [1025, 65]);
    const answer = await post('/v1/recipes/run', {
      steps: [{ operation: 'backtracker/count', body: { text: 'banana' } }, { operation: 'backtracker/shout', body: { text: { $from: long } } }, { operation: 'backtracker/shout', body: { text: { $from: deep } } }],
    });
    assert.equal(answer.status, 400, answer.text);
    assert.deepEqual((answer.json as Refusal).error.details, [
      { path: '/steps/1/body/text', message: '$from is longer than 1024 characters' },
      { path: '/steps/2/body/text', message: '$from has more than 64 reference tokens' },
    ]);
  });
});
