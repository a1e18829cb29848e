// The service under load: every built-in plugin, the default budgets, limits raised so the load is
// measured rather than refused. It reports its own event-loop delay and memory over IPC, since only
// the server can see its event loop.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { validateCoreConfig } from '../../kernel/host/config.js';
import { createLogger } from '../../kernel/host/logger.js';
import { startToolshed } from '../../service/compose.js';

const config = validateCoreConfig({
  // 127.0.0.1, where the valid traffic comes from, is a trusted proxy: its X-Forwarded-For stands
  // for 150,000 clients. The attacker's 127.0.0.3 is a peer of its own, under the per-peer caps,
  // as every client is under the default configuration (a hop count would make every peer a proxy).
  server: { host: '127.0.0.1', port: 0, trustProxy: ['127.0.0.1'], writeTimeoutMs: 5000 },
  // Every deadline, and the pool's request budget, must end before the write timeout closes the
  // silent connection (issue 21; the start refuses otherwise).
  operations: { deadlineMs: 4500 },
  rateLimit: { anonymous: { max: 1_000_000_000 } },
  // LOADTEST_NICENESS compares pool priorities; unset, the default niceness is measured.
  workers: { requestBudgetMs: 4500, ...(process.env.LOADTEST_NICENESS === undefined ? {} : { niceness: Number(process.env.LOADTEST_NICENESS) }) },
});
// Log lines are written and thrown away: the cost of logging is measured, not the disk.
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const service = await startToolshed({ config, logger: createLogger('info', sink) });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
// The peak since the last 'reset' (one phase), and over the whole run (the kept target).
let peakRss = process.memoryUsage.rss();
let runPeakRss = peakRss;
// Garbage-collection pauses of the main thread: the part of the event loop's delay that is V8's.
let gcMaxMs = 0;
let gcTotalMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcMaxMs = Math.max(gcMaxMs, entry.duration);
    gcTotalMs += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
setInterval(() => {
  const rss = process.memoryUsage.rss();
  peakRss = Math.max(peakRss, rss);
  runPeakRss = Math.max(runPeakRss, rss);
}, 50).unref();

process.on('message', (message: string) => {
  if (message === 'reset') {
    delay.reset();
    gcMaxMs = 0;
    gcTotalMs = 0;
    peakRss = process.memoryUsage.rss();
    process.send?.({ ok: true });
  } else if (message === 'stats') {
    const { rss, heapTotal, heapUsed, external } = process.memoryUsage();
    const threads = service.host.poolStats().workers;
    service.server.getConnections((_error, connections) => {
      process.send?.({ loopP99Ms: delay.percentile(99) / 1e6, loopMaxMs: delay.max / 1e6, rssMb: rss / 2 ** 20, peakRssMb: Math.max(peakRss, rss) / 2 ** 20, runPeakRssMb: Math.max(runPeakRss, rss) / 2 ** 20, heapMb: heapTotal / 2 ** 20, liveMb: heapUsed / 2 ** 20, externalMb: external / 2 ** 20, threads, connections, gcMaxMs, gcTotalMs });
    });
  }
});
process.send?.(Number(new URL(service.url).port));
