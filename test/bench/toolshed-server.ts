// The full pipeline: the real service with every built-in plugin, access logging on, limits raised
// so the benchmark measures the work of checking them rather than 429s.
import { validateCoreConfig } from '../../kernel/config.js';
import { createLogger } from '../../kernel/logger.js';
import { startService } from '../../kernel/server.js';

const config = validateCoreConfig({
  server: { host: '127.0.0.1', port: 0 },
  rateLimit: { anonymous: { max: 1_000_000_000 } },
});
const service = await startService({ config, logger: createLogger('info') });
process.send?.(Number(new URL(service.url).port));
