/**
 * Every contained plugin's processes (plugin-share.ts for one plugin), owned by the host: made when
 * it opens, ended when it closes. The executor hands a contained operation's checked body to
 * `run()` and gets the answer's bytes back unchecked: it parses and checks them itself, outside the
 * plugin's reach. The watch is here too: every {@link WATCH_MS} each process's resident memory is
 * read from the system (one over its cap is ended), and each idle one's CPU time (one still
 * computing past its last request's deadline is ended).
 */
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { launchOf, type Grants } from './launch.js';
import { WATCH_MS } from './plugin-process.js';
import { PluginShare, type ShareRunOptions, type ShareStats } from './plugin-share.js';

/** The size of a group's share: `plugins.limits.<group>`, each key left out taken from `plugins.workers`. */
export function shareOf(config: Config, group: string): { processes: number; pipeline: number; maxQueue: number; memoryMb: number; rssMb: number } {
  const own = config.plugins.limits[group];
  const all = config.plugins.workers;
  return {
    processes: own?.processes ?? all.processes,
    pipeline: own?.pipeline ?? all.pipeline,
    maxQueue: own?.maxQueue ?? all.maxQueue,
    memoryMb: own?.memoryMb ?? all.memoryMb,
    rssMb: own?.rssMb ?? all.rssMb,
  };
}

/**
 * The environment a group's processes see: the variables `plugins.env.<group>` names, with the values
 * the service has; names the service does not have are left out. Nothing else, not even PATH.
 */
export function environmentOf(config: Config, group: string, service: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of config.plugins.env[group] ?? []) {
    const value = service[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** A contained plugin as the host runs it: its group, what its processes import, its configuration section. */
export interface ContainedPlugin {
  readonly group: string;
  readonly specifier: string;
  readonly config: unknown;
}

export class PluginProcesses {
  private readonly shares = new Map<string, PluginShare>();
  private readonly watch: NodeJS.Timeout | undefined;

  /** `service`: the environment the listed variables are copied from. */
  constructor(config: Config, plugins: readonly ContainedPlugin[], logger: Logger, service: NodeJS.ProcessEnv = process.env) {
    for (const { group, specifier, config: section } of plugins) {
      const { processes, pipeline, maxQueue, memoryMb, rssMb } = shareOf(config, group);
      const grants: Grants = config.plugins.grants[group] ?? {};
      const launch = launchOf('serve', specifier, { grants, heapMb: memoryMb, env: environmentOf(config, group, service), user: config.plugins.user });
      if (launch.kept !== undefined) logger.warn({ plugin: group, reason: launch.kept }, 'plugin processes run as the service\'s user (root)');
      // The id `auto` picked is the one a folder of a write grant must be writable by.
      else if (launch.user !== undefined) logger.info({ plugin: group, uid: launch.user.uid, gid: launch.user.gid }, 'plugin processes run as another user');
      const { idleMs, niceness } = config.workers;
      const quietMs = config.operations.groupDeadlineMs[group] ?? config.operations.deadlineMs;
      this.shares.set(group, new PluginShare({ group, processes, pipeline, maxQueue, rssMb, idleMs, quietMs, niceness, maxAnswerBytes: config.server.maxAnswerBytes, config: section, launch, logger }));
    }
    if (this.shares.size > 0) {
      let last = performance.now();
      this.watch = setInterval(() => {
        const now = performance.now();
        for (const share of this.shares.values()) share.watch(now - last);
        last = now;
      }, WATCH_MS);
      this.watch.unref();
    }
  }

  /**
   * Runs operation `operation` of contained group `group` on `body` (JSON the host checked, with
   * defaults filled) and resolves to the JSON bytes the plugin answered, unchecked. Rejects with the
   * plugin's refusal rebuilt as an SDK error, 503 `server_busy` when its share is full, 502
   * `plugin_crashed` when its process ended first, 503 `plugin_unavailable` while it keeps failing,
   * 504 `operation_timeout` past the deadline.
   */
  run(group: string, operation: string, body: Uint8Array, options: ShareRunOptions): Promise<Uint8Array> {
    const share = this.shares.get(group);
    if (share === undefined) return Promise.reject(new Error(`${group} is not a contained plugin`));
    return share.run(operation, body, options);
  }

  /** Each contained group's counters. */
  stats(): ReadonlyMap<string, ShareStats> {
    return new Map([...this.shares].map(([group, share]) => [group, share.stats()]));
  }

  /** Runs `check` (a check of one of `group`'s answers on the host's pool) within the group's share of such checks. */
  checkAnswer<T>(group: string, check: () => Promise<T>): Promise<T> {
    const share = this.shares.get(group);
    return share === undefined ? check() : share.answerChecks.run(check);
  }

  /** The share's sizing of `group`: processes, queue, caps (for log lines and /metrics). */
  sizing(group: string): { processes: number; maxQueue: number; rssMb: number } | undefined {
    return this.shares.get(group)?.options;
  }

  async close(): Promise<void> {
    clearInterval(this.watch);
    await Promise.all([...this.shares.values()].map((share) => share.close()));
  }
}
