/**
 * `toolshed mcp`: the same tools over stdio, for a desktop agent that starts the server itself. No
 * HTTP, so no keys and no rate limits (one local caller); the configuration, plugins, validation,
 * worker pool, answer cap, body cap and error bodies are the service's. stdout carries only the
 * protocol: log lines go to stderr.
 */
import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { configureWorkerPool, workerPool } from '@toolshed/plugin-sdk';
import { API_VERSION, dispatchLimits } from '../kernel/app.js';
import { EventLoopWatchdog } from '../kernel/watchdog.js';
import { createLogger, flushPeriodically, type Logger } from '../kernel/logger.js';
import { LogDestination } from '../kernel/log-destination.js';
import { checkedAnswerSize, runOperation } from '../kernel/middleware/dispatch.js';
import { logFailure } from '../kernel/middleware/errors.js';
import { BODY_LIMIT } from '../kernel/middleware/body.js';
import type { Config } from '../kernel/config.js';
import type { Registry } from '../kernel/registry.js';
import { createToolServer } from './server.js';
import { LineTransport } from './stdio-transport.js';
import { buildToolCatalog } from './tools.js';

/** The connection as a handler's abort signal sees it: it closes when the client hangs up. */
class Connection extends EventEmitter {
  readonly writableFinished = false;
}

/**
 * Serves `registry`'s tools on `stdin`/`stdout` until the client closes stdin; resolves then, with
 * the plugins and the worker pool closed.
 */
export async function serveStdio(config: Config, registry: Registry, logger: Logger, stdin: Readable, stdout: Writable): Promise<void> {
  const { threads, memoryMb, maxQueue, idleMs, niceness } = config.workers;
  configureWorkerPool({ workers: threads, memoryMb, maxQueue, idleMs, niceness });
  for (const plugin of registry.plugins) await plugin.warm?.();
  const watchdog = new EventLoopWatchdog(config.watchdog.blockedMs, logger);
  const limits = dispatchLimits(config, registry, logger, watchdog);
  const connection = new Connection();
  const server = createToolServer(
    buildToolCatalog(registry),
    API_VERSION,
    async (registered, args) => {
      // No request bytes here: the arguments' JSON size decides the pool, as a body's would.
      const bytes = Buffer.from(JSON.stringify(args));
      const json = await runOperation(connection, registered, { bytes, parse: () => args }, limits);
      checkedAnswerSize(json, limits.maxAnswerBytes);
      return json;
    },
    (error, registered) => logFailure(logger, undefined, registered.operation.id, error),
  );
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // stdio's transport closes only when told to: the end of stdin is the client hanging up.
  stdin.once('end', () => void server.close());
  // A message is at most what the HTTP door takes as a body (10 MiB); a longer line is answered with an error, not the end.
  await server.connect(new LineTransport(stdin, stdout, BODY_LIMIT));
  logger.info({ tools: registry.operations.size }, 'serving MCP on stdio');
  logger.flush();
  const stopFlushing = flushPeriodically(logger, 1000);
  await closed;
  stopFlushing();
  watchdog.stop();
  connection.emit('close');
  await Promise.all([...registry.plugins.map(async (plugin) => plugin.close?.()), workerPool().close()]);
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
}

/** A logger writing to stderr (fd 2), whatever the level. */
export function stderrLogger(level: string): Logger {
  return createLogger(level, new LogDestination(2) as unknown as NodeJS.WritableStream);
}
