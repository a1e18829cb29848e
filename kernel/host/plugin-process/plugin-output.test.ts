// relayOutput: a plugin process's output relayed a line at a time, each labelled, control
// characters made visible, in one write per read, and reading paused past the budget until its
// window is over.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { OutputBudget, relayOutput } from './plugin-output.js';

/**
 * Waits for what the relay does on the event loop's own turns (a stream's events come on later
 * ticks), counting turns rather than time; setImmediate, so that it runs with the clock mocked.
 */
async function until(check: () => boolean): Promise<void> {
  for (let turns = 0; !check(); turns++) {
    assert.ok(turns < 1_000, 'never happened');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Lets `count` turns of the event loop go by: time enough for the relay to read what it may. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** A relay of a fresh stream, and what it wrote: each write, and the lines of them all. */
function relay(budget?: OutputBudget) {
  const output = new PassThrough();
  const writes: string[] = [];
  relayOutput(output, { label: 'p', write: (text) => writes.push(text), ...(budget ? { budget } : {}) });
  return { output, writes, lines: () => writes.join('').split('\n').slice(0, -1) };
}

describe('relayOutput', () => {
  it('says each line once it is whole, labelled, with control characters replaced, and the last one at the end', async () => {
    const { output, lines } = relay();
    output.write('one\ntw');
    output.write('o\r\u001b[2Kthree\nfo');
    output.end('ur');
    await until(() => lines().length === 3);
    assert.deepEqual(lines(), ['[p] one', '[p] two\uFFFD\uFFFD[2Kthree', '[p] four']);
  });

  it('writes the lines of one read in one write', async () => {
    const { output, writes, lines } = relay();
    output.write('\n'.repeat(1000));
    await until(() => lines().length === 1000);
    // One by one, 64 KiB of empty lines held the main thread 70–110 ms.
    assert.equal(writes.length, 1);
  });

  it('stops reading at the budget, says so, and reads again once its window is over', async (t) => {
    // The window's clock is mocked: on a busy machine a real 50 ms window could end between the
    // two writes below, and the second would then open a window of its own under the budget.
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { output, lines } = relay(new OutputBudget(10, 50));
    output.write('12345\n');
    await until(() => lines().length === 1);
    assert.equal(output.isPaused(), false);
    // Past the budget, a line not yet ended is said as it stands: what waits is never held.
    output.write('6789\nabcd');
    await until(() => lines().length === 4);
    assert.deepEqual(lines().slice(1, 3), ['[p] 6789', '[p] abcd']);
    assert.equal(lines()[3], '[p] printed 10 bytes within 0.05 s: what it prints next waits until 1970-01-01T00:00:00.050Z');
    assert.equal(output.isPaused(), true);
    output.write('later\n');
    t.mock.timers.tick(49);
    await turns(20);
    assert.equal(lines().length, 4, 'read before its window was over');
    t.mock.timers.tick(1);
    await until(() => lines().length === 5);
    assert.equal(lines()[4], '[p] later');
  });

  it('shares the budget between the processes of one plugin: one started when it is spent reads nothing until its window is over', async (t) => {
    // A plugin that prints, then exits to be started again, got a fresh budget with each process.
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const budget = new OutputBudget(10, 50);
    const first = relay(budget);
    first.output.write('0123456789\n');
    await until(() => first.lines().length === 2);
    assert.match(first.lines()[1]!, /^\[p\] printed 10 bytes within 0.05 s/);
    first.output.end();
    const second = relay(budget);
    second.output.write('hello\n');
    await turns(20);
    assert.deepEqual(second.lines(), [], 'read before the window was over');
    t.mock.timers.tick(50);
    await until(() => second.lines().length === 1);
    assert.equal(second.lines()[0], '[p] hello');
  });
});
