/**
 * How long an operation's work may take, wherever it runs. On the worker pool the pool's deadline
 * terminates the worker; on the main thread the watchdog's tick answers for a handler that never
 * settles (kernel/host/watchdog.ts, `within`; a CPU loop there cannot be interrupted, which is why
 * third-party code runs off the main thread by default).
 */
import { ToolshedError, UnprocessableError, workerRefusal } from '@toolshed/plugin-sdk';
import { movableBytes, type BodyBytes } from './body-bytes.js';
import type { WorkerPool } from './pool/worker-pool.js';
import type { RegisteredOperation } from './registry.js';

/** The code of the answer past an operation's deadline (504). */
export const OPERATION_TIMEOUT = 'operation_timeout';

/** 504 `operation_timeout`: operation `id` did not finish within its deadline. */
export function operationTimeout(id: string, deadlineMs: number): ToolshedError {
  return new ToolshedError(504, OPERATION_TIMEOUT, `${id} did not finish within its deadline of ${deadlineMs} ms`);
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
  /** Set when nobody reads the answer: the answer cap it is held to, there, instead of being written (RunRequest's `unread`). */
  readonly unreadCap?: number;
}

/**
 * Runs the operation's whole work (parse, validate, handler, serialize) on the worker pool and
 * resolves to the answer's UTF-8 bytes. A contained plugin's job has the operation's deadline and
 * answers 504 `operation_timeout` past it; any other job has the smaller of `workers.requestBudgetMs`
 * and that deadline, and answers 422 `input_too_complex` when the request budget is the one spent.
 */
export async function runOnPool(registered: RegisteredOperation, bytes: BodyBytes, options: PoolRunOptions): Promise<Uint8Array> {
  const inputsFault = registered.placement === 'host' && options.requestBudgetMs <= options.deadlineMs;
  const budgetMs = inputsFault ? options.requestBudgetMs : options.deadlineMs;
  // The body's buffers, or its chunks' (the body reader's), move into the worker.
  const { body, transfer } = movableBytes(bytes);
  const args = [registered.module, registered.operation.name, body, registered.config, options.unreadCap];
  try {
    return await options.pool.run<Uint8Array>(offloadModule, 'runOffloaded', args, { deadlineMs: budgetMs, signal: options.signal, transfer, bulk: options.bulk });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => (inputsFault ? new UnprocessableError('input_too_complex', `The input needs more than ${budgetMs} ms of work`) : operationTimeout(registered.operation.id, budgetMs)),
      crashed: () => new UnprocessableError('input_too_complex', 'The input needs more memory than one request may use'),
    });
  }
}
