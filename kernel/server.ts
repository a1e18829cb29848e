/**
 * Starting and stopping the service, as a function tests can call: read config → discover plugins
 * → build the app → listen. `stop()` drains (/healthz 503, answers close their connections, still
 * listening for `server.drainDelayMs`), stops accepting, lets in-flight requests finish (bounded),
 * then closes plugins and the rate-limit store.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { configureWorkerPool, workerPool } from '@toolshed/plugin-sdk';
import { createApp } from './app.js';
import { answerClientError } from './client-error.js';
import type { Config } from './config.js';
import { discoverPlugins, type LoadedPlugin } from './discover.js';
import { describeFailure, type Logger } from './logger.js';
import { createMemoryHitStore } from './rate-limit/memory-store.js';
import type { HitStore } from './rate-limit/store.js';
import { buildRegistry, type Registry } from './registry.js';
import { EventLoopWatchdog } from './watchdog.js';
import { startWarmUp } from './warm-up.js';

/** The folder of the built-in plugins (next to the kernel in the build output). */
export const builtinPluginDir = fileURLToPath(new URL('../plugins/', import.meta.url));

export interface RunningService {
  readonly server: Server;
  readonly registry: Registry;
  /** `http://host:port` as actually bound. */
  readonly url: string;
  /** Settles once the background warm-up (kernel/warm-up.ts) has started a pool worker, at once when it is off. */
  readonly warmedUp: Promise<void>;
  /** Drains, then stops. Called again while the drain delay runs, it ends the delay at once. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly config: Config;
  readonly logger: Logger;
  /** The built-in plugin folder (default: the real one); null serves no built-in plugin. */
  readonly builtinDir?: string | null;
  /** Single plugins served besides the configured ones (see loadPlugin in discover.ts). */
  readonly plugins?: readonly string[];
  readonly bodyLimit?: number;
  /** The plugins found and the registry built from them already (serve checks them before it starts). */
  readonly inspected?: { readonly loaded: readonly LoadedPlugin[]; readonly registry: Registry };
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { config, logger } = options;
  const { threads, memoryMb, maxQueue, idleMs, niceness } = config.workers;
  configureWorkerPool({ workers: threads, memoryMb, maxQueue, idleMs, niceness });
  const loaded =
    options.inspected?.loaded ??
    (await discoverPlugins({
      builtinDir: options.builtinDir === undefined ? builtinPluginDir : options.builtinDir,
      dirs: config.plugins.dirs,
      packages: config.plugins.packages,
      plugins: options.plugins,
    }));
  const registry = options.inspected?.registry ?? buildRegistry(loaded, config);
  // One line per plugin: what was loaded, from where, so nothing is skipped without a word.
  for (const { plugin, origin, source, version } of loaded) {
    const where = origin === 'built-in' ? 'built-in' : origin === 'folder' ? `folder ${source}` : source;
    const enabled = registry.plugins.includes(plugin);
    logger.info({ group: plugin.group, version: version ?? '-', source: where, operations: Object.keys(plugin.operations).length, enabled }, 'plugin loaded');
  }
  for (const [group, source] of registry.replaced) logger.info({ group, source }, 'built-in plugin replaced');
  const warming = performance.now();
  for (const plugin of registry.plugins) await plugin.warm?.();
  logger.info({ plugins: registry.plugins.length, warmMs: Math.round(performance.now() - warming) }, 'plugins warmed');
  const windowMs = config.rateLimit.windowSeconds * 1000;
  const memory = createMemoryHitStore(windowMs);
  const redisUrl = config.rateLimit.redis.url;
  // ioredis is imported only when configured: it costs about 0.1 s of start-up.
  const store: HitStore =
    redisUrl === undefined ? memory : await (await import('./rate-limit/redis-store.js')).createRedisStore({ url: redisUrl, windowMs, logger, fallback: memory });
  // Imported only when enabled: prom-client costs start-up time and memory.
  const watchdog = new EventLoopWatchdog(config.watchdog.blockedMs, logger);
  const metrics = config.metrics.enabled ? (await import('./metrics.js')).createMetrics(store, watchdog) : undefined;
  let draining = false;
  const app = createApp({ config, registry, logger, rateLimitStore: store, bodyLimit: options.bodyLimit, metrics, draining: () => draining, watchdog });
  const { headersTimeoutMs, requestTimeoutMs } = config.server;
  // A slow client may not hold a connection open forever: 408 past either timeout. Node looks for
  // late requests only every connectionsCheckingInterval (30 s by default, which turned a 20 s
  // limit into 20–50 s); once a second costs a walk over the open connections.
  const timeouts = { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, headersTimeoutMs) };
  const server = createServer(timeouts, app.callback());
  server.on('clientError', answerClientError);
  // A socket with no traffic this long is closed: a client that does not read its answer cannot
  // keep it (and its memory) forever. Handlers finish far sooner (the worker budget is shorter).
  server.timeout = config.server.writeTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  watchdog.start();
  const warmedUp = config.operations.warmUp ? startWarmUp(logger) : Promise.resolve();
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let stopping: Promise<void> | undefined;
  let endDrain = (): void => undefined;
  const stop = async (): Promise<void> => {
    draining = true;
    // Still listening and answering: balancers see /healthz at 503 and stop sending new requests
    // before new connections are refused.
    if (config.server.drainDelayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config.server.drainDelayMs);
        endDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), config.server.shutdownTimeoutMs);
    deadline.unref();
    await closed;
    clearTimeout(deadline);
    watchdog.stop();
    // A plugin whose close() hangs must not hold the exit past the shutdown timeout.
    const closing = Promise.all([...registry.plugins.map(async (plugin) => plugin.close?.()), workerPool().close()]);
    let giveUp: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, config.server.shutdownTimeoutMs)));
    await Promise.race([closing.catch((error: unknown) => logger.error({ error: describeFailure(error) }, 'a plugin failed to close')), timedOut]);
    clearTimeout(giveUp);
    await store.close();
  };
  return {
    server,
    registry,
    url: `http://${host}:${address.port}`,
    warmedUp,
    stop: () => {
      if (stopping) endDrain();
      return (stopping ??= stop());
    },
  };
}
