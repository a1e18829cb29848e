/**
 * The logger. One JSON line per request and per failure; request bodies, query strings,
 * Authorization headers and error messages that may quote input are never handed to it.
 */
import { isWorkerJobError } from '@toolshed/plugin-sdk';
import { contractFaultOf } from '@toolshed/plugin-sdk/contract';
import { pino, type Logger } from 'pino';
import { LogDestination } from './log-destination.js';

export type { Logger };

/** A pino logger writing to `destination` (stdout by default, in 64 KiB chunks; see LogDestination). */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, base: null, messageKey: 'msg' };
  return pino(options, destination ?? new LogDestination(1));
}

/**
 * Writes the log's last lines before the process exits, then calls `exit`: synchronously where the
 * destination can (LogDestination.flushSync), else once an asynchronous flush is done, or after
 * `giveUpMs` (a reader of stdout that stopped reading would otherwise hold the exit forever).
 */
export function flushThenExit(logger: Logger, exit: () => void, giveUpMs: number): void {
  const destination = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (destination instanceof LogDestination && destination.flushSync()) return exit();
  setTimeout(exit, giveUpMs).unref();
  logger.flush(() => exit());
}

/**
 * Flushes the log every `everyMs`, so a quiet service still logs promptly; one flush at a time, so a
 * stream that never drains under load cannot pile up waiting flushes. Returns a stop function.
 */
export function flushPeriodically(logger: Logger, everyMs: number): () => void {
  let pending = false;
  const timer = setInterval(() => {
    if (pending) return;
    pending = true;
    logger.flush(() => {
      pending = false;
    });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * What of an error may be logged: its type and stack frames. The message is withheld because a
 * plugin bug can throw an error whose message quotes the request (JSON.parse does).
 */
export function describeFailure(error: unknown): { type: string; stack: string[] } {
  // A job that threw on the pool: what it threw and where, not the pool's own frames.
  if (isWorkerJobError(error) && error.reason === 'failed' && error.errorName !== undefined && error.frames.length > 0) return { type: error.errorName, stack: [...error.frames] };
  if (!(error instanceof Error)) return { type: typeof error, stack: [] };
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).map((line) => line.trim());
  return { type: error.name, stack: frames };
}

/** The error line of a failure that is no refusal (a bug, answered as 500): type and stack, nothing of the input. */
export function logFailure(logger: Logger, requestId: string | undefined, operation: string | undefined, error: unknown): void {
  // A plugin that broke its manifest says where (code, JSON Pointers); nothing of the input.
  const fault = contractFaultOf(error);
  logger.error({ requestId, operation, error: describeFailure(error), ...(fault ? { fault } : {}) }, 'request failed');
}
