/**
 * The service as a test fixture (`toolshed/testing`, package.json "exports"): the real service,
 * listening on 127.0.0.1 at a free port, serving just the plugins given. The SDK's
 * `startTestKernel()` imports this module at run time (the SDK may not import the kernel, which
 * depends on it), and `toolshed plugin check` and `plugin dev` start the service through it too.
 */
import { Writable } from 'node:stream';
import type { KernelFixture, KernelFixtureOptions } from '@toolshed/plugin-sdk';
import type { RunInWorker } from '@toolshed/plugin-sdk';
import { builtinPluginDir, checkCoreConfig, type Config, ConfigError, coreSections, createLogger, defaultsFile, mergeConfig, readConfig, WorkerPool } from '../kernel/host/index.js';
import { startToolshed } from './compose.js';

/**
 * The configuration a fixture runs with: the kernel's sections of config/default.yaml (plugin
 * sections belong to plugins that may not be loaded), rate limits a test suite does not reach,
 * `overrides` merged over that, and always 127.0.0.1 at a free port.
 */
export async function fixtureConfig(overrides: Readonly<Record<string, unknown>> = {}): Promise<Config> {
  const defaults = (await readConfig({}, defaultsFile)) as Record<string, unknown>;
  const core = Object.fromEntries(Object.entries(defaults).filter(([key]) => coreSections.has(key)));
  const generous = { rateLimit: { anonymous: { max: 1_000_000 }, apiKey: { max: 1_000_000 } } };
  const merged = mergeConfig(mergeConfig(mergeConfig(core, generous), overrides), { server: { host: '127.0.0.1', port: 0 } });
  const { config, problems } = checkCoreConfig(merged);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Starts the service for a test; see the SDK's `startTestKernel` for what each option means. */
export async function startKernel(options: KernelFixtureOptions): Promise<KernelFixture> {
  const config = await fixtureConfig(options.config);
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
      done();
    },
  });
  const service = await startToolshed({
    config,
    logger: createLogger(options.logLevel ?? 'info', sink),
    builtinDir: options.builtins === true ? builtinPluginDir : null,
    plugins: options.plugins.map((plugin) => (plugin instanceof URL ? plugin.href : plugin)),
  });
  return { url: service.url, logs: () => [...lines], stop: () => service.stop() };
}

let pool: WorkerPool | undefined;

/**
 * Worker threads like the host's, for the SDK's `invoke()` (its handlers' `context.runInWorker`):
 * one pool for the test process, sized as `workers.*` defaults, made on first use.
 */
export const runInWorker: RunInWorker = (module, exportName, args, options) =>
  (pool ??= new WorkerPool({ workers: 2, memoryMb: 256, maxQueue: 256, idleMs: 1000 })).run(module, exportName, args, options);
