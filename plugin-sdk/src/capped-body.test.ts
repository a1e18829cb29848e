// readCapped: the bytes of a body up to its cap, and the caller's error one byte past it, with the
// rest of the body cancelled rather than read.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCapped } from './capped-body.js';

/** A body of `chunks`, counting how many were pulled and whether it was cancelled. */
function bodyOf(chunks: readonly string[]): { body: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  let next = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === chunks.length) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunks[next++]));
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => next, cancelled: () => cancelled };
}

const tooLarge = (): Error => new RangeError('too large');

describe('readCapped', () => {
  it('gives every byte of a body of exactly the cap, joined', async () => {
    assert.equal((await readCapped(bodyOf(['ab', 'cd', 'e']).body, 5, tooLarge)).toString(), 'abcde');
  });

  it('reads no body as empty', async () => {
    assert.equal((await readCapped(null, 5, tooLarge)).length, 0);
  });

  it("throws the caller's error one byte past the cap, and cancels the rest unread", async () => {
    const source = bodyOf(['ab', 'cd', 'ef', 'gh', 'ij']);
    await assert.rejects(readCapped(source.body, 5, tooLarge), /too large/);
    assert.equal(source.pulled(), 3);
    assert.equal(source.cancelled(), true);
  });
});
