import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from 'pino';
import { flushPeriodically } from '../kernel/host/logger.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the periodic log flush', () => {
  it('starts no new flush while the last one waits for the stream to drain', async () => {
    // pino's flush adds a 'drain' listener per call; under load the stream never drains, and one
    // flush per second piled them up (MaxListenersExceededWarning). A stand-in records the calls.
    const waiting: (() => void)[] = [];
    const logger = { flush: (done: () => void) => waiting.push(done) } as unknown as Logger;
    const stop = flushPeriodically(logger, 1);
    try {
      await tick(30);
      assert.equal(waiting.length, 1, 'one flush until the stream drains, however many periods pass');
      waiting[0]!();
      for (let turn = 0; turn < 1000 && waiting.length === 1; turn++) await tick(2);
      assert.equal(waiting.length, 2, 'the next period flushes again');
    } finally {
      stop();
    }
  });
});
