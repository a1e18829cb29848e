/** Starts the real service in-process on 127.0.0.1 with a test configuration. */
import { Writable } from 'node:stream';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { mergeConfig, validateCoreConfig } from '../../kernel/host/config.js';
import { createLogger } from '../../kernel/host/logger.js';
import type { RunningService } from '../../kernel/http/server.js';
import { buildToolshed, startToolshed } from '../../service/compose.js';
import { forget, reachable } from './inject.js';

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

type TestConfig = Record<string, unknown>;
type TestOptions = { builtinDir?: string; bodyLimit?: number };

/** What both kinds of test service are started from: the test base under `config`, and a log sink. */
function testStart(config: TestConfig, options: TestOptions) {
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
  const start = {
    config: validateCoreConfig(mergeConfig(base, config)),
    logger: createLogger('info', sink),
    builtinDir: options.builtinDir ?? externalPlugins,
    bodyLimit: options.bodyLimit,
  };
  return { start, logs };
}

/**
 * Starts a service listening on a real socket. `config` is merged over a test base: port 0, generous
 * rate limits, and only the fixture plugins unless `builtinDir` says otherwise.
 */
export async function startTestService(config: TestConfig = {}, options: TestOptions = {}): Promise<TestService> {
  const { start, logs } = testStart(config, options);
  const service = await startToolshed(start);
  return Object.assign(service, { logs });
}

/** A service composed as startTestService's is, answering in process: its `url` is for send() only. */
export type InProcessService = Omit<TestService, 'server'>;

/**
 * The same service without a socket (test/support/inject.ts): send(service.url, …) hands each request
 * to its request callback. For the tests whose subject is not the connection.
 */
export async function buildTestService(config: TestConfig = {}, options: TestOptions = {}): Promise<InProcessService> {
  const { start, logs } = testStart(config, options);
  const built = await buildToolshed(start);
  const url = reachable(built.callback);
  const warmedUp = built.begin();
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    forget(url);
    built.drain();
    return (stopping ??= built.close());
  };
  return { registry: built.registry, host: built.host, bodies: built.bodies, url, warmedUp, stop, logs };
}

/** A `start(config)` for a test file: each service it starts is stopped after the file's tests. */
export function serviceStarter(): (config?: TestConfig, options?: TestOptions) => Promise<TestService> {
  return stoppedAfter(startTestService);
}

/** serviceStarter's in-process twin: services without a socket, each stopped after the file's tests. */
export function inProcessStarter(): (config?: TestConfig, options?: TestOptions) => Promise<InProcessService> {
  return stoppedAfter(buildTestService);
}

function stoppedAfter<S extends { stop(): Promise<void> }>(build: (config: TestConfig, options: TestOptions) => Promise<S>): (config?: TestConfig, options?: TestOptions) => Promise<S> {
  const services: S[] = [];
  after(() => Promise.all(services.map((service) => service.stop())));
  return async (config = {}, options = {}) => {
    const service = await build(config, options);
    services.push(service);
    return service;
  };
}
