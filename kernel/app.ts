/**
 * The middleware order, nothing else. Read top to bottom, it is the story of a request:
 * metrics when enabled (answers GET /metrics, counts every other answer) →
 * errors and access log → compression (answers of 1 KiB and more) → request id → draining (after SIGTERM) →
 * the browser pages (the tool pages at / and /tools/…, the reference at /docs, when enabled) →
 * CORS preflight → route lookup → identify the key →
 * rate limit → 401 → a turn on the event loop (operations wait while a busy turn has had its share) →
 * 404/405 → JSON body (415/413/400) → validation and handler (on the worker pool
 * once the body is large) → JSON answer (422 past the answer cap, 503 past the byte budgets).
 * POST /mcp (mcp/) takes the same path: its tools/call runs the operation as the POST does.
 */
import Koa from './vendor/koa.js';
import { keyIndex } from './api-keys.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { identify, refuseBadCredentials } from './middleware/auth.js';
import { BODY_LIMIT } from './middleware/body.js';
import { ByteBudget } from './byte-budget.js';
import { compressAnswers } from './middleware/compress.js';
import { corsPreflight } from './middleware/cors.js';
import { docsPage } from './docs-page.js';
import { drainSignal } from './middleware/drain.js';
import { dispatch, type DispatchLimits } from './middleware/dispatch.js';
import { errors } from './middleware/errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { lookupRoute } from './middleware/route.js';
import { takeTurns } from './middleware/turns.js';
import { MCP_PATH, mcpRoute } from '../mcp/route.js';
import { buildOpenApiDocument } from './openapi.js';
import { notFoundMessages } from './route-hint.js';
import { toolPages } from '../tool-pages/serve.js';
import type { HitStore } from './rate-limit/store.js';
import type { Registry } from './registry.js';
import type { KernelMiddleware, KernelState, Route } from './types.js';
import { EventLoopWatchdog } from './watchdog.js';

/** The API's version, as the contract labels it. */
export const API_VERSION = '1.0.0';

export interface AppOptions {
  readonly config: Config;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly rateLimitStore: HitStore;
  /** Body cap in bytes (the contract's 10 MiB unless a test lowers it). */
  readonly bodyLimit?: number;
  /** The metrics middleware (kernel/metrics.ts) when `metrics.enabled`. */
  readonly metrics?: KernelMiddleware;
  /** True once the service is stopping: /healthz answers 503 and answers close their connection. */
  readonly draining?: () => boolean;
  /** The event-loop watchdog the dispatch reports to (a stopped one when not given). */
  readonly watchdog?: EventLoopWatchdog;
}

/** Every path the service answers, computed once; `document` is the registry's OpenAPI document. */
export function buildRoutes(registry: Registry, document: Record<string, unknown>): Map<string, Route> {
  const routes = new Map<string, Route>();
  routes.set('/healthz', { method: 'GET', public: true, json: JSON.stringify({ status: 'ok' }) });
  routes.set('/v1/openapi.json', { method: 'GET', public: false, json: JSON.stringify(document) });
  for (const operation of registry.operations.values()) routes.set(operation.path, { method: 'POST', public: false, operation });
  return routes;
}

export function createApp(options: AppOptions): Koa<KernelState> {
  const { config, logger } = options;
  const app = new Koa<KernelState>({ proxy: config.server.trustProxy > 0, maxIpsCount: config.server.trustProxy });
  app.silent = true;
  app.on('error', (error: unknown) => logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'response not delivered'));
  if (options.metrics) app.use(options.metrics);
  app.use(errors(logger));
  app.use(compressAnswers());
  app.use(requestId());
  if (options.draining) app.use(drainSignal(options.draining));
  // Built once for both: the document is ~10 ms of start-up.
  const document = buildOpenApiDocument(options.registry, API_VERSION);
  if (config.docs.enabled && config.docs.toolPages) app.use(toolPages(document));
  if (config.docs.enabled) app.use(docsPage());
  app.use(corsPreflight(config.cors.origins));
  const routes = buildRoutes(options.registry, document);
  routes.set(MCP_PATH, mcpRoute({ registry: options.registry, logger, version: API_VERSION }));
  app.use(lookupRoute(routes));
  app.use(identify(keyIndex(config.auth.apiKeys), config.auth.required));
  app.use(
    rateLimit({
      windowSeconds: config.rateLimit.windowSeconds,
      anonymousMax: config.rateLimit.anonymous.max,
      apiKeyMax: config.rateLimit.apiKey.max,
      store: options.rateLimitStore,
    }),
  );
  app.use(refuseBadCredentials());
  app.use(takeTurns());
  app.use(dispatch(dispatchLimits(config, options.registry, logger, options.watchdog ?? new EventLoopWatchdog(config.watchdog.blockedMs, logger), options.bodyLimit)));
  return app;
}

/** The limits every request runs under, from the configuration (stdio MCP runs under them too). */
export function dispatchLimits(config: Config, registry: Registry, logger: Logger, watchdog: EventLoopWatchdog, bodyLimit = BODY_LIMIT): DispatchLimits {
  return {
    bodyLimit,
    offloadBytes: config.workers.offloadBytes,
    offloadBudgetMs: config.workers.requestBudgetMs,
    maxAnswerBytes: config.server.maxAnswerBytes,
    reading: new ByteBudget(config.server.readingBytes),
    sending: new ByteBudget(config.server.sendingBytes),
    notFoundMessage: notFoundMessages([...registry.operations.values()].map((operation) => operation.path), registry.disabledGroups),
    logger,
    watchdog,
  };
}
