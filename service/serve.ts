/**
 * Serving: read config → start the service → log → stop gracefully on SIGTERM/SIGINT. Shared by
 * `npm start` (service/main.ts) and `toolshed serve` (cli/).
 */
import { createLogger, describeFailure, flushPeriodically, flushThenExit, loadForServing } from '../kernel/host/index.js';
import { startToolshed } from './compose.js';
import { extensions } from './extensions.js';
import { whenParentExits } from './parent-exit.js';

/**
 * Starts the service for `env` and resolves with 0 once it listens; from then on it owns the
 * process, which a signal ends (exit 0 after a graceful stop, 1 if the stop fails). When it cannot
 * start it says exactly why on `stderr` and ends the process with 1: what did start (a Redis client
 * retrying its connection, worker threads) would otherwise keep it alive. `plugins` are served
 * besides the configured ones (`toolshed plugin dev`; see loadPlugin in discover.ts).
 */
export async function serve(env: NodeJS.ProcessEnv, stderr: NodeJS.WritableStream, plugins: readonly string[] = []): Promise<number> {
  try {
    await startServing(env, plugins);
    return 0;
  } catch (error) {
    // Start-up failures (bad config, bad plugin) carry no request data: say exactly what is wrong.
    const text = `Toolshed could not start.\n${error instanceof Error ? error.message : String(error)}\n`;
    await new Promise<void>((resolve) => stderr.write(text, () => resolve()));
    process.exit(1);
  }
}

async function startServing(env: NodeJS.ProcessEnv, extra: readonly string[]): Promise<void> {
  // Before any plugin is imported (only modules loaded after this are mapped): a plugin that ships
  // source maps has its stacks in the log name its TypeScript lines, as under `plugin dev`. A
  // documented runtime switch, not engine tuning (docs/decisions.md); the pool's workers turn it
  // on for themselves (kernel/host/offload.ts).
  process.setSourceMapsEnabled(true);
  // The same check as `toolshed config check`: every problem at once, or none.
  const { config, plugins: inspected } = await loadForServing(env, undefined, extra, extensions);
  const logger = createLogger(config.log.level);
  const service = await startToolshed({ config, logger, inspected });
  const shutdown = (signal: string): void => {
    logger.info({ signal, drainDelayMs: config.server.drainDelayMs }, 'shutting down');
    // A second signal ends the drain delay at once (in-flight requests still finish); a third
    // finds no handler and ends the process as Node does by default.
    process.once('SIGTERM', hurry);
    process.once('SIGINT', hurry);
    service.stop().then(
      () => {
        logger.info('stopped');
        // The last lines are written before the exit; given up after 5 s only for a reader of
        // stdout that stopped reading (a write waiting for a busy machine's thread pool is not one).
        flushThenExit(logger, () => process.exit(0), 5000);
      },
      () => flushThenExit(logger, () => process.exit(1), 5000),
    );
  };
  const hurry = (signal: string): void => {
    process.removeListener('SIGTERM', hurry);
    process.removeListener('SIGINT', hurry);
    logger.info({ signal }, 'drain ended early');
    void service.stop();
  };
  // A promise a handler left to reject on its own belongs to no request: log it (type and stack
  // only, as for a 500) and keep serving everyone else instead of letting Node end the process.
  process.on('unhandledRejection', (reason: unknown) => logger.error({ error: describeFailure(reason) }, 'unhandled rejection'));
  const first = (signal: string): void => {
    process.removeListener('SIGTERM', first);
    process.removeListener('SIGINT', first);
    stopWatching();
    shutdown(signal);
  };
  process.once('SIGTERM', first);
  process.once('SIGINT', first);
  // `npx toolshed serve`: npm's SIGTERM ends the shell between npm and this process (parent-exit.ts).
  const stopWatching = whenParentExits(env, () => first('parent exited'));
  // Only now: whoever reads this line may signal at once, and until a listener is installed a
  // SIGTERM still has Node's default action (the process dies without draining).
  logger.info({ url: service.url, operations: service.registry.operations.size }, 'listening');
  // Log lines are written in 64 KiB chunks; flush at least every second so a quiet service still logs promptly.
  logger.flush();
  flushPeriodically(logger, 1000);
}
