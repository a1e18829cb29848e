/**
 * The host: what runs operations for every front door, with or without a transport — its worker
 * pool sized from the configuration, the contained plugins' own processes, the plugins warmed, the
 * event-loop watchdog, the byte budget of answers and the executor. `toolshed call` and MCP over
 * stdio open one; the HTTP service opens one beside its server.
 */
import type { RunInWorker } from '@toolshed/plugin-sdk';
import { ByteBudget } from './byte-budget.js';
import type { HostExtensions } from './composite.js';
import type { Config } from './config.js';
import { createExecutor, type Executor } from './executor.js';
import { BODY_LIMIT } from './json-body.js';
import { describeFailure, type Logger } from './logger.js';
import { PluginProcesses } from './plugin-process/plugin-processes.js';
import { WorkerPool, type WorkerPoolStats } from './pool/worker-pool.js';
import type { Registry } from './registry.js';
import { startWarmUp } from './warm-up.js';
import { EventLoopWatchdog } from './watchdog.js';

export interface Host {
  readonly config: Config;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly executor: Executor;
  readonly watchdog: EventLoopWatchdog;
  /** Answers produced and not yet delivered (`server.sendingBytes`): a door takes an answer's bytes until it is written. */
  readonly answers: ByteBudget;
  /** The body cap in bytes: the contract's 10 MiB unless a test lowers it. */
  readonly bodyLimit: number;
  /** The host's worker threads, for a door's own heavy work (parsing a large message). */
  readonly runInWorker: RunInWorker;
  /** The worker pool's counters (for /metrics and tests). */
  poolStats(): WorkerPoolStats;
  /** Each contained plugin's own processes, by group. */
  readonly pluginProcesses: PluginProcesses;
  /**
   * Once the service listens: imports and warms the built-ins that have a `warm()` and are imported
   * on first use, and, when `pool` is true, starts one pool worker; settles when both are done.
   */
  warmUp(pool: boolean): Promise<void>;
  /** Closes the plugins (bounded by `server.shutdownTimeoutMs`) and ends the worker pools. */
  close(): Promise<void>;
}

export interface HostOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Body cap in bytes (the contract's 10 MiB unless a test lowers it). */
  readonly bodyLimit?: number;
  /** Where a contained plugin's listed variables are copied from (`plugins.env`); the service's own by default. */
  readonly env?: NodeJS.ProcessEnv;
  /** What the composition root adds: composite operations (kernel/host/composite.ts). */
  readonly extensions?: HostExtensions;
}

/**
 * The executor of the registry's operations and the extensions' composites, running nothing:
 * `toolshed config check` and `toolshed openapi` use it to see what would be served. Throws the
 * extensions' ConfigError when their configuration is broken.
 */
export function listingExecutor(config: Config, registry: Registry, logger: Logger, extensions?: HostExtensions): Executor {
  return createExecutor({ registry, config, logger, watchdog: new EventLoopWatchdog(config.watchdog.blockedMs, logger), composites: composer(config, extensions) });
}

function composer(config: Config, extensions: HostExtensions | undefined): ((operations: Executor) => ReturnType<NonNullable<HostExtensions['composites']>>) | undefined {
  const make = extensions?.composites;
  return make === undefined ? undefined : (operations) => make(operations, config);
}

export async function openHost(options: HostOptions): Promise<Host> {
  const { config, logger, registry } = options;
  const { threads, memoryMb, maxQueue, idleMs, niceness } = config.workers;
  const contained = new Map<string, { group: string; specifier: string; config: unknown }>();
  for (const entry of registry.operations.values()) {
    if (entry.placement === 'own-processes') contained.set(entry.operation.group, { group: entry.operation.group, specifier: entry.module, config: entry.config });
  }
  const watchdog = new EventLoopWatchdog(config.watchdog.blockedMs, logger);
  const answers = new ByteBudget(config.server.sendingBytes);
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  // Made before any worker starts: a broken extension configuration stops the start with nothing to close.
  const pool = new WorkerPool({ workers: threads, memoryMb, maxQueue, idleMs, niceness });
  const pluginProcesses = new PluginProcesses(config, [...contained.values()], logger, options.env);
  let executor: Executor;
  try {
    executor = createExecutor({ registry, config, logger, watchdog, pool, pluginProcesses, answers, bodyLimit, composites: composer(config, options.extensions) });
  } catch (error) {
    await Promise.all([pool.close(), pluginProcesses.close()]);
    throw error;
  }
  // Its tick keeps the main-thread deadlines, whatever door opened the host.
  watchdog.start();
  const warming = performance.now();
  // Only what is imported here is warmed here; a contained plugin warms in each of its own processes,
  // a built-in imported on first use when it is imported (warmUp below, or its first request).
  const now = registry.hosted.filter((plugin) => !registry.deferred.has(plugin.group));
  for (const plugin of now) await plugin.warm?.();
  logger.info({ plugins: now.length, warmMs: Math.round(performance.now() - warming) }, 'plugins warmed');
  const warmDeferred = async (): Promise<void> => {
    const started = performance.now();
    const due = registry.hosted.filter((plugin) => registry.deferred.has(plugin.group) && plugin.warm !== undefined);
    try {
      for (const plugin of due) await plugin.warm?.();
      if (due.length > 0) logger.info({ plugins: due.length, warmMs: Math.round(performance.now() - started) }, 'plugins imported and warmed');
    } catch (error) {
      logger.error({ error: describeFailure(error) }, 'a built-in plugin failed to load');
    }
  };
  return {
    config,
    logger,
    registry,
    executor,
    watchdog,
    answers,
    bodyLimit,
    runInWorker: (module, exportName, args, jobOptions) => pool.run(module, exportName, args, jobOptions),
    poolStats: () => pool.stats(),
    pluginProcesses,
    warmUp: async (warmPool) => void (await Promise.all([warmDeferred(), warmPool ? startWarmUp(pool, logger) : undefined])),
    async close() {
      watchdog.stop();
      // A plugin whose close() hangs must not hold the exit past the shutdown timeout.
      const closing = Promise.all([...registry.hosted.map(async (plugin) => plugin.close?.()), pool.close(), pluginProcesses.close()]);
      let giveUp: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, config.server.shutdownTimeoutMs)));
      await Promise.race([closing.catch((error: unknown) => logger.error({ error: describeFailure(error) }, 'a plugin failed to close')), timedOut]);
      clearTimeout(giveUp);
    },
  };
}
