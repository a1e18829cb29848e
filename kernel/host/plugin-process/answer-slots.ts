/**
 * The pool work a contained plugin's answers cost the host, held to its share: at most as many of
 * its answers are checked on the host's pool at once as it has processes. Its processes may answer
 * all the requests sent ahead to them at once (16 a process, `plugins.workers.pipeline`): a
 * red-team plugin answering each with 5.6 MB kept the pool's bulk lane full, and the built-ins'
 * large requests waited 4–5 s or were refused. Its answers past its share wait here, in order, so
 * the plugin pays for its own flood and the built-ins' large requests wait for one check at most.
 */
export class AnswerSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** Checks run so far, and the most run at once. */
  readonly counts = { run: 0, most: 0 };

  constructor(private readonly slots: number) {}

  /** Runs `work` once a slot is free, in the order asked. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.slots) this.running++;
    // The slot is handed over by the work that ends (below), not taken back and retaken.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.counts.run++;
    this.counts.most = Math.max(this.counts.most, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }
}
