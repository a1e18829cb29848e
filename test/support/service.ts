/** Starts the real service in-process on 127.0.0.1 with a test configuration. */
import { Writable } from 'node:stream';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mergeConfig, validateCoreConfig } from '../../kernel/host/config.js';
import { createLogger } from '../../kernel/host/logger.js';
import type { RunningService } from '../../kernel/http/server.js';
import { startToolshed } from '../../service/compose.js';

/** The compiled tests live in dist/test; fixtures stay in the source tree. */
export const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

/**
 * The variables Node itself adds to a child process's environment, whatever environment it is
 * given: NODE_V8_COVERAGE while coverage is collected (c8 under `npm test`), so that the child's
 * coverage is collected too. A contained plugin's processes get it then; nothing else.
 */
export const NODE_ADDS: readonly string[] = process.env.NODE_V8_COVERAGE === undefined ? [] : ['NODE_V8_COVERAGE'];

/** A /proc/<pid>/environ text without the entries of {@link NODE_ADDS}. */
export const withoutNodeAdds = (environ: string): string =>
  environ
    .split('\0')
    .filter((entry) => !NODE_ADDS.some((name) => entry.startsWith(`${name}=`)))
    .join('\0');
export const externalPlugins = `${fixtures}external-plugins`;

export interface TestService extends RunningService {
  /** Every log line written so far. */
  readonly logs: string[];
}

/**
 * Starts a service. `config` is merged over a test base: port 0, generous rate limits, and only the
 * fixture plugins unless `builtinDir` says otherwise.
 */
export async function startTestService(
  config: Record<string, unknown> = {},
  options: { builtinDir?: string; bodyLimit?: number } = {},
): Promise<TestService> {
  // Pool threads at normal priority: other test files run beside this one, and a niced pool would
  // make the tests' job budgets depend on how busy the machine is. No warm-up: tests count pool
  // workers, log lines and blocks, and the warm-up's own test (warm-up.test.ts) turns it on.
  const base = { server: { host: '127.0.0.1', port: 0 }, rateLimit: { anonymous: { max: 10_000 }, apiKey: { max: 10_000 } }, workers: { niceness: 0 }, operations: { warmUp: false } };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const service = await startToolshed({
    config: validateCoreConfig(mergeConfig(base, config)),
    logger: createLogger('info', sink),
    builtinDir: options.builtinDir ?? externalPlugins,
    bodyLimit: options.bodyLimit,
  });
  return Object.assign(service, { logs });
}

/** A `start(config)` for a test file: each service it starts is stopped after the file's tests. */
export function serviceStarter(): (config?: Record<string, unknown>) => Promise<TestService> {
  const services: TestService[] = [];
  after(() => Promise.all(services.map((service) => service.stop())));
  return async (config = {}) => {
    const service = await startTestService(config);
    services.push(service);
    return service;
  };
}
