// The event-loop watchdog on its own: which operation it names for a block it did not time itself.
// (Over HTTP: test/containment.test.ts.)
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../kernel/host/logger.js';
import { EventLoopWatchdog } from '../kernel/host/watchdog.js';

/** Holds the thread for at least `ms`: a block of known minimum length on any machine. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

function watched(): { watchdog: EventLoopWatchdog; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString('utf8'));
      done();
    },
  });
  const watchdog = new EventLoopWatchdog(100, createLogger('info', sink));
  const lines = (): Record<string, unknown>[] => written.join('').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  return { watchdog, lines };
}

async function untilLines(lines: () => unknown[], count: number): Promise<void> {
  while (lines().length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('the event-loop watchdog', { timeout: 60_000 }, () => {
  it('names every suspect when several main-thread operations were in flight, and counts the block under none', async () => {
    const { watchdog, lines } = watched();
    watchdog.start();
    try {
      const first = watchdog.begin('a.one', 'r1');
      watchdog.begin('b.two', 'r2');
      await new Promise((resolve) => setTimeout(resolve, 120));
      watchdog.done(first); // ended since the last tick: still a suspect
      block(300);
      await untilLines(lines, 1);
      const [line] = lines();
      assert.deepEqual([line?.msg, line?.operation, (line?.suspects as string[]).sort()], ['event loop blocked', 'none', ['a.one r1', 'b.two r2']]);
      assert.deepEqual([...watchdog.blocks], [['none', 1]]);
    } finally {
      watchdog.stop();
    }
  });

  it('names the operation of a timed section exactly, and the timer does not count the same block again', async () => {
    const { watchdog, lines } = watched();
    watchdog.start();
    try {
      const running = watchdog.begin('c.three', 'r3');
      watchdog.timed(running, () => block(300));
      watchdog.done(running);
      // Two ticks of the timer (every 50 ms) after the block.
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.deepEqual(lines().map((line) => [line.operation, line.requestId]), [['c.three', 'r3']]);
      assert.deepEqual([...watchdog.blocks], [['c.three', 1]]);
    } finally {
      watchdog.stop();
    }
  });
});
