/**
 * How long an operation's work may take, wherever it runs. On the worker pool the pool's deadline
 * terminates the worker; on the main thread a timer answers for a handler that never settles (a
 * CPU loop there cannot be interrupted, which is why third-party code runs on the pool by default).
 */
import { ToolshedError, UnprocessableError, workerRefusal } from '@toolshed/plugin-sdk';
import type { WorkerPool } from './pool/worker-pool.js';
import type { RegisteredOperation } from './registry.js';

/** The code of the answer past an operation's deadline (504). */
export const OPERATION_TIMEOUT = 'operation_timeout';

/** 504 `operation_timeout`: operation `id` did not finish within its deadline. */
export function operationTimeout(id: string, deadlineMs: number): ToolshedError {
  return new ToolshedError(504, OPERATION_TIMEOUT, `${id} did not finish within its deadline of ${deadlineMs} ms`);
}

/**
 * Resolves as `work` does, or rejects with `expired()` once `deadlineMs` passes first; `onExpire`
 * runs then (it aborts the handler's signal). The work itself goes on unseen: a promise cannot be
 * cancelled, and a synchronous loop on the main thread cannot be interrupted at all.
 */
export function withinDeadline<T>(work: Promise<T>, deadlineMs: number, expired: () => Error, onExpire: () => void): Promise<T> {
  // One promise and one timer per request: this is on every main-thread request's path.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onExpire();
      reject(expired());
    }, deadlineMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const offloadModule = new URL('./offload.js', import.meta.url);

/** Options of {@link runOnPool}. */
export interface PoolRunOptions {
  /** `workers.requestBudgetMs`: the budget of a request sent to the pool for its size or its operation's choice. */
  readonly requestBudgetMs: number;
  /** Aborts the job (the client went away). */
  readonly signal?: AbortSignal;
  /** The operation's deadline for this run (its own, or less). */
  readonly deadlineMs: number;
  /** A bulk job (see the SDK's RunInWorkerOptions): a large body, or an operation that chose the pool. */
  readonly bulk: boolean;
  /** The host's pool, or a contained plugin's own (kernel/host/plugin-workers.ts). */
  readonly pool: WorkerPool;
}

/**
 * Runs the operation's whole work (parse, validate, handler, serialize) on the worker pool and
 * resolves to the answer's UTF-8 bytes. A contained plugin's job has the operation's deadline and
 * answers 504 `operation_timeout` past it; any other job has the smaller of `workers.requestBudgetMs`
 * and that deadline, and answers 422 `input_too_complex` when the request budget is the one spent.
 */
export async function runOnPool(registered: RegisteredOperation, body: Uint8Array, options: PoolRunOptions): Promise<Uint8Array> {
  const inputsFault = registered.placement === 'host' && options.requestBudgetMs <= options.deadlineMs;
  const budgetMs = inputsFault ? options.requestBudgetMs : options.deadlineMs;
  const args = [registered.module, registered.operation.name, body, registered.config];
  // The body's buffer moves into the worker (the caller gives one it owns whole).
  const transfer = [body.buffer as ArrayBuffer];
  try {
    return await options.pool.run<Uint8Array>(offloadModule, 'runOffloaded', args, { deadlineMs: budgetMs, signal: options.signal, transfer, bulk: options.bulk });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => (inputsFault ? new UnprocessableError('input_too_complex', `The input needs more than ${budgetMs} ms of work`) : operationTimeout(registered.operation.id, budgetMs)),
      crashed: () => new UnprocessableError('input_too_complex', 'The input needs more memory than one request may use'),
    });
  }
}
