/**
 * `toolshed mcp`: the same tools over stdio, for a desktop agent that starts the server itself. No
 * HTTP, so no keys and no rate limits (one local caller); the configuration, plugins, validation,
 * worker pool, answer cap, body cap and error bodies are the service's. stdout carries only the
 * protocol: log lines go to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { API_VERSION, answerText, createLogger, flushPeriodically, type Host, LogDestination, logFailure, type Logger } from '../kernel/host/index.js';
import { createToolServer } from './server.js';
import { LineTransport } from './stdio-transport.js';
import { buildToolCatalog } from './tools.js';

/**
 * Serves the host's tools on `stdin`/`stdout` until the client closes stdin; resolves then, with
 * the host (its plugins and worker pool) closed.
 */
export async function serveStdio(host: Host, stdin: Readable, stdout: Writable): Promise<void> {
  const { executor, logger } = host;
  // Aborted when the client hangs up: the handlers of calls still running stop.
  const connection = new AbortController();
  // One local caller: nothing to charge, gone when it hangs up.
  const caller = { gone: () => connection.signal, charge: () => Promise.resolve() };
  const server = createToolServer(
    buildToolCatalog(executor.operations()),
    API_VERSION,
    async (operation, args) => answerText(await executor.run({ operation, body: args, caller })),
    (error, operation) => logFailure(logger, undefined, operation.id, error),
  );
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  // stdio's transport closes only when told to: the end of stdin is the client hanging up.
  stdin.once('end', () => void server.close());
  // A message is at most what the HTTP door takes as a body (10 MiB); a longer line is answered with an error, not the end.
  await server.connect(new LineTransport(stdin, stdout, host.bodyLimit));
  logger.info({ tools: executor.operations().length }, 'serving MCP on stdio');
  logger.flush();
  const stopFlushing = flushPeriodically(logger, 1000);
  await closed;
  stopFlushing();
  connection.abort();
  await host.close();
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
}

/** A logger writing to stderr (fd 2), whatever the level. */
export function stderrLogger(level: string): Logger {
  return createLogger(level, new LogDestination(2) as unknown as NodeJS.WritableStream);
}
