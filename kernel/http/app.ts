/**
 * The middleware order, nothing else. Read top to bottom, it is the story of a request:
 * metrics when enabled (answers GET /metrics, counts every other answer) →
 * errors and access log → compression (answers of 1 KiB and more) → request id → draining (after SIGTERM) →
 * the front doors' pages (the tool pages, the reference at /docs) →
 * CORS preflight → route lookup → identify the key →
 * rate limit → 401 → (auth.required) the plain 404 without a key → a turn on the event loop (operations wait while a busy turn has had its share) →
 * 404/405 → a front door's route (MCP) or an operation: JSON body (415/413/400) run through the
 * executor (validation, handler on the main thread or the pool, deadline, answer check) → JSON
 * answer (422 past the answer cap, 503 past the byte budgets).
 */
import Koa from './vendor/koa.js';
import { keyIndex } from './api-keys.js';
import { installCaller } from './caller.js';
import { installClientAddress, proxyOptions } from './client-address.js';
import type { Config, Executor, Logger } from '../host/index.js';
import type { HttpBodies } from './http-body.js';
import { identify, plainNotFoundWithoutKey, refuseBadCredentials } from './middleware/auth.js';
import { compressAnswers } from './middleware/compress.js';
import { corsPreflight } from './middleware/cors.js';
import { docsPage } from './docs-page.js';
import { drainSignal } from './middleware/drain.js';
import { dispatch } from './middleware/dispatch.js';
import { errors } from './middleware/errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestId } from './middleware/request-id.js';
import { lookupRoute } from './middleware/route.js';
import { takeTurns } from './middleware/turns.js';
import type { HitStore } from './rate-limit/store.js';
import { notFoundMessages } from './route-hint.js';
import type { FrontDoor, KernelMiddleware, KernelState, Route } from './types.js';

export interface AppOptions {
  readonly config: Config;
  readonly executor: Executor;
  /** Groups found but switched off: a 404 into one says so. */
  readonly disabledGroups?: readonly string[];
  readonly bodies: HttpBodies;
  /** The OpenAPI document, served at /v1/openapi.json. */
  readonly document: Record<string, unknown>;
  readonly logger: Logger;
  readonly rateLimitStore: HitStore;
  /** The front doors wired by the composition root (service/). */
  readonly doors?: readonly FrontDoor[];
  /** The metrics middleware (kernel/http/metrics.ts) when `metrics.enabled`. */
  readonly metrics?: KernelMiddleware;
  /** True once the service is stopping: /healthz answers 503 and answers close their connection. */
  readonly draining?: () => boolean;
}

/**
 * GET /healthz: `{"status":"ok"}`, and with Redis where the rate limit counts now (`rateLimit`:
 * `redis`, `local`, `refusing`), read at each request, so an instance counting alone is seen.
 */
function healthRoute(store?: HitStore): Route {
  const counting = store?.counting?.bind(store);
  if (counting === undefined) return { method: 'GET', public: true, json: JSON.stringify({ status: 'ok' }) };
  return {
    method: 'GET',
    public: true,
    get json() {
      return JSON.stringify({ status: 'ok', rateLimit: counting() });
    },
  };
}

/** Every path the service answers, computed once. */
export function buildRoutes(executor: Executor, document: Record<string, unknown>, doors: readonly FrontDoor[] = [], store?: HitStore): Map<string, Route> {
  const routes = new Map<string, Route>();
  routes.set('/healthz', healthRoute(store));
  routes.set('/v1/openapi.json', { method: 'GET', public: false, json: JSON.stringify(document) });
  for (const operation of executor.operations()) routes.set(`/v1/${operation.name}`, { method: 'POST', public: false, operation });
  for (const door of doors) for (const route of door.routes ?? []) routes.set(route.path, { method: route.method, public: false, respond: route.respond, answersOverLimit: route.answersOverLimit });
  return routes;
}

export function createApp(options: AppOptions): Koa<KernelState> {
  const { config, logger, executor } = options;
  const doors = options.doors ?? [];
  const app = new Koa<KernelState>(proxyOptions(config.server.trustProxy));
  installClientAddress(app, config.server.trustProxy);
  app.silent = true;
  app.on('error', (error: unknown) => logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'response not delivered'));
  if (options.metrics) app.use(options.metrics);
  app.use(errors(logger));
  app.use(compressAnswers());
  app.use(requestId());
  if (options.draining) app.use(drainSignal(options.draining));
  for (const door of doors) if (door.pages) app.use(door.pages);
  if (config.docs.enabled) app.use(docsPage());
  app.use(corsPreflight(config.cors.origins));
  app.use(lookupRoute(buildRoutes(executor, options.document, doors, options.rateLimitStore)));
  app.use(identify(keyIndex(config.auth.apiKeys), config.auth.required));
  const limit = rateLimit({
    windowSeconds: config.rateLimit.windowSeconds,
    anonymousMax: config.rateLimit.anonymous.max,
    apiKeyMax: config.rateLimit.apiKey.max,
    store: options.rateLimitStore,
  });
  installCaller(app, limit.charge);
  app.use(limit.middleware);
  app.use(refuseBadCredentials());
  if (config.auth.required) app.use(plainNotFoundWithoutKey());
  app.use(takeTurns());
  const notFound = notFoundMessages(executor.operations().map((operation) => operation.name), options.disabledGroups);
  app.use(dispatch(executor, options.bodies, notFound));
  return app;
}
