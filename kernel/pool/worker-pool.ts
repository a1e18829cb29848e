/**
 * The worker facility: one pool of worker threads shared by every plugin, for work whose cost grows
 * with untrusted input (user regexes, formatting SQL, parsing huge YAML). A job runs an exported
 * function of a plugin's module in a worker; past its deadline the worker is terminated (V8 then
 * interrupts even a backtracking regex), so one hostile input costs one worker and one budget,
 * never the event loop that serves everyone else.
 */
import { isMainThread, Worker, workerData } from 'node:worker_threads';
import { ServerBusyError, ToolshedError, WorkerJobError, type ErrorDetail, type RunInWorkerOptions } from '@toolshed/plugin-sdk';
import type { WorkerMessage, WorkerRequest } from './worker-protocol.js';

/** Sizing of the shared pool; the kernel sets it from its configuration at start-up. */
export interface WorkerPoolOptions {
  /** Workers running at once. */
  readonly workers: number;
  /** Heap cap of each worker in MiB, so a job cannot exhaust the process's memory. */
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
}

/** Counters of the pool, for monitoring. `running`, `queued` and `refused` count both lanes. */
export interface WorkerPoolStats {
  readonly workers: number;
  readonly running: number;
  readonly queued: number;
  readonly completed: number;
  readonly timeouts: number;
  readonly refused: number;
  /** Bulk jobs (see {@link RunInWorkerOptions.bulk}) running now. */
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

interface Task {
  readonly request: WorkerRequest;
  readonly transfer: readonly ArrayBuffer[];
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
  /** performance.now() past which the job is given up; moved later by a worker's boot time. */
  deadline: number;
  /** The job's budget in milliseconds. */
  readonly budgetMs: number;
  readonly bulk: boolean;
  /** performance.now() when the worker began running it. */
  startedAt?: number;
  timer?: NodeJS.Timeout;
  slot?: Slot;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  task?: Task;
  /** When the current job was handed over; until the worker says it started, its clock stops. */
  handedOver: number;
  idleTimer?: NodeJS.Timeout;
}

const entry = new URL('./worker-entry.js', import.meta.url);
/** How long a worker may take to boot and import a job's module before the job is given up. */
const START_GUARD_MS = 30_000;

/** A pool of generic workers; {@link runInWorker} uses the process-wide one. */
export class WorkerPool {
  private readonly idle: Slot[] = [];
  private readonly busy = new Set<Slot>();
  private readonly queue: Task[] = [];
  private size = 0;
  private bulkRunning = 0;
  private nextId = 1;
  private closed = false;
  private counters = { running: 0, completed: 0, timeouts: 0, refused: 0, bulkRefused: 0 };

  constructor(readonly options: WorkerPoolOptions) {}

