/**
 * Each contained plugin's own share of worker threads: a pool per group, apart from the built-ins'
 * pool (`workers.*`), so a plugin that loops fills its own threads and queue and no one else's. Its
 * threads import only that plugin (kernel/host/offload.ts), and the built-ins' threads never import it.
 * Its threads see only the environment variables the operator lists for the group.
 */
import type { Config } from './config.js';
import { WorkerPool, type WorkerPoolStats } from './pool/worker-pool.js';

/** The size of a group's share: `plugins.limits.<group>`, else `plugins.workers`. */
export function shareOf(config: Config, group: string): { threads: number; maxQueue: number } {
  const own = config.plugins.limits[group];
  return { threads: own?.threads ?? config.plugins.workers.threads, maxQueue: own?.maxQueue ?? config.plugins.workers.maxQueue };
}

/**
 * The environment a group's threads see: the variables `plugins.env.<group>` names, with the values
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

/** The pools of the contained groups, made when the host opens and ended when it closes. */
export class PluginWorkers {
  private readonly pools = new Map<string, WorkerPool>();

  /** `groups`: the contained plugins' groups; `service`: the environment to copy the listed variables from. */
  constructor(config: Config, groups: readonly string[], service: NodeJS.ProcessEnv = process.env) {
    const { memoryMb, idleMs, niceness } = config.workers;
    for (const group of groups) {
      const { threads, maxQueue } = shareOf(config, group);
      this.pools.set(group, new WorkerPool({ workers: threads, maxQueue, memoryMb, idleMs, niceness, env: environmentOf(config, group, service) }));
    }
  }

  /** The pool of contained group `group`; throws for any other group (a built-in never runs here). */
  pool(group: string): WorkerPool {
    const pool = this.pools.get(group);
    if (pool === undefined) throw new Error(`${group} is not a contained plugin`);
    return pool;
  }

  /** Each contained group's pool counters. */
  stats(): ReadonlyMap<string, WorkerPoolStats> {
    return new Map([...this.pools].map(([group, pool]) => [group, pool.stats()]));
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
  }
}
