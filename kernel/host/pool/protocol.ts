/**
 * What the host's pool and its worker entry say to each other. A job travels as piscina's task; its
 * answer comes back as piscina's result, always resolved (the entry never throws), so that a
 * rejection from piscina means the worker itself stopped: cancelled by us, or dead.
 */
import type { ErrorDetail } from '@toolshed/plugin-sdk';
import type { ContractFault } from '@toolshed/plugin-sdk/contract';

/** One job: call `exportName` of the module at `module` (a file URL) with `args`. */
export interface JobRequest {
  /** The pool's number for the job, echoed by its {@link JobStarted} message. */
  readonly id: number;
  readonly module: string;
  readonly exportName: string;
  readonly args: readonly unknown[];
}

/** The job's answer. Only SDK errors carry their message; anything else only its name and frames. */
export type JobAnswer =
  | { readonly kind: 'result'; readonly value: unknown }
  | { readonly kind: 'sdk-error'; readonly error: { status: number; code: string; message: string; details?: ErrorDetail[] } }
  | { readonly kind: 'failed'; readonly errorName: string; readonly frames: readonly string[]; readonly fault?: ContractFault };

/** Marks a job's value whose buffers move to the caller instead of being copied (see {@link moving}). */
const MOVING = Symbol.for('toolshed.pool.moving');

/** A job's value with the buffers in it that no one in the worker holds any more. */
export interface Moving {
  readonly [MOVING]: readonly ArrayBuffer[];
  readonly value: unknown;
}

/**
 * What a job returns for `value` when `buffers` (each the whole of a byte array in it, held by
 * nothing else in the worker) should move to the caller rather than be copied: the caller gets
 * `value`, its byte arrays' memory handed over, not duplicated.
 */
export function moving(value: unknown, buffers: readonly ArrayBuffer[]): Moving {
  return { [MOVING]: buffers, value };
}

export function isMoving(value: unknown): value is Moving {
  return typeof value === 'object' && value !== null && MOVING in value;
}

/** The buffers a job's {@link Moving} value hands over. */
export function movingBuffers(value: Moving): readonly ArrayBuffer[] {
  return value[MOVING];
}

/**
 * Posted on the worker's own port once the job's module is imported: from then on the job's clock
 * runs (booting the worker and importing the module are not the job's doing).
 */
export interface JobStarted {
  readonly toolshedJobStarted: number;
}

export function isJobStarted(message: unknown): message is JobStarted {
  return typeof message === 'object' && message !== null && typeof (message as Partial<JobStarted>).toolshedJobStarted === 'number';
}

/** What every worker of a pool is started with (piscina's `workerData`). */
export interface PoolWorkerData {
  readonly toolshedPool: {
    /** The thread's CPU niceness (0 leaves it as it is). */
    readonly niceness: number;
    /** The sizing of the one-thread pool a job in this worker gets when it runs work off its own thread. */
    readonly nested: { readonly memoryMb: number; readonly maxQueue: number; readonly idleMs: number };
  };
}