  run<Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      if (this.closed) return reject(new WorkerJobError('aborted'));
      if (options.signal?.aborted === true) return reject(new WorkerJobError('aborted'));
      if (this.full(options.bulk === true)) {
        this.counters.refused++;
        if (options.bulk === true) this.counters.bulkRefused++;
        return reject(new ServerBusyError());
      }
      const task: Task = {
        request: { id: this.nextId++, module: module.href, exportName, args },
        transfer: options.transfer ?? [],
        signal: options.signal,
        onAbort: () => this.giveUp(task, 'aborted'),
        deadline: performance.now() + options.deadlineMs,
        budgetMs: options.deadlineMs,
        bulk: options.bulk === true,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      options.signal?.addEventListener('abort', task.onAbort, { once: true });
      this.arm(task);
      this.queue.push(task);
      this.dispatch();
    });
  }

  stats(): WorkerPoolStats {
    const { running, completed, timeouts, refused, bulkRefused } = this.counters;
    const bulkQueued = this.queue.filter((task) => task.bulk).length;
    return {
      workers: this.size,
      running,
      queued: this.queue.length,
      completed,
      timeouts,
      refused,
      bulkRunning: this.bulkRunning,
      bulkQueued,
      bulkRefused,
      bulkThreads: this.bulkThreads(),
      bulkMaxQueue: this.bulkMaxQueue(),
    };
  }

  /** Ends every worker; queued and running jobs answer `aborted`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) this.settle(task, new WorkerJobError('aborted'));
    for (const slot of [...this.busy]) if (slot.task !== undefined) this.giveUp(slot.task, 'aborted');
    const workers = this.idle.splice(0).map((slot) => slot.worker);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  /** True when a new job of this kind would have to wait and its queue is full. */
  private full(bulk: boolean): boolean {
    const workerFree = this.idle.length > 0 || this.size < this.options.workers;
    if (!bulk) return !workerFree && this.queue.length >= this.options.maxQueue;
    if (workerFree && this.bulkMayRun()) return false;
    return this.queue.filter((task) => task.bulk).length >= this.bulkMaxQueue();
  }

  private bulkMaxQueue(): number {
    return Math.max(1, Math.floor(this.options.maxQueue / 16));
  }

  private bulkThreads(): number {
    return Math.max(1, this.options.workers - 1);
  }

  private bulkMayRun(): boolean {
    return this.bulkRunning < this.bulkThreads();
  }

  /** The queued job to run next: the oldest one, skipping bulk jobs while they hold all workers but one. */
  private nextIndex(): number {
    const bulkMayRun = this.bulkMayRun();
    return this.queue.findIndex((task) => bulkMayRun || !task.bulk);
  }

  private arm(task: Task): void {
    clearTimeout(task.timer);
    task.timer = setTimeout(() => this.giveUp(task, 'timeout'), Math.max(0, task.deadline - performance.now()));
  }

  private dispatch(): void {
    for (;;) {
      const index = this.nextIndex();
      if (index === -1) return;
      const slot = this.idle.pop() ?? (this.size < this.options.workers ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.queue.splice(index, 1)[0]!;
      if (task.bulk) this.bulkRunning++;
      clearTimeout(slot.idleTimer);
      slot.task = task;
      task.slot = slot;
      this.busy.add(slot);
      this.counters.running++;
      slot.worker.ref();
      // Booting a worker and importing the job's module are not the job's time: its clock stops
      // until the worker says it started, with a generous guard should it never say so.
      slot.handedOver = performance.now();
      clearTimeout(task.timer);
      task.timer = setTimeout(() => this.giveUp(task, 'timeout'), Math.max(0, task.deadline - slot.handedOver) + START_GUARD_MS);
      slot.worker.postMessage(task.request, task.transfer as ArrayBuffer[]);
    }
  }

  private spawn(): Slot {
    // A job may itself call runInWorker (a plugin's own heavy part inside a request the kernel moved
    // to the pool): that worker's pool gets one thread with the same caps, so nesting stays bounded.
    const nested: WorkerPoolOptions = { ...this.options, workers: 1 };
    const resourceLimits = { maxOldGenerationSizeMb: this.options.memoryMb };
    const worker = new Worker(entry, { resourceLimits, workerData: { toolshedPool: nested } });
    const slot: Slot = { worker, handedOver: 0 };
    this.size++;
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'started') {
        if (slot.task !== undefined && slot.task.request.id === message.id) {
          slot.task.startedAt = performance.now();
          slot.task.deadline += slot.task.startedAt - slot.handedOver;
          this.arm(slot.task);
        }
      } else if (slot.task !== undefined && slot.task.request.id === message.id) {
        const task = slot.task;
        this.release(slot, false);
        if (message.kind === 'result') this.settle(task, undefined, message.value);
        else if (message.kind === 'sdk-error') this.settle(task, rebuild(message.error));
        else this.settle(task, new WorkerJobError('failed', message.errorName, false, message.fault, message.frames));
      }
    });
    worker.on('error', () => this.crashed(slot));
    worker.on('exit', () => this.crashed(slot));
    return slot;
  }

  /** An exit we did not ask for (heap cap reached) must not leave its job waiting forever. */
  private crashed(slot: Slot): void {
    const task = slot.task;
    if (task === undefined) {
      // An idle worker died (a job's code threw after it answered): still counted and listed as idle,
      // it would be handed the next job, which would then wait out its deadline unanswered.
      this.retire(slot);
      return;
    }
    this.release(slot, true);
    this.settle(task, new WorkerJobError('crashed'));
  }

  private giveUp(task: Task, reason: 'timeout' | 'aborted'): void {
    if (reason === 'timeout') this.counters.timeouts++;
    const queued = this.queue.indexOf(task);
    if (queued !== -1) this.queue.splice(queued, 1);
    else if (task.slot !== undefined && task.slot.task === task) this.release(task.slot, true);
    else return;
    const ran = task.startedAt === undefined ? 0 : performance.now() - task.startedAt;
    this.settle(task, new WorkerJobError(reason, undefined, ran < task.budgetMs / 2));
  }

  /** Frees `slot`; a worker whose job was cut short is terminated, since it may still be running it. */
  private release(slot: Slot, discard: boolean): void {
    if (slot.task?.bulk === true) this.bulkRunning--;
    slot.task = undefined;
    this.busy.delete(slot);
    this.counters.running--;
    if (discard || this.closed) this.end(slot);
    else {
      // An idle worker must not keep the process alive, nor its memory for long.
      slot.worker.unref();
      slot.idleTimer = setTimeout(() => this.retire(slot), this.options.idleMs).unref();
      this.idle.push(slot);
    }
    queueMicrotask(() => this.dispatch());
  }

  private retire(slot: Slot): void {
    const index = this.idle.indexOf(slot);
    if (index === -1) return;
    this.idle.splice(index, 1);
    this.end(slot);
  }

  private end(slot: Slot): void {
    this.size--;
    slot.worker.removeAllListeners('exit');
    slot.worker.removeAllListeners('error');
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
  }

  private settle(task: Task, error: Error | undefined, value?: unknown): void {
    clearTimeout(task.timer);
    task.signal?.removeEventListener('abort', task.onAbort);
    task.slot = undefined;
    if (error !== undefined) task.reject(error);
    else {
      this.counters.completed++;
      task.resolve(value);
    }
  }
}

