/**
 * GET /metrics in the Prometheus text format (config `metrics.enabled`, off by default). The
 * middleware is the outermost one, so it sees the final status of every answer, 401, 404, 413 and
 * 429 included. Labels hold only bounded values: the operation id (or `none`) and the status,
 * never the path, so a client cannot create series. Each service has its own Registry, so several
 * services in one process (tests) never share counters. server.ts imports this module only when
 * metrics are enabled: prom-client costs start-up time and memory.
 */
import type { Host, PluginShareStats, WorkerPoolStats } from '../host/index.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RefusedConnections } from './connection-caps.js';
import type { RedisHitStore } from './rate-limit/redis-store.js';
import type { HitStore } from './rate-limit/store.js';
import type { KernelMiddleware } from './types.js';

/** The path the middleware answers (GET and HEAD); other methods go on to the usual 404. */
const METRICS_PATH = '/metrics';

// From a cached GET (well under 1 ms) to past the longest worker budgets (10 s by default).
const durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function isRedisStore(store: HitStore): store is RedisHitStore {
  return typeof (store as Partial<RedisHitStore>).counted === 'function';
}

/** A gauge whose value is read at each scrape. */
function readGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({ name, help, registers: [registry], collect() {
    this.set(read());
  } });
}

/** A counter whose total is kept elsewhere (the pool, the store) and read at each scrape. */
function readCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({ name, help, registers: [registry], collect() {
    this.reset();
    this.inc(read());
  } });
}

/** The pool's numbers, read at each scrape. */
function registerWorkerPool(registry: Registry, host: Host): void {
  const stats = (): WorkerPoolStats => host.poolStats();
  readGauge(registry, 'toolshed_worker_pool_queued', 'Jobs waiting for a worker thread', () => stats().queued);
  readGauge(registry, 'toolshed_worker_pool_running', 'Jobs running on a worker thread', () => stats().running);
  readGauge(registry, 'toolshed_worker_pool_threads', 'Worker threads alive (idle ones end after workers.idleMs)', () => stats().workers);
  readCounter(registry, 'toolshed_worker_jobs_timeouts_total', 'Worker jobs given up at their deadline (the worker is terminated)', () => stats().timeouts);
  readCounter(registry, 'toolshed_worker_jobs_refused_total', 'Worker jobs refused at once because the queue was full (503 server_busy)', () => stats().refused);
  readGauge(registry, 'toolshed_worker_pool_max_queue', 'Jobs that may wait for a worker thread (workers.maxQueue)', () => host.config.workers.maxQueue);
  // The bulk lane: whole requests over workers.offloadBytes, with their own, smaller limits.
  readGauge(registry, 'toolshed_worker_pool_bulk_queued', 'Whole requests waiting for a worker thread (bulk lane; included in _queued)', () => stats().bulkQueued);
  readGauge(registry, 'toolshed_worker_pool_bulk_running', 'Whole requests running on a worker thread (bulk lane; included in _running)', () => stats().bulkRunning);
  readGauge(registry, 'toolshed_worker_pool_bulk_max_queue', 'Whole requests that may wait: max(1, workers.maxQueue / 16)', () => stats().bulkMaxQueue);
  readGauge(registry, 'toolshed_worker_pool_bulk_threads', 'Threads whole requests may hold at once: max(1, workers.threads - 1)', () => stats().bulkThreads);
  readCounter(registry, 'toolshed_worker_jobs_bulk_refused_total', 'Whole requests refused at once because the bulk queue was full (503; included in _refused_total)', () => stats().bulkRefused);
}

/** A gauge per contained plugin (label `plugin`: a group the operator installed, so bounded), read at each scrape. */
function pluginGauge(registry: Registry, name: string, help: string, read: () => Iterable<[string, number]>): void {
  new Gauge({ name, help, labelNames: ['plugin'] as const, registers: [registry], collect() {
    this.reset();
    for (const [plugin, value] of read()) this.set({ plugin }, value);
  } });
}

