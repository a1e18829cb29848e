/**
 * Work off the main thread, as a plugin sees it: the host runs an exported function of a plugin's
 * module in a worker thread (`context.runInWorker`), and these are the errors that call rejects
 * with. The SDK holds only the contract; the pool itself belongs to the host.
 */
import { ServerBusyError, type ContractFault } from './errors.js';

/** Why a job gave no answer. */
export type WorkerFailure = 'timeout' | 'aborted' | 'crashed' | 'failed';

/**
 * Thrown by `context.runInWorker` when the job gave no answer: `timeout` (its deadline passed, queue
 * time included), `aborted` (its signal fired), `crashed` (the worker died, for example at its heap
 * cap), `failed` (the function threw something other than an SDK error;
 * `errorName` is that error's name — its message is not carried, since it may quote the input).
 */
export class WorkerJobError extends Error {
  /** Marks the error across module copies. */
  readonly isWorkerJobError = true as const;
  /**
   * @param reason why there is no answer.
   * @param errorName with `failed`, the name of what the function threw.
   * @param starved with `timeout`: true when the job ran for less than half its budget, the rest
   *   having gone waiting for a worker (the server's shortage, not the input's fault).
   */
  constructor(
    readonly reason: WorkerFailure,
    readonly errorName?: string,
    readonly starved = false,
    /** With `failed` from a {@link ContractBreach}: what the plugin broke, safe to log. */
    readonly fault?: ContractFault,
    /** With `failed`: the stack frames of what the function threw (locations only, no message). */
    readonly frames: readonly string[] = [],
  ) {
    super(`The worker job gave no answer: ${reason}${errorName === undefined ? '' : ` (${errorName})`}`);
    this.name = 'WorkerJobError';
  }
}

/** True for a {@link WorkerJobError} from any copy of the SDK. */
export function isWorkerJobError(value: unknown): value is WorkerJobError {
  return typeof value === 'object' && value !== null && (value as Partial<WorkerJobError>).isWorkerJobError === true;
}

/** What a plugin answers when its worker job gives none: its own 422s, made only when needed. */
export interface WorkerRefusals {
  /** The job ran past its deadline, or its client went away (nobody reads that answer, but it must be a 4xx). */
  readonly timeout: () => Error;
  /** The worker died at its heap cap; `timeout` when not given. */
  readonly crashed?: () => Error;
}

/** The message of the 503 for a job that spent most of its budget waiting for a worker thread. */
const STARVED_MESSAGE = 'The request spent most of its time budget waiting for a free worker thread; retry shortly';

/**
 * The error a handler throws for a failed `context.runInWorker` call: 503 `server_busy` when most of
 * the budget went waiting in the queue (the server's shortage, not the input's fault), the plugin's own
 * 422 for a timeout, an abort or a crash, and `error` itself for anything else (an SDK error from
 * the job, or a bug).
 *
 * @example
 * try { return await runInWorker(...) }
 * catch (error) { throw workerRefusal(error, { timeout: () => new UnprocessableError('too_complex', 'Over 2 s') }) }
 */
export function workerRefusal(error: unknown, refusals: WorkerRefusals): unknown {
  if (!isWorkerJobError(error) || error.reason === 'failed') return error;
  // Cut before it had half its budget of work: the wait was the server's shortage, and a retry may pass.
  if (error.reason === 'timeout' && error.starved) return new ServerBusyError(STARVED_MESSAGE);
  if (error.reason === 'crashed') return (refusals.crashed ?? refusals.timeout)();
  return refusals.timeout();
}

/** Options of one `context.runInWorker` call. */
export interface RunInWorkerOptions {
  /** Time budget in milliseconds, counted from the call: waiting in the queue uses it up too. */
  readonly deadlineMs: number;
  /** Aborts the job (the client went away). */
  readonly signal?: AbortSignal;
  /** Buffers to move into the worker instead of copying (the caller loses them). */
  readonly transfer?: readonly ArrayBuffer[];
  /**
   * A bulk job (the kernel's whole large request): bulk jobs run on all workers but one and wait in
   * a queue of a sixteenth the size, so a flood of 10 MiB requests never leaves small jobs without a
   * worker, nor piles up answers of megabytes.
   */
  readonly bulk?: boolean;
}

/**
 * Runs `module`'s export `exportName` with `args` in a worker thread of the host and resolves to
 * what it returns (structured-cloned). An SDK error it throws (a 422) is rethrown unchanged; a full
 * queue rejects with 503 `server_busy`; anything else that stops an answer rejects with
 * {@link WorkerJobError}. A handler gets one as `context.runInWorker`.
 *
 * @example
 * const sql = await context.runInWorker<string>(new URL('./format.js', import.meta.url), 'formatSql', [text], {
 *   deadlineMs: 2000,
 *   signal: context.signal,
 * });
 */
export type RunInWorker = <Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions) => Promise<Result>;