function rebuild(error: { status: number; code: string; message: string; details?: ErrorDetail[] }): ToolshedError {
  return new ToolshedError(error.status, error.code, error.message, error.details);
}

const defaults: WorkerPoolOptions = { workers: 2, memoryMb: 512, maxQueue: 64, idleMs: 30_000 };

/** The process-wide pool: the host's, handed to plugins as `context.runInWorker`. */
let shared: WorkerPool | undefined;

/** Sizes the process-wide pool (the kernel calls this at start-up); ends the current one's idle workers. */
export function configureWorkerPool(options: Partial<WorkerPoolOptions>): void {
  const previous = shared;
  shared = new WorkerPool({ ...defaults, ...options });
  void previous?.close();
}

/** The options a pool worker was given for its own, nested pool. */
function inheritedOptions(): WorkerPoolOptions | undefined {
  if (isMainThread) return undefined;
  return (workerData as { toolshedPool?: WorkerPoolOptions } | null)?.toolshedPool;
}

/** The process-wide pool (in a pool worker: that worker's own one-thread pool). */
export function workerPool(): WorkerPool {
  return (shared ??= new WorkerPool(inheritedOptions() ?? defaults));
}

/**
 * Runs `module`'s export `exportName` with `args` in a worker of the shared pool and resolves to
 * what it returns (structured-cloned). An SDK error it throws (a 422) is rethrown here unchanged;
 * a full queue rejects with 503 `server_busy` (the kernel answers it with `Retry-After`); anything
 * else that stops an answer rejects with {@link WorkerJobError}.
 *
 * @example
 * const sql = await runInWorker<string>(new URL('./format.js', import.meta.url), 'formatSql', [text], {
 *   deadlineMs: 2000,
 *   signal: context.signal,
 * });
 */
export function runInWorker<Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions): Promise<Result> {
  return workerPool().run<Result>(module, exportName, args, options);
}
