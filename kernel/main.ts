/** The service's entry point: `node dist/kernel/main.js` (npm start). */
import { loadConfig } from './config.js';
import { createLogger, describeFailure, flushPeriodically } from './logger.js';
import { startService } from './server.js';

const defaultsFile = new URL('../../config/default.yaml', import.meta.url);

async function main(): Promise<void> {
  const config = await loadConfig(process.env, defaultsFile);
  const logger = createLogger(config.log.level);
  const service = await startService({ config, logger });
  logger.info({ url: service.url, operations: service.registry.operations.size }, 'listening');
  // Log lines are written in 4 KiB batches; flush at least every second so a quiet service still logs promptly.
  logger.flush();
  flushPeriodically(logger, 1000);
  const shutdown = (signal: string): void => {
    logger.info({ signal }, 'shutting down');
    service.stop().then(
      () => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  // A promise a handler left to reject on its own belongs to no request: log it (type and stack
  // only, as for a 500) and keep serving everyone else instead of letting Node end the process.
  process.on('unhandledRejection', (reason: unknown) => logger.error({ error: describeFailure(reason) }, 'unhandled rejection'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Start-up failures (bad config, bad plugin) carry no request data: say exactly what is wrong.
  process.stderr.write(`Toolshed could not start.\n${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
