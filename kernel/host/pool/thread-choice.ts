/**
 * Which pool thread takes a job (piscina's `loadBalancer`). Bulk jobs (whole large requests) keep to
 * one thread, the one that ran the last of them, and small jobs go to any other free thread first.
 * A thread's heap grows to what its largest jobs needed and stays there until its idle end; when
 * bulk jobs took whichever thread was free, every thread grew to bulk sizes (the loadtest's 10 MiB
 * doors: two threads of 80–146 MB heap and 40–90 MB of buffers each), where one now does.
 * The pool holds a bulk job back while the bulk thread finishes a small one (`bulkThreadBusy`), so
 * a bulk job waits at most that long; small jobs never wait for a thread that is not theirs.
 * Like piscina's own balancer, only a thread with no task is chosen (the gate in front hands on no
 * more jobs than there are threads); none free, piscina starts one or waits for one.
 */
import { queueOptionsSymbol, type Piscina } from 'piscina';

type Balancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;
type PoolTask = Parameters<Balancer>[0];
type PoolThread = Parameters<Balancer>[1][number];

/** A job as the choice sees it: its lane, and the thread it was given (a piscina threadId). */
export interface Placement {
  readonly bulk: boolean;
  thread?: number;
}

/**
 * `request` carrying `placement` for {@link ThreadChoice}, under piscina's queue-options symbol: a
 * symbol-keyed property, which the structured clone into the worker leaves out.
 */
export function placed<Request extends object>(request: Request, placement: Placement): Request {
  return Object.assign(request, { [queueOptionsSymbol]: placement });
}

export class ThreadChoice {
  /** The thread (its threadId) that ran the last bulk job. */
  private bulkThread: number | undefined;

  readonly choose: Balancer = (task: PoolTask, threads: PoolThread[]): PoolThread | null => {
    const placement = task[queueOptionsSymbol] as Placement | null;
    const bulk = placement?.bulk === true;
    let sticky: PoolThread | null = null;
    let other: PoolThread | null = null;
    for (const thread of threads) {
      if (thread.currentUsage !== 0) continue;
      if (thread.id === this.bulkThread) sticky = thread;
      else other ??= thread;
    }
    const chosen = bulk ? (sticky ?? other) : (other ?? sticky);
    if (chosen === null) return null;
    if (bulk) this.bulkThread = chosen.id;
    if (placement !== null) placement.thread = chosen.id;
    return chosen;
  };

  /** Whether one of `handed` (jobs given to piscina) is a small job on the bulk thread. */
  bulkThreadBusy(handed: readonly Placement[]): boolean {
    return this.bulkThread !== undefined && handed.some((job) => !job.bulk && job.thread === this.bulkThread);
  }
}
