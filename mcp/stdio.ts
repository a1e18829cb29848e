/**
 * `toolshed mcp`: the same tools over stdio, for a desktop agent that starts the server itself. No
 * HTTP, so no keys and no rate limits (one local caller); the configuration, plugins, validation,
 * worker pool, answer cap, body cap and error bodies are the service's, and each line is answered
 * by the one MCP server the HTTP door uses (mcp/dispatch.ts). stdout carries only the protocol:
 * log lines go to stderr.
 */
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { API_VERSION, createLogger, flushPeriodically, LogDestination, logFailure, type Host, type Logger } from '../kernel/host/index.js';
import { createMcpServer } from './dispatch.js';
import { errorResponse } from './results.js';
import { LineTransport } from './stdio-transport.js';
import { buildToolCatalog } from './tools.js';

/** JSON-RPC's code for an error of the server's own: a line it could not read for want of a worker, say. */
const INTERNAL_ERROR = -32603;

/**
 * Serves the host's tools on `stdin`/`stdout` until the client closes stdin; resolves then, with
 * the host (its plugins and worker pool) closed.
 */
export async function serveStdio(host: Host, stdin: Readable, stdout: Writable): Promise<void> {
  const { executor, logger, config } = host;
  // Aborted when the client hangs up: the handlers of calls still running stop.
  const connection = new AbortController();
  const handle = createMcpServer({
    executor,
    catalog: buildToolCatalog(executor.operations()),
    version: API_VERSION,
    runInWorker: host.runInWorker,
    offloadBytes: config.workers.offloadBytes,
    requestBudgetMs: config.workers.requestBudgetMs,
    maxAnswerBytes: config.server.maxAnswerBytes,
    unit: 'line',
    logger,
  });
  const running = new Set<Promise<void>>();
  // One local caller: nothing to charge, gone when it hangs up.
  const scope = { caller: { gone: () => connection.signal, left: () => connection.signal.aborted, charge: () => Promise.resolve() } };
  /** Answers one line; a line that could not be read at all (the pool busy) gets a JSON-RPC error. */
  async function answer(line: Buffer): Promise<void> {
    try {
      const reply = await handle(line, scope);
      if (reply.body !== undefined) await transport.write(reply.body);
    } catch (error) {
      if (!isToolshedError(error)) logFailure(logger, undefined, undefined, error);
      await transport.write(errorResponse(null, INTERNAL_ERROR, isToolshedError(error) ? error.message : 'Internal error'));
    }
  }
  // A message is at most what the HTTP door takes as a body (10 MiB); a longer line is answered with an error, not the end.
  const transport = new LineTransport(stdin, stdout, host.bodyLimit, (line) => {
    const served = answer(line);
    running.add(served);
    void served.finally(() => running.delete(served));
  });
  // stdin may end before anything is read (a client that sends nothing): wait for it from the start.
  // A read error ends the session as the end of stdin does.
  const ended = Promise.race([once(stdin, 'end'), once(stdin, 'close')]).catch(() => undefined);
  transport.start();
  logger.info({ tools: executor.operations().length }, 'serving MCP on stdio');
  logger.flush();
  const stopFlushing = flushPeriodically(logger, 1000);
  await ended;
  // The client hung up: calls still running stop, and nothing more is written.
  connection.abort();
  await Promise.allSettled(running);
  transport.close();
  stopFlushing();
  await host.close();
  await new Promise<void>((resolve) => logger.flush(() => resolve()));
}

/** A logger writing to stderr (fd 2), whatever the level. */
export function stderrLogger(level: string): Logger {
  return createLogger(level, new LogDestination(2) as unknown as NodeJS.WritableStream);
}
