/**
 * Off-thread work asked for by a job that already runs on a pool worker (a plugin's own heavy part,
 * inside a whole request the host moved to the pool). It goes to a pool of one thread owned by that
 * worker, with the same heap cap, queue and idle end, so the job's own deadline still ends only its
 * own part, with the plugin's own answer (regex-tester's `timeoutMs` and its 422), while the outer
 * job's deadline still bounds the whole. Nesting stays bounded: one thread per level. The nested
 * workers inherit this worker's environment (already limited to what its pool was given).
 * docs/decisions.md, "The worker pool is piscina", says why not run it in place.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import type { PoolWorkerData } from './protocol.js';
import { WorkerPool } from './worker-pool.js';

let nested: WorkerPool | undefined;

/** In a worker of a host pool, that worker's one-thread pool (made on first use); elsewhere undefined. */
export function nestedPool(): WorkerPool | undefined {
  if (isMainThread) return undefined;
  const pool = (workerData as Partial<PoolWorkerData> | null)?.toolshedPool;
  if (pool === undefined) return undefined;
  return (nested ??= new WorkerPool({ workers: 1, ...pool.nested, niceness: pool.niceness }));
}
