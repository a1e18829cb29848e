/**
 * What every bench server does once it listens: tell the parent its port, answer `usage` with its
 * CPU time and RSS (process-wide, worker threads included), answer `warm` once warmed up, and exit when the parent goes away so
 * a crashed bench leaves no server behind.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A server's resource use so far, as its own process sees it. */
export interface Usage {
  /** User + system CPU time since the process started, in µs. */
  readonly cpuUs: number;
  readonly rssBytes: number;
  /** The event loop's longest delay since the last `usage` (monitorEventLoopDelay at 1 ms): the longest block. */
  readonly loopMaxMs: number;
}

export interface Listening {
  readonly port: number;
}

/** `warmedUp`: settles when the server's background warm-up is done (Toolshed's; the others have none). */
export function announce(port: number, warmedUp: Promise<void> = Promise.resolve()): void {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  process.on('message', (message) => {
    if (message === 'warm') {
      void warmedUp.then(() => process.send?.({ warm: true }));
      return;
    }
    if (message !== 'usage') return;
    const cpu = process.cpuUsage();
    const usage: Usage = { cpuUs: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss(), loopMaxMs: delay.max / 1e6 };
    delay.reset();
    process.send?.(usage);
  });
  process.once('disconnect', () => process.exit(0));
  const listening: Listening = { port };
  process.send?.(listening);
}
