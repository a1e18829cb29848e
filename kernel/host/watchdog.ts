/**
 * The event-loop watchdog. The main thread answers every client, so any stretch of synchronous work
 * longer than `watchdog.blockedMs` stalls them all; this finds such stretches and names the
 * operation behind each, in one log line and in `/metrics` (toolshed_event_loop_blocked_total).
 *
 * Two ways, because neither sees everything alone (docs/decisions.md, "The watchdog"): the dispatch
 * times each synchronous section it runs for an operation (the handler's first, synchronous part
 * and the answer's serialization), which names the culprit exactly; a timer that checks its own
 * lateness catches the rest (a handler's code after an `await`, the kernel's own work), and names
 * the main-thread operation when just one was in flight since its last check (with several, the
 * line lists them all).
 *
 * The same tick ends main-thread operations past their deadline (`within`): one timer for all of
 * them rather than a timer per request, so a deadline is kept to within half of `blockedMs`.
 */
import type { Logger } from './logger.js';
import { Roster, type RosterMember } from './roster.js';

/** A main-thread operation in flight, as the executor registered it. */
export interface Running extends RosterMember {
  readonly operation: string;
  readonly requestId: string;
  /** performance.now() past which `reject` is called with `expired()`, once (see {@link EventLoopWatchdog.within}). */
  deadline: number;
  reject: ((error: Error) => void) | undefined;
  expired: (() => Error) | undefined;
}

/** The label of a block no operation is known for. */
const NO_OPERATION = 'none';

export class EventLoopWatchdog {
  /** Blocks counted per operation id (`none`: not known), for /metrics. */
  readonly blocks = new Map<string, number>();
  private readonly inFlight = new Roster<Running>();
  /** Operations that ended since the last check: one of them may be what blocked the thread. */
  private ended: Running[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** performance.now() of the last block reported by a timed section. */
  private reportedAt = -Infinity;

  constructor(
    private readonly blockedMs: number,
    private readonly logger: Logger,
  ) {}

  /** Starts the lateness and deadline checks (once; again does nothing); the timer never keeps the process alive. */
  start(): void {
    if (this.timer !== undefined) return;
    const everyMs = Math.max(5, Math.floor(this.blockedMs / 2));
    let expected = performance.now() + everyMs;
    this.timer = setInterval(() => {
      const now = performance.now();
      const lateMs = now - expected;
      // The loop was blocked at least lateMs; a block a timed section reported already is not counted twice.
      if (lateMs >= this.blockedMs && this.reportedAt < expected - everyMs) {
        const candidates = [...new Set([...this.inFlight.list(), ...this.ended])];
        const only = candidates.length === 1 ? candidates[0] : undefined;
        this.report(only?.operation ?? NO_OPERATION, only?.requestId, lateMs, only === undefined ? candidates : undefined);
      }
      this.ended = [];
      for (const running of this.inFlight.list()) {
        const { reject, expired } = running;
        if (reject !== undefined && expired !== undefined && running.deadline <= now) {
          running.reject = running.expired = undefined;
          reject(expired());
        }
      }
      expected = now + everyMs;
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Registers a main-thread operation until {@link done}. */
  begin(operation: string, requestId: string): Running {
    const running: Running = { operation, requestId, deadline: Number.POSITIVE_INFINITY, reject: undefined, expired: undefined, rosterIndex: -1 };
    this.inFlight.add(running);
    return running;
  }

  /**
   * Settles as `work` does, or rejects with `expired()` once `deadlineMs` has passed first (the tick
   * finds it; the watchdog must be started). The work itself goes on unseen: a promise cannot be
   * cancelled, and a synchronous loop on the main thread cannot be interrupted at all.
   */
  within<T>(running: Running, work: Promise<T>, deadlineMs: number, expired: () => Error): Promise<T> {
    running.deadline = performance.now() + deadlineMs;
    // The record keeps the promise's own reject and the error's maker, never a closure made in the
    // executor below: with one (`() => reject(expired())`), every request's context, its handler's
    // context and the Koa context with its request and response, outlived the request until the next
    // full collection, although the closure was dropped when the work settled. A small keyed request
    // left 3.1 KB that survived two scavenges (bare Koa: 3 bytes), and the main heap needed a
    // mark-compact every ~7,000 requests (docs/decisions.md, "The watchdog").
    running.expired = expired;
    return new Promise<T>((resolve, reject) => {
      running.reject = reject;
      work.then(
        (value) => {
          running.reject = running.expired = undefined;
          resolve(value);
        },
        (error: unknown) => {
          running.reject = running.expired = undefined;
          reject(error);
        },
      );
    });
  }

  /** Reports a synchronous section of `running` that began at `started` (performance.now()) when it held the thread too long. */
  took(running: Running, started: number): void {
    const tookMs = performance.now() - started;
    if (tookMs >= this.blockedMs) {
      this.reportedAt = performance.now();
      this.report(running.operation, running.requestId, tookMs);
    }
  }

  done(running: Running): void {
    this.inFlight.remove(running);
    this.ended.push(running);
  }

  /** Runs `work` (synchronous code of `running`) and reports it when it held the thread too long. */
  timed<T>(running: Running, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.took(running, started);
    }
  }

  private report(operation: string, requestId: string | undefined, blockedMs: number, candidates?: readonly Running[]): void {
    this.blocks.set(operation, (this.blocks.get(operation) ?? 0) + 1);
    // Several operations may have run while the thread was blocked: name them all (at most ten).
    const suspects = candidates?.slice(0, 10).map((running) => `${running.operation} ${running.requestId}`);
    const line = { operation, requestId, blockedMs: Math.round(blockedMs), ...(suspects === undefined || suspects.length === 0 ? {} : { suspects }) };
    this.logger.warn(line, 'event loop blocked');
  }
}
