/**
 * The host's worker pool: work whose cost grows with untrusted input (user regexes, formatting SQL,
 * a whole large request) runs on worker threads with a deadline. Threads, heap caps, idle ends,
 * environments and cancellation are piscina's; this file adds what piscina has not: the deadline
 * (queue time included, a worker's boot time excluded), the bounded queue answered at once with 503,
 * the bulk lane, and the SDK's errors. Past its deadline a job's worker is terminated (piscina
 * cancels a running task that way), so even a backtracking regex costs one worker and one budget,
 * never the event loop that serves everyone else.
 */
import { Piscina } from 'piscina';
import { ServerBusyError, ToolshedError, WorkerJobError, type RunInWorkerOptions } from '@toolshed/plugin-sdk';
import { JobGate } from './job-gate.js';
import { placed, ThreadChoice, type Placement } from './thread-choice.js';
import { isJobStarted, type JobAnswer, type JobRequest, type PoolWorkerData } from './protocol.js';

/**
 * What a worker's young generation may reach, which the deployment guide's memory formula counts:
 * V8's own limit, 48 MiB on Node 20 and 96 on Node 26 (a worker's reached 65 there). Not capped
 * here: a cap of 48 cost Node 26 a tenth of its Base64 speed at 1 MiB, which then missed (c).
 * worker-pool.test.ts holds the figure, so a Node that grows it fails there first.
 */
export const YOUNG_GENERATION_MB = 96;

/** Sizing of a pool. */
export interface WorkerPoolOptions {
  /** Workers running at once. */
  readonly workers: number;
  /** Heap cap of each worker in MiB (its old generation), so a job cannot exhaust the process's memory. */
  readonly memoryMb: number;
  /** Jobs that may wait for a worker; one more is refused at once with 503 `server_busy`. */
  readonly maxQueue: number;
  /** An idle worker is ended after this long, so memory goes back after a burst. */
  readonly idleMs: number;
  /**
   * CPU niceness of the pool's threads (0–19, Linux only): above 0 the scheduler prefers the main
   * thread, which answers every client, over heavy jobs whenever both want the same core.
   */
  readonly niceness?: number;
  /**
   * The environment the workers see (their `process.env`): exactly these variables. Omitted, a
   * worker sees a copy of the creating thread's environment (Node's default).
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** Counters of the pool, for monitoring. `running`, `queued` and `refused` count both lanes. */
export interface WorkerPoolStats {
  /** Worker threads alive (booting, busy or idle). */
  readonly workers: number;
  readonly running: number;
  readonly queued: number;
  readonly completed: number;
  /** Jobs a worker answered, with a result or a refusal (a request it found wrong): where work ran, whatever its outcome. */
  readonly answered: number;
  readonly timeouts: number;
  readonly refused: number;
  /** Bulk jobs (see the SDK's `RunInWorkerOptions.bulk`) running now. */
  readonly bulkRunning: number;
  /** Bulk jobs waiting in their own queue. */
  readonly bulkQueued: number;
  /** Bulk jobs refused at once because their queue was full. */
  readonly bulkRefused: number;
  /** Threads bulk jobs may hold at once: max(1, workers − 1). */
  readonly bulkThreads: number;
  /** Length of the bulk queue: max(1, ⌊maxQueue / 16⌋). */
  readonly bulkMaxQueue: number;
}

/** One call of {@link WorkerPool.run}, from the call until the caller has its answer. */
interface Job extends Placement {
  readonly request: JobRequest;
  readonly transfer: readonly ArrayBuffer[];
  /** The job's budget in milliseconds. */
  readonly budgetMs: number;
  /** performance.now() past which the job is given up; moved later by its worker's boot time. */
  deadline: number;
  /** performance.now() when it was handed to piscina, and when its module was loaded there. */
  handedOver?: number;
  startedAt?: number;
  timer?: NodeJS.Timeout;
  /** Cancels the piscina task (which terminates the worker running it). */
  readonly stop: TaskStop;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
  settled: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * What piscina needs of a signal to cancel a task: one `abort` listener, `aborted` and `reason`. Not
 * an AbortController: on Node 20 every AbortController outlives its job until the next full
 * collection (promoted at the second scavenge, whatever holds it); a small pool request left 2.7 KB
 * of promoted objects with one per job, 2.2 KB with this (`--trace-gc-nvp`, 2026-11-29). Node 26's
 * do not.
 */
class TaskStop {
  aborted = false;
  readonly reason = undefined;
  #listener: (() => void) | undefined;

