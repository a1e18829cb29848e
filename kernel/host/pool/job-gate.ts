/**
 * The pool's admission and order, in front of piscina (which has one queue and no lanes): a job waits
 * here until a thread is free, so piscina is only ever handed as many jobs as it has threads. Two
 * lanes share the threads: bulk jobs (whole large requests) may hold at most all threads but one and
 * wait in a queue of a sixteenth the size, so small jobs always find a thread, and a flood of large
 * requests neither starves them nor piles up answers of megabytes.
 */
export class JobGate<Job extends { readonly bulk: boolean }> {
  private readonly waiting: Job[] = [];
  /** Jobs handed on (to a thread, booting or busy), both lanes. */
  running = 0;
  /** Bulk jobs handed on. */
  bulkRunning = 0;

  /**
   * @param threads threads jobs may hold at once.
   * @param maxQueue jobs that may wait; one more is refused at once.
   * @param ahead jobs beyond `threads` that may be handed on to wait at a busy thread (a plugin
   *   process's pipeline); they count as waiting, so the gate admits no more than without them.
   */
  constructor(
    readonly threads: number,
    readonly maxQueue: number,
    readonly ahead = 0,
  ) {}

  /** Threads bulk jobs may hold at once: max(1, threads − 1). */
  get bulkThreads(): number {
    return Math.max(1, this.threads - 1);
  }

  /** Bulk jobs that may wait: max(1, ⌊maxQueue / 16⌋). */
  get bulkMaxQueue(): number {
    return Math.max(1, Math.floor(this.maxQueue / 16));
  }

  get queued(): number {
    return this.waiting.length;
  }

  get bulkQueued(): number {
    return this.waiting.filter((job) => job.bulk).length;
  }

  /** False when a new job of this lane would have to wait and its queue is full. */
  admits(bulk: boolean): boolean {
    const threadFree = this.running < this.threads;
    if (!bulk) return threadFree || this.waiting.length + this.running - this.threads < this.maxQueue;
    if (threadFree && this.bulkMayRun()) return true;
    return this.bulkQueued < this.bulkMaxQueue;
  }

  enqueue(job: Job): void {
    this.waiting.push(job);
  }

  /**
   * The job to hand on now, counted as running, or undefined when no thread is free or every waiting
   * job is bulk while bulk jobs hold their share. Oldest first, skipping bulk jobs that may not run
   * and jobs `placeable` says have nowhere to go now.
   */
  next(placeable: (job: Job) => boolean = () => true): Job | undefined {
    if (this.running >= this.threads + this.ahead) return undefined;
    const bulkMayRun = this.bulkMayRun();
    const index = this.waiting.findIndex((job) => (bulkMayRun || !job.bulk) && placeable(job));
    if (index === -1) return undefined;
    const [job] = this.waiting.splice(index, 1) as [Job];
    this.running++;
    if (job.bulk) this.bulkRunning++;
    return job;
  }

  /** Takes a waiting job out of the queue; false when it is not waiting (already handed on). */
  remove(job: Job): boolean {
    const index = this.waiting.indexOf(job);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  /** A job handed on is done with its thread. */
  finished(job: Job): void {
    this.running--;
    if (job.bulk) this.bulkRunning--;
  }

  /** Jobs handed on that must wait again (their thread went away before starting them): first in the queue, in their order. */
  requeue(jobs: readonly Job[]): void {
    for (const job of jobs) this.finished(job);
    this.waiting.unshift(...jobs);
  }

  /** Empties the queue and returns what waited. */
  drain(): Job[] {
    return this.waiting.splice(0);
  }

  private bulkMayRun(): boolean {
    return this.bulkRunning < this.bulkThreads;
  }
}
