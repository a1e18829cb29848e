// A contained plugin's busy process is sent the requests that wait for it (plugins.workers.pipeline),
// which it runs one at a time in the order sent: the requests that arrive together cross to it
// together, and their answers come back together (bench row (f)). The fixture (test/fixtures/
// pipeline-plugins/pacer) answers with its process id and how many requests that process ran
// before, so each test reads where and in what order a request ran, or that it never did.
import assert from 'node:assert/strict';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { answerText, builtinPluginDir, type RunRequest } from '../kernel/host/index.js';
import { buildTestService, fixtures, type InProcessService } from './support/service.js';
import { until } from './support/until.js';

const GROUP = 'pacer';
const pipelinePlugins = path.join(fixtures, 'pipeline-plugins');

interface Ran {
  readonly label: string;
  readonly pid: number;
  readonly order: number;
}

type Outcome = { readonly ran: Ran } | { readonly refused: { readonly status: number; readonly code: string } };

describe('a contained plugin whose process is busy', { timeout: 120_000 }, () => {
  let service: InProcessService;
  const share = () => service.host.pluginProcesses.stats().get(GROUP)!;
  /** Settled outcomes in the order they settled. */
  let settled: string[];
  const call = (operation: string, body: Record<string, unknown>, extra: Partial<RunRequest> = {}): Promise<Outcome> =>
    service.host.executor.run({ operation: `${GROUP}/${operation}`, body, ...extra }).then(
      (answer) => {
        settled.push(String(body.label));
        return { ran: JSON.parse(answerText(answer)) as Ran };
      },
      (error: { status: number; code: string }) => {
        settled.push(String(body.label));
        return { refused: { status: error.status, code: error.code } };
      },
    );
  const ran = (outcome: Outcome): Ran => {
    assert.ok('ran' in outcome, `answered, not refused: ${JSON.stringify(outcome)}`);
    return outcome.ran;
  };

  before(async () => {
    // One process (the default), 16 requests in it at most (the default); a long deadline, so that
    // only a request's own shorter one (RunRequest.deadlineMs, as a recipe's step has) cuts it.
    service = await buildTestService({ plugins: { dirs: [pipelinePlugins] }, operations: { groupDeadlineMs: { [GROUP]: 10_000 } }, workers: { offloadBytes: 1024 } }, { builtinDir: builtinPluginDir });
  });
  after(() => service.stop());

  /** Starts a `hold` and resolves, once its process runs it, to its outcome to come (wrapped: an async function would wait for it). */
  async function holding(label: string, ms: number, extra: Partial<RunRequest> = {}, pauseMs = 0): Promise<{ readonly outcome: Promise<Outcome> }> {
    settled = [];
    const outcome = call('hold', { label, ms, pauseMs }, extra);
    await until(() => share().running === 1, 'the hold runs');
    return { outcome };
  }

  it('is sent the requests that arrive meanwhile, runs them in the order sent after the one it runs, and answers each', async () => {
    const { outcome: first } = await holding('first', 1500);
    const stamps = ['a', 'b', 'c', 'd', 'e'].map((label) => call('stamp', { label }));
    // All five are in the process while it still runs the first: none waits in the service's queue.
    await until(() => share().running === 6, 'five requests sent ahead');
    assert.equal(share().queued, 0);
    const held = ran(await first);
    const answers = (await Promise.all(stamps)).map(ran);
    assert.deepEqual(
      answers.map(({ label, pid, order }) => [label, pid, order]),
      ['a', 'b', 'c', 'd', 'e'].map((label, index) => [label, held.pid, held.order + 1 + index]),
    );
  });

  it('ends its process when the request it runs passes its deadline, and a new process runs those sent ahead behind it', async () => {
    const before = ran(await call('stamp', { label: 'before' }));
    const ends = share().ends.deadline ?? 0;
    // A deadline of 2 s: the three must be sent ahead before it passes, on a busy machine too.
    const { outcome: first } = await holding('first', 5000, { deadlineMs: 2000 });
    const stamps = ['a', 'b', 'c'].map((label) => call('stamp', { label }));
    await until(() => share().running === 4, 'three requests sent ahead');
    assert.deepEqual(await first, { refused: { status: 504, code: 'operation_timeout' } });
    const answers = (await Promise.all(stamps)).map(ran);
    const pid = answers[0]!.pid;
    assert.notEqual(pid, before.pid, 'a new process');
    assert.deepEqual(
      answers.map(({ label, pid, order }) => [label, pid, order]),
      [
        ['a', pid, 0],
        ['b', pid, 1],
        ['c', pid, 2],
      ],
    );
    assert.equal(share().ends.deadline, ends + 1);
  });

  it('answers 502 only to the request its process ran when it exits; a new process runs those sent ahead behind it', async () => {
    settled = [];
    const exits = share().ends.exited ?? 0;
    // It exits after 2 s: the two must be sent ahead before, on a busy machine too.
    const ending = call('exit', { label: 'exit', ms: 2000 });
    await until(() => share().running === 1, 'the exit runs');
    const stamps = ['a', 'b'].map((label) => call('stamp', { label }));
    await until(() => share().running === 3, 'two requests sent ahead');
    assert.deepEqual(await ending, { refused: { status: 502, code: 'plugin_crashed' } });
    const answers = (await Promise.all(stamps)).map(ran);
    assert.deepEqual(
      answers.map(({ label, order }) => [label, order]),
      [
        ['a', 0],
        ['b', 1],
      ],
    );
    assert.equal(share().ends.exited, exits + 1);
  });

  it('answers a request whose deadline passes while it waits in the process at once (503), and the process skips it: never run, the process kept', async () => {
    const ends = { ...share().ends };
    const { outcome: first } = await holding('first', 1500);
    const short = call('stamp', { label: 'short' }, { deadlineMs: 200 });
    const next = call('stamp', { label: 'next' });
    await until(() => share().running === 3, 'two requests sent ahead');
    assert.deepEqual(await short, { refused: { status: 503, code: 'server_busy' } });
    const held = ran(await first);
    assert.deepEqual(ran(await next), { label: 'next', pid: held.pid, order: held.order + 1 });
    assert.deepEqual(settled, ['short', 'first', 'next'], 'the short one was answered while the first still ran');
    assert.deepEqual(share().ends, ends, 'no process was ended');
  });

  it('cancels a request whose client leaves while it waits in the process: never run, the process kept', async () => {
    const ends = { ...share().ends };
    // The process reads both requests while the first pauses, and the cancel while it blocks: read
    // only after the first ends, when the chain of runs would go straight on to the cancelled one.
    // It blocks for 2.5 s, so the cancel sent 0.6 s after the two lands within it on a busy machine too.
    const { outcome: first } = await holding('first', 2500, {}, 300);
    const leaving = new AbortController();
    const caller = { gone: () => leaving.signal, left: () => leaving.signal.aborted, charge: () => Promise.resolve() };
    const gone = call('stamp', { label: 'gone' }, { caller });
    const next = call('stamp', { label: 'next' });
    await until(() => share().running === 3, 'two requests sent ahead');
    await setTimeout(600);
    leaving.abort();
    assert.ok('refused' in (await gone));
    const held = ran(await first);
    assert.deepEqual(ran(await next), { label: 'next', pid: held.pid, order: held.order + 1 });
    assert.deepEqual(share().ends, ends, 'no process was ended');
  });

  it('checks the large answers of the requests sent ahead on the pool one at a time, its share of that work (one process)', async () => {
    const before = share().answerChecks.run;
    const { outcome: first } = await holding('first', 1500);
    // Small bodies, sent ahead; answers of 2,000 characters, over workers.offloadBytes (1 KiB here),
    // which the process writes one after another once the hold ends.
    const larges = ['a', 'b', 'c', 'd'].map((label) => call('large', { label, bytes: 2000 }));
    await until(() => share().running === 5, 'four requests sent ahead');
    ran(await first);
    assert.deepEqual((await Promise.all(larges)).map((outcome) => ran(outcome).label), ['a', 'b', 'c', 'd']);
    assert.deepEqual([share().answerChecks.run - before, share().answerChecks.most], [4, 1]);
  });

  it('never sends a large request ahead: it waits for the process to be free, and small ones arriving after it go by', async () => {
    // One large request first, so that the pool's thread is started and its check loaded: cold, on a
    // busy machine, the large request could reach the queue only after the hold below had ended.
    ran(await call('stamp', { label: 'warm', pad: 'x'.repeat(2000) }));
    const { outcome: first } = await holding('first', 1500);
    // Over workers.offloadBytes (1 KiB here): a large request, checked on the pool, then sent alone.
    const large = call('stamp', { label: 'large', pad: 'x'.repeat(2000) });
    await until(() => share().queued === 1, 'the large request waits in the service');
    assert.equal(share().running, 1);
    const small = call('stamp', { label: 'small' });
    await until(() => share().running === 2, 'the small one sent ahead');
    const held = ran(await first);
    assert.deepEqual([ran(await small).order, ran(await large).order], [held.order + 1, held.order + 2]);
  });
});