  addEventListener(_name: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(): void {
    this.#listener = undefined;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.();
  }
}

/** piscina's task file in each worker: CommonJS, importing worker-entry.js (worker-task.cts says why). */
export const POOL_TASK_FILE = new URL('./worker-task.cjs', import.meta.url);
/** How long a worker may take to boot and import a job's module before the job is given up. */
const START_GUARD_MS = 30_000;

export class WorkerPool {
  private readonly piscina: Piscina;
  private readonly gate: JobGate<Job>;
  private readonly threadChoice = new ThreadChoice();
  /**
   * Jobs handed to piscina: the ones a `started` message can name. At most one per thread, so a
   * search is short; not a Map, which kept each request's graph alive across scavenges
   * (kernel/host/roster.ts says how that was measured).
   */
  private readonly handed: Job[] = [];
  private nextId = 1;
  private closed = false;
  private counters = { completed: 0, answered: 0, timeouts: 0, refused: 0, bulkRefused: 0 };

  constructor(readonly options: WorkerPoolOptions) {
    const niceness = options.niceness ?? 0;
    const data: PoolWorkerData = {
      toolshedPool: { niceness, nested: { memoryMb: options.memoryMb, maxQueue: options.maxQueue, idleMs: options.idleMs } },
    };
    this.gate = new JobGate(options.workers, options.maxQueue);
    this.piscina = new Piscina({
      filename: POOL_TASK_FILE.href,
      minThreads: 0,
      maxThreads: options.workers,
      idleTimeout: options.idleMs,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      workerData: data,
      // An idle piscina worker otherwise blocks its thread in Atomics.wait between tasks, so a
      // job's timers (or a nested pool's messages) would run only once the next task arrives.
      atomics: 'disabled',
      recordTiming: false,
      loadBalancer: this.threadChoice.choose,
    });
    this.piscina.on('message', (message: unknown) => {
      if (isJobStarted(message)) this.started(message.toolshedJobStarted);
    });
    // A worker that dies while idle (a job's code threw after it answered) has no task to fail:
    // piscina drops it from the pool and reports it here. Without a listener the event would throw
    // on the main thread. Its message may quote the input, so it is not kept.
    this.piscina.on('error', () => undefined);
  }

  run<Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (this.closed || options.signal?.aborted === true) return reject(new WorkerJobError('aborted'));
      const bulk = options.bulk === true;
      if (!this.gate.admits(bulk)) {
        this.counters.refused++;
        if (bulk) this.counters.bulkRefused++;
        return reject(new ServerBusyError());
      }
      const job: Job = {
        request: { id: this.nextId++, module: module.href, exportName, args },
        transfer: options.transfer ?? [],
        bulk,
        budgetMs: options.deadlineMs,
        deadline: performance.now() + options.deadlineMs,
        stop: new TaskStop(),
        signal: options.signal,
        onAbort: () => this.giveUp(job, 'aborted'),
        settled: false,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      placed(job.request, job);
      options.signal?.addEventListener('abort', job.onAbort, { once: true });
      this.arm(job, 0);
      this.gate.enqueue(job);
      this.dispatch();
    });
  }

  stats(): WorkerPoolStats {
    return {
      workers: this.piscina.threads.length,
      running: this.gate.running,
      queued: this.gate.queued,
      ...this.counters,
      bulkRunning: this.gate.bulkRunning,
      bulkQueued: this.gate.bulkQueued,
      bulkThreads: this.gate.bulkThreads,
      bulkMaxQueue: this.gate.bulkMaxQueue,
    };
  }

