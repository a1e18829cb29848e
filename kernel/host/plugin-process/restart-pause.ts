/**
 * When a contained plugin whose processes keep ending may start another: after two ends of its own
 * in a row the share waits before the next start, doubling the pause up to a cap, so a plugin that
 * keeps dying costs no CPU in a loop. One answer from any of its processes sets the count back.
 */

/** The first pause after two ends in a row, doubled after each further one, up to {@link MAX_PAUSE_MS}. */
export const FIRST_PAUSE_MS = 500;
export const MAX_PAUSE_MS = 30_000;
/** Ends in a row after which the log says, once, that the plugin keeps failing. */
export const KEEPS_FAILING = 5;

export class RestartPause {
  /** Ends of the plugin's own doing in a row. */
  failures = 0;
  #until = 0;

  /** One more end of the plugin's own doing, at `now`: the pause it starts, in ms (0 after the first). */
  failed(now: number): number {
    this.failures++;
    const pauseMs = this.failures < 2 ? 0 : Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.failures - 2));
    this.#until = now + pauseMs;
    return pauseMs;
  }

  /** A process answered: the plugin works again. */
  answered(): void {
    this.failures = 0;
  }

  /** How long from `now` until a process may be started again; 0 or less when one may be now. */
  leftMs(now: number): number {
    return this.#until - now;
  }
}
