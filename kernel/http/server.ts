/**
 * Starting and stopping the service, as a function tests can call: read config → discover plugins
 * → build the app (buildService, which tests also use without a socket) → listen. `stop()` drains (/healthz 503, answers close their connections, still
 * listening for `server.drainDelayMs`), stops accepting, lets in-flight requests finish (bounded),
 * then closes plugins and the rate-limit store.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_VERSION, builtinPluginDir, buildRegistry, discoverPlugins, openHost, type Config, type Host, type HostExtensions, type LoadedPlugin, type Logger, type Registry } from '../host/index.js';
import { createApp } from './app.js';
import { answerClientError } from './client-error.js';
import { capConnections, CooledPeers, type RefusedConnections } from './connection-caps.js';
import { httpBodies, type HttpBodies } from './http-body.js';
import { oneAtATime } from './pipelined-requests.js';
import { buildOpenApiDocument } from './openapi.js';
import { createMemoryHitStore } from './rate-limit/memory-store.js';
import type { HitStore } from './rate-limit/store.js';
import type { FrontDoor } from './types.js';

/** What the composition root hands each front door it wires into the HTTP service. */
export interface DoorKit {
  readonly host: Host;
  /** Bodies in and answers out under the service's caps and budgets. */
  readonly bodies: HttpBodies;
  /** The OpenAPI document of the enabled operations. */
  readonly document: Record<string, unknown>;
  readonly version: string;
}

export interface RunningService {
  readonly server: Server;
  readonly registry: Registry;
  readonly host: Host;
  /** Bodies in and answers out (what the reading budget holds: tests and the loadtest look). */
  readonly bodies: HttpBodies;
  /** `http://host:port` as actually bound. */
  readonly url: string;
  /** Settles once the background warm-up (kernel/host/warm-up.ts) has started a pool worker, at once when it is off. */
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
  /** The front doors, made once the host is open (the composition root's, in service/). */
  readonly doors?: (kit: DoorKit) => readonly FrontDoor[];
  /** What the composition root adds to the host: composite operations, their sections and groups. */
  readonly extensions?: HostExtensions;
}

/**
 * The service composed and ready to answer, with no socket: the callback a server (or a test's
 * in-process inject) hands each request. startService is this plus listening, so the two never differ.
 */
export interface BuiltService {
  readonly registry: Registry;
  readonly host: Host;
  readonly bodies: HttpBodies;
  /** The Koa app's request listener. */
  readonly callback: RequestListener;
  /** Connections the caps closed (kernel/http/connection-caps.ts, pipelined-requests.ts): a server counts them here, /metrics shows them. */
  readonly refusedConnections: RefusedConnections;
  /** Starts the watchdog and the background warm-up: what runs once requests may come. Settles as `warmedUp` does. */
  begin(): Promise<void>;
  /** From now on /healthz answers 503 and answers close their connections. */
  drain(): void;
  /** Closes the plugins and the rate-limit store. */
  close(): Promise<void>;
}

/** Reads what it must, discovers the plugins and composes the host and the app, without listening. */
export async function buildService(options: StartOptions): Promise<BuiltService> {
  const { config, logger } = options;
  const loaded =
    options.inspected?.loaded ??
    (await discoverPlugins({
      builtinDir: options.builtinDir === undefined ? builtinPluginDir : options.builtinDir,
      dirs: config.plugins.dirs,
      packages: config.plugins.packages,
      plugins: options.plugins,
      trusted: config.plugins.trusted,
      user: config.plugins.user,
    }));
  const registry = options.inspected?.registry ?? buildRegistry(loaded, config, options.extensions);
  // One line per plugin: what was loaded, from where, so nothing is skipped without a word.
  for (const { plugin, origin, source, version } of loaded) {
    const where = origin === 'built-in' ? 'built-in' : origin === 'folder' ? `folder ${source}` : source;
    const enabled = registry.plugins.includes(plugin);
    logger.info({ group: plugin.group, version: version ?? '-', source: where, operations: Object.keys(plugin.operations).length, enabled }, 'plugin loaded');
  }
  for (const [group, source] of registry.replaced) logger.info({ group, source }, 'built-in plugin replaced');
  const host = await openHost({ config, logger, registry, bodyLimit: options.bodyLimit, extensions: options.extensions });
  const windowMs = config.rateLimit.windowSeconds * 1000;
  const memory = createMemoryHitStore(windowMs);
  const redisUrl = config.rateLimit.redis.url;
  // ioredis is imported only when configured: loading it lengthens every start that has no Redis.
  const store: HitStore =
    redisUrl === undefined
      ? memory
      : await (await import('./rate-limit/redis-store.js')).createRedisStore({ url: redisUrl, windowMs, logger, fallback: memory, unavailable: config.rateLimit.redis.unavailable, commandTimeoutMs: config.rateLimit.redis.commandTimeoutMs });
  // Imported only when enabled: prom-client costs start-up time and memory.
  const refusedConnections: RefusedConnections = { total: 0, client: 0, pipelined: 0 };
  const metrics = config.metrics.enabled ? (await import('./metrics.js')).createMetrics(store, host, refusedConnections) : undefined;
  let draining = false;
  const bodies = httpBodies(host);
  // Built once for the API and the doors that show it: the document walks every operation's schemas.
  const document = buildOpenApiDocument(host.executor.operations(), API_VERSION, registry.disabledGroups);
  const doors = options.doors?.({ host, bodies, document, version: API_VERSION }) ?? [];
  const app = createApp({ config, executor: host.executor, disabledGroups: registry.disabledGroups, bodies, document, logger, rateLimitStore: store, doors, metrics, draining: () => draining });
  return {
    registry,
    host,
    bodies,
    callback: app.callback(),
    refusedConnections,
    begin: () => {
      host.watchdog.start();
      return host.warmUp(config.operations.warmUp);
    },
    drain: () => {
      draining = true;
    },
    close: async () => {
      await host.close();
      await store.close();
    },
  };
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { config } = options;
  const built = await buildService(options);
  const { headersTimeoutMs, requestTimeoutMs } = config.server;
  // A slow client may not hold a connection open forever: 408 past either timeout. Node looks for
  // late requests only every connectionsCheckingInterval (30 s by default, which turned a 20 s
  // limit into 20–50 s); once a second costs a walk over the open connections.
  const timeouts = { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1000, headersTimeoutMs) };
  const cooled = new CooledPeers();
  const server = createServer(timeouts, oneAtATime(built.callback, built.refusedConnections, cooled));
  server.on('clientError', answerClientError);
  capConnections(server, config.server, built.refusedConnections, cooled);
  // A socket with no traffic this long is closed: a client that does not read its answer cannot
  // keep it (and its memory) forever. Handlers finish far sooner (the worker budget is shorter).
  server.timeout = config.server.writeTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  const warmedUp = built.begin();
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let stopping: Promise<void> | undefined;
  let endDrain = (): void => undefined;
  const stop = async (): Promise<void> => {
    built.drain();
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
    await built.close();
  };
  return {
    server,
    registry: built.registry,
    host: built.host,
    bodies: built.bodies,
    url: `http://${hostname}:${address.port}`,
    warmedUp,
    stop: () => {
      if (stopping) endDrain();
      return (stopping ??= stop());
    },
  };
}