/** Each contained plugin's processes (kernel/host/plugin-process/), read at each scrape. */
function registerPluginProcesses(registry: Registry, host: Host): void {
  const each = (read: (stats: PluginShareStats) => number) => (): [string, number][] => [...host.pluginProcesses.stats()].map(([plugin, stats]) => [plugin, read(stats)]);
  pluginGauge(registry, 'toolshed_plugin_processes', 'Processes of a contained plugin alive (starting, idle or busy)', each((stats) => stats.processes));
  pluginGauge(registry, 'toolshed_plugin_running', 'Requests of a contained plugin running in its processes', each((stats) => stats.running));
  pluginGauge(registry, 'toolshed_plugin_queued', 'Requests of a contained plugin waiting for one of its processes', each((stats) => stats.queued));
  pluginGauge(registry, 'toolshed_plugin_failures', 'Ends of a contained plugin\'s processes of their own doing in a row (exit, crash, memory cap); 0 once one answers', each((stats) => stats.failures));
  pluginGauge(registry, 'toolshed_plugin_paused', '1 while the service waits before starting a failing plugin\'s process again (its requests get 503 plugin_unavailable)', each((stats) => (stats.paused ? 1 : 0)));
  // Totals kept by the shares; counters with labels, read at each scrape.
  const totals = (name: string, help: string, read: (stats: PluginShareStats) => number): void => {
    new Counter({ name, help, labelNames: ['plugin'] as const, registers: [registry], collect() {
      this.reset();
      for (const [plugin, stats] of host.pluginProcesses.stats()) this.inc({ plugin }, read(stats));
    } });
  };
  totals('toolshed_plugin_refused_total', 'Requests of a contained plugin refused at once because its share was full (503 server_busy)', (stats) => stats.refused);
  totals('toolshed_plugin_timeouts_total', 'Requests of a contained plugin past their deadline (its process is ended)', (stats) => stats.timeouts);
  new Counter({
    name: 'toolshed_plugin_process_ends_total',
    help: 'Processes of a contained plugin ended, by cause: exited (its own doing), memory, busy-idle, protocol, start-timeout (each counts as a failure), deadline, aborted, idle, closing',
    labelNames: ['plugin', 'cause'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [plugin, stats] of host.pluginProcesses.stats()) for (const [cause, count] of Object.entries(stats.ends)) this.inc({ plugin, cause }, count);
    },
  });
}

/** With a Redis store: whether it counts in Redis now, and how often it fell back to memory. */
function registerRedisStore(registry: Registry, store: RedisHitStore): void {
  readGauge(registry, 'toolshed_rate_limit_redis_up', '1 while rate limits are counted in Redis, 0 while Redis does not answer (this instance counts alone, or refuses)', () =>
    store.counted().mode === 'redis' ? 1 : 0,
  );
  readCounter(registry, 'toolshed_rate_limit_redis_fallbacks_total', 'Switches from Redis to counting in this instance', () => store.counted().fallbacks);
  readCounter(registry, 'toolshed_rate_limit_redis_refused_total', 'Requests refused 503 while Redis did not answer (rateLimit.redis.unavailable: refuse)', () => store.counted().refused);
}

/** The watchdog's blocks of the main thread, per operation id (`none`: no operation known). */
function registerWatchdog(registry: Registry, watchdog: Host['watchdog']): void {
  new Counter({
    name: 'toolshed_event_loop_blocked_total',
    help: 'Times the main thread was blocked longer than watchdog.blockedMs, by the operation running (none: not known)',
    labelNames: ['operation'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [operation, count] of watchdog.blocks) this.inc({ operation }, count);
    },
  });
}

/** The connections the caps closed (kernel/http/connection-caps.ts, pipelined-requests.ts), by cap. */
function registerConnectionCaps(registry: Registry, refused: RefusedConnections): void {
  new Counter({
    name: 'toolshed_connections_refused_total',
    help: 'Connections closed by a cap: as they were accepted, past server.maxConnections (total) or server.connectionsPerClient (client); or with more requests sent ahead than may wait, or as accepted from a peer cooling off after such closes (pipelined)',
    labelNames: ['cap'] as const,
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ cap: 'total' }, refused.total);
      this.inc({ cap: 'client' }, refused.client);
      this.inc({ cap: 'pipelined' }, refused.pipelined);
    },
  });
}

/** The metrics middleware, with a registry of its own. */
export function createMetrics(store: HitStore, host: Host, refusedConnections: RefusedConnections): KernelMiddleware {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const labelNames = ['operation', 'status'] as const;
  const requests = new Counter({ name: 'toolshed_http_requests_total', help: 'Answers by operation id (none: no operation) and status', labelNames, registers });
  const durations = new Histogram({
    name: 'toolshed_http_request_duration_seconds',
    help: 'Time until the answer was ready, by operation id and status',
    labelNames,
    buckets: durationBuckets,
    registers,
  });
  const refusals = new Counter({ name: 'toolshed_rate_limit_refusals_total', help: 'Requests refused with 429 by the rate limit, by client kind', labelNames: ['client'] as const, registers });
  registerWorkerPool(registry, host);
  registerPluginProcesses(registry, host);
  registerWatchdog(registry, host.watchdog);
  registerConnectionCaps(registry, refusedConnections);
  if (isRedisStore(store)) registerRedisStore(registry, store);

  return async function countRequests(ctx, next) {
    if (ctx.path === METRICS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Content-Type', registry.contentType);
      ctx.body = await registry.metrics();
      return;
    }
    const started = performance.now();
    // The errors middleware inside turns every failure into a status, so next() does not throw.
    await next();
    const labels = { operation: ctx.state.route?.operation?.id ?? 'none', status: String(ctx.status) };
    requests.inc(labels);
    durations.observe(labels, (performance.now() - started) / 1000);
    // Only the kernel's rate limit answers 429 (the SDK's errors have no 429).
    if (ctx.status === 429) refusals.inc({ client: ctx.state.apiKey === undefined ? 'anonymous' : 'api_key' });
  };
}
