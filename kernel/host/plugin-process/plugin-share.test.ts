// The share's rules for requests sent ahead to a busy process, against a process that speaks the
// wire but ignores what it is told (fixtures/protocol-ignorer.ts): the service's own bounds must
// hold whatever the process does.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../logger.js';
import { PluginShare, type ShareStats } from './plugin-share.js';

const ignorer = fileURLToPath(new URL('./fixtures/protocol-ignorer.js', import.meta.url));
const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

/** Resolves once `check` holds (polled every 10 ms; the test's own timeout is the guard). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A share of `processes` processes of the protocol ignorer, each holding up to 4 requests. */
function ignorerShare(processes: number): PluginShare {
  return new PluginShare({
    group: 'ignorer',
    processes,
    pipeline: 4,
    maxQueue: 8,
    rssMb: 1024,
    idleMs: 60_000,
    quietMs: 60_000,
    niceness: 0,
    maxAnswerBytes: 1024,
    config: null,
    launch: { command: process.execPath, args: [ignorer], env: {}, cwd: fileURLToPath(new URL('.', import.meta.url)) },
    logger: createLogger('silent'),
  });
}

/** The process id a `wait` answered from. */
const pidOf = (answer: Uint8Array): number => (JSON.parse(new TextDecoder().decode(answer)) as { pid: number }).pid;

describe('a plugin share of two processes', { timeout: 60_000 }, () => {
  it('starts its second process before it sends anything ahead, then sends each request to the process holding fewest', async () => {
    const share = ignorerShare(2);
    try {
      // One process ready and busy: the next request starts the other rather than wait in this one.
      await share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 });
      const first = share.run('wait', json({ ms: 400 }), { deadlineMs: 5000 });
      await until(() => share.stats().running === 1);
      const second = share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 });
      const [a, b] = (await Promise.all([first, second])).map(pidOf);
      assert.notEqual(a, b, 'the second request started the second process rather than wait in the first');
      // Both ready: one busy request each, then two more, one sent ahead to each.
      const busy = [share.run('wait', json({ ms: 400 }), { deadlineMs: 5000 }), share.run('wait', json({ ms: 400 }), { deadlineMs: 5000 })];
      await until(() => share.stats().running === 2);
      const ahead = [share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 }), share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 })];
      const [c, d, e, f] = (await Promise.all([...busy, ...ahead])).map(pidOf);
      assert.deepEqual([new Set([c, d]), new Set([e, f])], [new Set([a, b]), new Set([a, b])], 'one of each pair to each process');
    } finally {
      await share.close();
    }
  });
});

describe('a plugin share sending requests ahead to a busy process', { timeout: 60_000 }, () => {
  let share: PluginShare;
  const stats = (): ShareStats => share.stats();
  before(async () => {
    share = ignorerShare(1);
    // The process booted and ready, so that what follows is sent to it at once.
    await share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 });
  });
  after(() => share.close());

  it('never sends a large request ahead, and sends nothing ahead of the large one it runs', async () => {
    const large = share.run('wait', json({ ms: 300 }), { deadlineMs: 5000, bulk: true });
    const small = share.run('wait', json({ ms: 0 }), { deadlineMs: 5000 });
    await until(() => stats().running + stats().queued === 2);
    assert.deepEqual([stats().running, stats().queued], [1, 1], 'the small one waits in the service');
    await Promise.all([large, small]);
    const running = share.run('wait', json({ ms: 300 }), { deadlineMs: 5000 });
    const largeAfter = share.run('wait', json({ ms: 0 }), { deadlineMs: 5000, bulk: true });
    await until(() => stats().running + stats().queued === 2);
    assert.deepEqual([stats().running, stats().queued], [1, 1], 'the large one waits in the service');
    await Promise.all([running, largeAfter]);
  });

  it('ends a process that runs a request it was told was given up on, once its turn has come', async () => {
    const ends = stats().ends.deadline ?? 0;
    const waiting = share.run('wait', json({ ms: 500 }), { deadlineMs: 5000 });
    // Given up at 200 ms while it waits in the process: answered then; the process should skip it and runs it instead, for ever.
    const spin = share.run('spin', json({}), { deadlineMs: 200 });
    await until(() => stats().running === 2);
    await assert.rejects(spin, { status: 503, code: 'server_busy' });
    assert.equal(stats().running, 2, 'the first still runs, the spin still waits in the process');
    await waiting;
    await until(() => stats().ends.deadline === ends + 1);
  });
});
