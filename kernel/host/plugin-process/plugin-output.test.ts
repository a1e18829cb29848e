// relayOutput: a plugin process's output relayed a line at a time, each labelled, control
// characters made visible, and reading paused past the budget until its window is over.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { relayOutput } from './plugin-output.js';

/** Waits for what the relay does on the event loop's own time; a guard, not a timing. */
async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    assert.ok(tries < 10_000, 'never happened');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('relayOutput', () => {
  it('says each line once it is whole, labelled, with control characters replaced, and the last one at the end', async () => {
    const output = new PassThrough();
    const said: string[] = [];
    relayOutput(output, { label: 'plugin demo 42', write: (text) => said.push(text) });
    output.write('one\ntw');
    output.write('o\r\u001b[2Kthree\nfo');
    output.end('ur');
    await until(() => said.length === 3);
    assert.deepEqual(said, ['[plugin demo 42] one\n', '[plugin demo 42] two\uFFFD\uFFFD[2Kthree\n', '[plugin demo 42] four\n']);
  });

  it('stops reading at the budget, says so, and reads again once its window is over', async () => {
    const output = new PassThrough();
    const said: string[] = [];
    relayOutput(output, { label: 'p', write: (text) => said.push(text), budgetBytes: 10, windowMs: 50 });
    output.write('12345\n');
    await until(() => said.length === 1);
    assert.equal(output.isPaused(), false);
    // Past the budget, a line not yet ended is said as it stands: what waits is never held.
    output.write('6789\nabcd');
    await until(() => said.length === 4);
    assert.deepEqual(said.slice(1, 3), ['[p] 6789\n', '[p] abcd\n']);
    assert.match(said[3]!, /^\[p\] printed 10 bytes within 0.05 s: what it prints next waits until \d{4}-/);
    assert.equal(output.isPaused(), true);
    output.write('later\n');
    await until(() => said.length === 5);
    assert.equal(said[4], '[p] later\n');
  });
});
