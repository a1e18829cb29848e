/**
 * A small pool of worker threads for untrusted regexes. A job that outlives its time budget has
 * its worker terminated (V8 interrupts even a backtracking regex), so one catastrophic pattern
 * costs one worker and one budget, never the event loop that serves everyone else.
 */
import { Worker } from 'node:worker_threads';

type Settle<Outcome> = (value: Outcome | 'timeout' | 'aborted' | 'crashed') => void;

interface Task<Job, Outcome> {
  readonly job: Job;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly settle: Settle<Outcome>;
}

interface Slot<Job, Outcome> {
  readonly worker: Worker;
  /** False until the worker has loaded its module and said so: start-up time is not the job's. */
  ready: boolean;
  task?: Task<Job, Outcome>;
  timer?: NodeJS.Timeout;
}

/** What a worker script posts once, first, when it is ready for jobs. */
export const WORKER_READY = 'ready';

export class WorkerPool<Job, Outcome> {
  private readonly idle: Slot<Job, Outcome>[] = [];
  private readonly running = new Set<Slot<Job, Outcome>>();
  private readonly queue: Task<Job, Outcome>[] = [];
  private size = 0;
  private closed = false;

  /**
   * @param script the worker's module.
   * @param maxWorkers workers running at once; further jobs wait their turn.
   * @param memoryMb heap cap of each worker, so a job cannot exhaust the process's memory.
   */
  constructor(
    private readonly script: URL,
    private readonly maxWorkers: number,
    private readonly memoryMb = 512,
  ) {}

  /** Runs `job`; 'timeout' after `timeoutMs` of running, 'aborted' when `signal` fires first. */
  run(job: Job, timeoutMs: number, signal: AbortSignal): Promise<Outcome | 'timeout' | 'aborted' | 'crashed'> {
    if (this.closed) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      const task: Task<Job, Outcome> = { job, timeoutMs, signal, settle: resolve };
      this.queue.push(task);
      signal.addEventListener('abort', () => this.abort(task), { once: true });
      this.dispatch();
    });
  }

  /** Terminates every worker; queued jobs answer 'aborted'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.settle('aborted');
    await Promise.all(this.idle.splice(0).map((slot) => slot.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.size < this.maxWorkers ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.queue.shift() as Task<Job, Outcome>;
      slot.task = task;
      this.running.add(slot);
      slot.worker.ref();
      slot.worker.postMessage(task.job);
      if (slot.ready) this.startClock(slot);
    }
  }

  private spawn(): Slot<Job, Outcome> {
    const worker = new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    const slot: Slot<Job, Outcome> = { worker, ready: false };
    this.size++;
    worker.on('message', (outcome: Outcome | typeof WORKER_READY) => {
      if (outcome !== WORKER_READY) this.finish(slot, outcome, false);
      else {
        slot.ready = true;
        if (slot.task) this.startClock(slot);
      }
    });
    worker.on('error', () => this.finish(slot, 'crashed', true));
    worker.on('exit', () => {
      // An exit we did not ask for (out of memory) must not leave its job waiting forever.
      if (slot.task) this.finish(slot, 'crashed', true);
    });
    return slot;
  }

  private startClock(slot: Slot<Job, Outcome>): void {
    slot.timer = setTimeout(() => this.finish(slot, 'timeout', true), slot.task?.timeoutMs);
  }

  private finish(slot: Slot<Job, Outcome>, outcome: Outcome | 'timeout' | 'aborted' | 'crashed', discard: boolean): void {
    const task = slot.task;
    if (task === undefined) return;
    slot.task = undefined;
    this.running.delete(slot);
    clearTimeout(slot.timer);
    task.settle(outcome);
    if (discard) {
      this.size--;
      void slot.worker.terminate();
    } else if (this.closed) {
      void slot.worker.terminate();
    } else {
      // An idle worker must not keep the process alive.
      slot.worker.unref();
      this.idle.push(slot);
    }
    this.dispatch();
  }

  private abort(task: Task<Job, Outcome>): void {
    const queued = this.queue.indexOf(task);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      task.settle('aborted');
      return;
    }
    for (const slot of this.running) if (slot.task === task) this.finish(slot, 'aborted', true);
  }
}
