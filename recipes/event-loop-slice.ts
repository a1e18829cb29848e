/**
 * How a composite shares the main thread. A run on the main thread settles in microtasks, so a
 * recipe's steps (identify's tries) ran back to back and held every other client for all of them.
 * The runner gives the event loop a turn once it has held it for {@link SLICE_MS} since its last
 * turn: 32 steps of 7 ms each get a turn between every two, while a short recipe runs through, as
 * one request would. A turn is not free: about 14 µs of CPU, more than a small step's own work.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a composite may hold the event loop before it gives other clients a turn. */
export const SLICE_MS = 1;

export interface EventLoopSlice {
  /** True once the slice since the last turn (or the start) has run out. */
  spent(): boolean;
  /** Waits for the event loop's next turn; the next slice starts there. */
  turn(): Promise<void>;
}

/** A slice measured by `clock` in ms, `performance.now()` unless given (tests count work with a clock of their own). */
export function eventLoopSlice(clock: () => number = () => performance.now()): EventLoopSlice {
  let since = clock();
  return {
    spent: () => clock() - since >= SLICE_MS,
    async turn() {
      await nextTurn();
      since = clock();
    },
  };
}