  /** Ends every worker; queued and running jobs answer `aborted`, and so does any later call. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.gate.drain()) this.settle(job, new WorkerJobError('aborted'));
    for (const job of this.handed.slice()) this.giveUp(job, 'aborted');
    await this.piscina.destroy();
  }

  /** Hands queued jobs to piscina while the gate lets them run: piscina never queues one itself. */
  private dispatch(): void {
    // A bulk job waits while its thread finishes a small job (thread-choice.ts says why).
    const placeable = (job: Job): boolean => !job.bulk || !this.threadChoice.bulkThreadBusy(this.handed);
    for (let job = this.gate.next(placeable); job !== undefined; job = this.gate.next(placeable)) {
      const handedOver = performance.now();
      job.handedOver = handedOver;
      this.handed.push(job);
      // Booting a worker and importing the job's module are not the job's time: its clock stops
      // until the worker says it started, with a generous guard should it never say so.
      this.arm(job, START_GUARD_MS);
      let task: Promise<JobAnswer>;
      try {
        task = this.piscina.run(job.request, { signal: job.stop, transferList: [...job.transfer] }) as Promise<JobAnswer>;
      } catch (error) {
        // The arguments could not be cloned into the worker.
        task = Promise.reject(error);
      }
      void task.then(
        (answer: JobAnswer) => this.answered(job, answer),
        (error: unknown) => this.stopped(job, error),
      );
    }
  }

  /** The worker loaded the job's module: the job's clock runs again, its boot time given back. */
  private started(id: number): void {
    const job = this.handed.find((handed) => handed.request.id === id);
    if (job === undefined || job.handedOver === undefined || job.startedAt !== undefined) return;
    job.startedAt = performance.now();
    job.deadline += job.startedAt - job.handedOver;
    this.arm(job, 0);
  }

  private arm(job: Job, graceMs: number): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => this.giveUp(job, 'timeout'), Math.max(0, job.deadline - performance.now()) + graceMs);
  }

  private answered(job: Job, answer: JobAnswer): void {
    this.release(job);
    if (!job.settled) this.counters.answered++;
    if (answer.kind === 'result') {
      if (!job.settled) this.counters.completed++;
      this.settle(job, undefined, answer.value);
    } else if (answer.kind === 'sdk-error') {
      const { status, code, message, details } = answer.error;
      this.settle(job, new ToolshedError(status, code, message, details));
    } else {
      this.settle(job, new WorkerJobError('failed', answer.errorName, false, answer.fault, answer.frames));
    }
  }

  /** piscina gave no answer: we cancelled the task (already settled), or its worker died. */
  private stopped(job: Job, error: unknown): void {
    this.release(job);
    // The arguments could not be cloned into the worker: the caller's bug, not a crash.
    const unclonable = error instanceof Error && error.name === 'DataCloneError';
    this.settle(job, unclonable ? new WorkerJobError('failed', 'DataCloneError') : new WorkerJobError('crashed'));
  }

  /** The job gave up: a queued one leaves the queue, a running one's worker is terminated. */
  private giveUp(job: Job, reason: 'timeout' | 'aborted'): void {
    if (job.settled) return;
    if (reason === 'timeout') this.counters.timeouts++;
    const ran = job.startedAt === undefined ? 0 : performance.now() - job.startedAt;
    this.settle(job, new WorkerJobError(reason, undefined, ran < job.budgetMs / 2));
    if (!this.gate.remove(job)) job.stop.abort();
  }

  /** Frees the job's thread in the gate (once piscina is done with it) and runs the next job. */
  private release(job: Job): void {
    const index = this.handed.indexOf(job);
    if (index === -1) return;
    this.handed.splice(index, 1);
    this.gate.finished(job);
    if (!this.closed) this.dispatch();
  }

  private settle(job: Job, error: Error | undefined, value?: unknown): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    job.signal?.removeEventListener('abort', job.onAbort);
    if (error !== undefined) job.reject(error);
    else job.resolve(value);
  }
}
