/**
 * What every bench server does once it listens: tell the parent its port, answer `usage` with its
 * CPU time and RSS (process-wide, worker threads included, and for Toolshed the CPU time of its
 * contained plugins' processes) and, for Toolshed, its live pool workers,
 * answer `warm` once warmed up, and exit when the parent goes away so a crashed bench leaves no
 * server behind.
 */

/** A server's resource use so far, as its own process sees it. */
export interface Usage {
  /** User + system CPU time since the process started, in µs, its plugin processes' included. */
  readonly cpuUs: number;
  readonly rssBytes: number;
  /** Toolshed's pool worker threads alive now (booting, busy or idle); absent for the peers, which have no pool. */
  readonly poolThreads?: number;
}

export interface Listening {
  readonly port: number;
}

/**
 * `warmedUp`: settles when the server's background warm-up is done (Toolshed's; the others have none).
 * `poolThreads`: reads the live pool workers (Toolshed's). `childCpuUs`: the CPU time of the
 * server's own child processes (Toolshed's contained plugins), part of each request's cost.
 */
export function announce(port: number, warmedUp: Promise<void> = Promise.resolve(), poolThreads?: () => number, childCpuUs: () => number = () => 0): void {
  process.on('message', (message) => {
    if (message === 'warm') {
      void warmedUp.then(() => process.send?.({ warm: true }));
      return;
    }
    if (message !== 'usage') return;
    const cpu = process.cpuUsage();
    const usage: Usage = { cpuUs: cpu.user + cpu.system + childCpuUs(), rssBytes: process.memoryUsage.rss(), ...(poolThreads === undefined ? {} : { poolThreads: poolThreads() }) };
    process.send?.(usage);
  });
  process.once('disconnect', () => process.exit(0));
  const listening: Listening = { port };
  process.send?.(listening);
}
