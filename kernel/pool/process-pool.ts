/**
 * The host's pool for this thread: on the main thread, the one sized from the configuration
 * (`workers.*`); in a pool worker, that worker's own nested pool of one thread (nested-pool.ts).
 * Handlers reach it as `context.runInWorker` (kernel/handler-context.ts).
 */
import { nestedPool } from './nested-pool.js';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

const defaults: WorkerPoolOptions = { workers: 2, memoryMb: 256, maxQueue: 256, idleMs: 30_000 };

let shared: WorkerPool | undefined;

/** Sizes the main thread's pool (the host calls this when it opens); ends the previous one's workers. */
export function configureWorkerPool(options: Partial<WorkerPoolOptions>): void {
  const previous = shared;
  shared = new WorkerPool({ ...defaults, ...options });
  void previous?.close();
}

/** This thread's pool. */
export function workerPool(): WorkerPool {
  return nestedPool() ?? (shared ??= new WorkerPool(defaults));
}
