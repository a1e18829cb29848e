// The service under test, started the way service/main.ts starts it: config/default.yaml (every
// plugin, log level info, lines to stdout in 64 KiB chunks flushed every second), with one API key
// (its SHA-256 digest from BENCH_KEY_SHA256, as kernel/http/api-keys.ts stores keys) and rate limits
// raised so that the benchmark measures the work of checking them and never a 429. The load comes
// from one loopback address standing for many clients, so that address's shares of the reading and
// sending budgets are the whole budgets (four 9 MiB bodies at once would pass the default 32 MiB
// share, three 12 MiB Base64 answers not yet sent would too).
// TOOLSHED_CONFIG is not read: every run measures the same configuration. Scenario (f) adds plugin folders
// (BENCH_PLUGIN_DIRS), the groups it trusts (BENCH_TRUSTED), both comma-separated, and the queue of
// each contained plugin's share (BENCH_PLUGIN_QUEUE), so that its load stays within the share.
import { loadConfig, mergeConfig, validateCoreConfig } from '../../kernel/host/config.js';
import { createLogger, flushPeriodically } from '../../kernel/host/logger.js';
import { readProcStat } from '../../kernel/host/proc-stat.js';
import { startToolshed } from '../../service/compose.js';
import { announce } from './child-ipc.js';

const defaultsFile = new URL('../../../config/default.yaml', import.meta.url);
const digest = process.env.BENCH_KEY_SHA256;
const never = 1_000_000_000;
const list = (value: string | undefined): string[] => (value === undefined || value === '' ? [] : value.split(','));
const loaded = await loadConfig({ PORT: '0', HOST: '127.0.0.1' }, defaultsFile);
const config = validateCoreConfig(
  mergeConfig(loaded, {
    auth: { apiKeys: digest === undefined ? [] : [{ name: 'bench', sha256: digest }] },
    rateLimit: { anonymous: { max: never }, apiKey: { max: never } },
    server: { readingBytesPerClient: loaded.server.readingBytes, sendingBytesPerClient: loaded.server.sendingBytes },
    plugins: {
      dirs: list(process.env.BENCH_PLUGIN_DIRS),
      trusted: list(process.env.BENCH_TRUSTED),
      ...(process.env.BENCH_PLUGIN_QUEUE === undefined ? {} : { workers: { maxQueue: Number(process.env.BENCH_PLUGIN_QUEUE) } }),
    },
  }),
);
const logger = createLogger(config.log.level);
const service = await startToolshed({ config, logger });
flushPeriodically(logger, 1000);
/**
 * CPU time of the contained plugins' live processes in µs, from /proc (clock ticks of 10 ms, as on
 * Linux's usual CONFIG_HZ user clock). A process ended meanwhile takes its time with it; the
 * idle end (`workers.idleMs`) is far longer than the pause between rounds, so none ends in a run.
 */
function pluginCpuUs(): number {
  let ms = 0;
  for (const share of service.host.pluginProcesses.stats().values()) {
    // Gone meanwhile: its time is lost, as the comment above says.
    for (const pid of share.pids) ms += readProcStat(pid)?.cpuMs ?? 0;
  }
  return ms * 1000;
}

// The pool's live workers, as `toolshed_worker_pool_threads` reads them (scenario (d) counts them around the first pool call).
announce(Number(new URL(service.url).port), service.warmedUp, () => service.host.poolStats().workers, pluginCpuUs);
