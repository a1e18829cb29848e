/**
 * Whether a contained plugin's idle process, past its last request's deadline, is still computing:
 * a thread or a timer a handler left spinning. The service reads the process's CPU time at each
 * watch; one that used more than {@link BUSY_SHARE} of a core over the last {@link QUIET_WINDOW}
 * watches is computing: a tenth of a core is far above what an idle Node process uses, and far
 * below what a loop gets on a busy machine.
 */
const QUIET_WINDOW = 10;
const BUSY_SHARE = 0.1;

export class QuietWatch {
  /** The CPU time at the last watch. */
  #cpuMs: number | undefined;
  /** The CPU time used between each two of the last watches. */
  #used: number[] = [];

  /** The process has work, or may still compute for it: what was seen before counts no more. */
  reset(): void {
    this.#cpuMs = undefined;
    this.#used = [];
  }

  /** True when the process keeps computing: `cpuMs` is its CPU time now (undefined when unread), `everyMs` the time since the last watch. */
  computing(cpuMs: number | undefined, everyMs: number): boolean {
    if (cpuMs !== undefined && this.#cpuMs !== undefined) this.#used = [...this.#used.slice(1 - QUIET_WINDOW), cpuMs - this.#cpuMs];
    this.#cpuMs = cpuMs;
    const used = this.#used.reduce((sum, ms) => sum + ms, 0);
    return this.#used.length >= QUIET_WINDOW && used >= BUSY_SHARE * QUIET_WINDOW * everyMs;
  }
}
