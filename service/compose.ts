/**
 * The composition root: the one place where the kernel and its front doors meet. The kernel knows
 * no front door; here each is made from what the host gives it (the executor, the HTTP bodies, the
 * OpenAPI document) and handed to the HTTP service as a list. Arrows point from here inward only.
 */
import { nearestOperation } from '../kernel/host/index.js';
import { type BuiltService, buildService, type DoorKit, type FrontDoor, type RunningService, type StartOptions, startService } from '../kernel/http/index.js';
import { mcpDoor } from '../mcp/route.js';
import { toolPages } from '../tool-pages/serve.js';
import { extensions } from './extensions.js';

/** Every front door of the HTTP service, in the order they see a request. */
export function frontDoors(kit: DoorKit): FrontDoor[] {
  const { host, bodies, document, version } = kit;
  const { docs, workers, server } = host.config;
  const doors: FrontDoor[] = [];
  // The browser pages are public: they answer before authentication and the rate limit.
  if (docs.enabled && docs.toolPages) doors.push({ pages: toolPages(document, nearestOperation) });
  const pool = { runInWorker: host.runInWorker, offloadBytes: workers.offloadBytes, requestBudgetMs: workers.requestBudgetMs };
  doors.push(mcpDoor({ executor: host.executor, bodies, logger: host.logger, version, maxAnswerBytes: server.maxAnswerBytes, ...pool }));
  return doors;
}

/** The whole service's composition, the one both functions below hand the HTTP door. */
const composed = (options: Omit<StartOptions, 'doors' | 'extensions'>): StartOptions => ({ ...options, doors: frontDoors, extensions });

/** Starts the HTTP service with every front door. */
export function startToolshed(options: Omit<StartOptions, 'doors' | 'extensions'>): Promise<RunningService> {
  return startService(composed(options));
}

/** The same service, composed but not listening: its request callback for in-process tests. */
export function buildToolshed(options: Omit<StartOptions, 'doors' | 'extensions'>): Promise<BuiltService> {
  return buildService(composed(options));
}
