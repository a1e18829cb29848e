/**
 * The warm-up after `listening`: every built-in operation's first example runs WARM_UP_RUNS times,
 * in the background, through the same run path as a request (so a pool operation starts a pool worker and imports its
 * module there, and a main-thread one compiles its code paths). Without it the first call of
 * sql-formatter or regex-tester waited ~150 ms for a worker to boot and import, where the
 * hundredth takes 2 ms. Operations that call an upstream are skipped: the warm-up never leaves
 * the machine. One operation per turn of the event loop, so requests arriving meanwhile wait for
 * at most one example's work; nothing of it is logged as a request or counted in /metrics. Before
 * the first example, one exchange on a private loopback server (kernel/prime-http.ts), so that the
 * first real request does not throw away the code the warm-up optimised.
 */
import type { Logger } from './logger.js';
import { parseJsonObject } from './middleware/body.js';
import { noConnection, runOperation, type DispatchLimits } from './middleware/dispatch.js';
import { primeHttp } from './prime-http.js';
import type { RegisteredOperation } from './registry.js';

/**
 * Runs of each example: V8 optimises a function after it has run a few times, not after one run,
 * and may drop and redo that code once more. Measured in sql-formatter's pool worker: runs 1–3 took
 * 150, 7 and 2 ms, run 4 14–22 ms, runs 5–8 1–3 ms; with three runs the first request was that
 * fourth run (first call 16–24 ms over the hundredth), with eight it is not.
 */
export const WARM_UP_RUNS = 8;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What the warm-up did, for its log line. */
export interface WarmUpReport {
  readonly operations: number;
  readonly failed: readonly string[];
  /** The loopback exchange before the examples answered (false: the machine has no IPv4 loopback). */
  readonly primed: boolean;
  readonly ms: number;
}

/**
 * Primes the HTTP path, then runs the first example of each operation in `operations` that calls no upstream ({@link WARM_UP_RUNS} times), one per turn
 * of the event loop, until done or `stopped()` (the service is stopping). An example that fails
 * is named in the report and otherwise ignored: the operation still answers requests.
 */
export async function warmUp(
  operations: Iterable<RegisteredOperation>,
  limits: DispatchLimits,
  stopped: () => boolean,
  prime: () => Promise<number> = primeHttp,
): Promise<WarmUpReport> {
  const started = performance.now();
  const primed = (await prime()) === 200;
  const failed: string[] = [];
  let count = 0;
  for (const registered of operations) {
    const { definition, id } = registered.operation;
    const example = definition.examples[0];
    if (definition.upstream === true || example === undefined) continue;
    await nextTurn();
    if (stopped()) break;
    const bytes = Buffer.from(JSON.stringify(example.body));
    count++;
    try {
      for (let run = 0; run < WARM_UP_RUNS; run++) await runOperation(noConnection, registered, { bytes, parse: () => parseJsonObject(bytes) }, limits, 'warm-up');
    } catch {
      failed.push(id);
    }
  }
  return { operations: count, failed, primed, ms: Math.round(performance.now() - started) };
}

/** Starts the warm-up and logs one line when it ends. */
export function startWarmUp(operations: Iterable<RegisteredOperation>, limits: DispatchLimits, logger: Logger, stopped: () => boolean): Promise<void> {
  return warmUp(operations, limits, stopped).then((report) => logger.info({ ...report }, 'operations warmed'));
}
