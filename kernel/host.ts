/**
 * The host: what runs operations for every front door, with or without an HTTP server — the worker
 * pool sized from the configuration, the plugins warmed, the event-loop watchdog and the executor.
 * `toolshed call` and MCP over stdio open one; the HTTP service opens one beside its server.
 */
import { composeExecutor, type HostExtensions } from './composite.js';
import type { Config } from './config.js';
import type { HostExecutor } from './executor.js';
import { describeFailure, type Logger } from './logger.js';
import { PluginWorkers } from './plugin-workers.js';
import { configureWorkerPool, workerPool } from './pool/process-pool.js';
import { type WorkerPoolStats } from './pool/worker-pool.js';
import type { Registry } from './registry.js';
import { EventLoopWatchdog } from './watchdog.js';

export interface Host {
  readonly config: Config;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly executor: HostExecutor;
  readonly watchdog: EventLoopWatchdog;
  /** The worker pool's counters (for /metrics and tests). */
  poolStats(): WorkerPoolStats;
  /** Each contained plugin's own pool, by group. */
  readonly pluginWorkers: PluginWorkers;
  /** Closes the plugins (bounded by `server.shutdownTimeoutMs`) and ends the worker pool. */
  close(): Promise<void>;
}

export interface HostOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Body cap in bytes (the contract's 10 MiB unless a test lowers it). */
  readonly bodyLimit?: number;
  /** Where a contained plugin's listed variables are copied from (`plugins.env`); the process's by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** What the composition root adds: composite operations (kernel/composite.ts). */
  readonly extensions?: HostExtensions;
}

export async function openHost(options: HostOptions): Promise<Host> {
  const { config, logger, registry } = options;
  const { threads, memoryMb, maxQueue, idleMs, niceness } = config.workers;
  configureWorkerPool({ workers: threads, memoryMb, maxQueue, idleMs, niceness });
  const contained = new Set([...registry.operations.values()].filter((entry) => entry.placement === 'own-workers').map((entry) => entry.operation.group));
  const pluginWorkers = new PluginWorkers(config, [...contained], options.env);
  const watchdog = new EventLoopWatchdog(config.watchdog.blockedMs, logger);
  // Before any plugin is warmed: a broken extension configuration stops the start with nothing to close.
  const executor = composeExecutor({ registry, config, logger, watchdog, pluginWorkers, bodyLimit: options.bodyLimit, extensions: options.extensions });
  const warming = performance.now();
  // Only what is imported here is warmed here; a contained plugin warms in each of its own workers.
  for (const plugin of registry.hosted) await plugin.warm?.();
  logger.info({ plugins: registry.hosted.length, warmMs: Math.round(performance.now() - warming) }, 'plugins warmed');
  return {
    config,
    logger,
    registry,
    executor,
    watchdog,
    poolStats: () => workerPool().stats(),
    pluginWorkers,
    async close() {
      watchdog.stop();
      // A plugin whose close() hangs must not hold the exit past the shutdown timeout.
      const closing = Promise.all([...registry.hosted.map(async (plugin) => plugin.close?.()), workerPool().close(), pluginWorkers.close()]);
      let giveUp: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, config.server.shutdownTimeoutMs)));
      await Promise.race([closing.catch((error: unknown) => logger.error({ error: describeFailure(error) }, 'a plugin failed to close')), timedOut]);
      clearTimeout(giveUp);
    },
  };
}
