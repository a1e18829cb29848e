/**
 * The memory a Toolshed container needs, from its configuration, as docs/deployment.md ("Container
 * image") sizes it: the main process (192 MiB allowed), each worker thread's heap cap and young
 * generation (V8's own limit, YOUNG_GENERATION_MB), and the two byte budgets. compose.yaml's and the Kubernetes Deployment's limits are checked against it.
 * A contained plugin would add its processes × rssMb; the configurations checked load none, and a
 * configuration that loads plugins from folders or packages is refused here rather than undercounted.
 */
import type { Config } from '../../kernel/host/config.js';
import { YOUNG_GENERATION_MB } from '../../kernel/host/pool/worker-pool.js';

const MiB = 1024 * 1024;

export function memoryBudgetBytes(config: Config): number {
  if (config.plugins.dirs.length > 0 || config.plugins.packages.length > 0) throw new Error('This budget counts no contained plugin: add each one\'s processes × rssMb');
  const { threads, memoryMb } = config.workers;
  return 192 * MiB + threads * (memoryMb + YOUNG_GENERATION_MB) * MiB + config.server.readingBytes + config.server.sendingBytes;
}

/** A Kubernetes quantity (`1Gi`, `512Mi`) or a compose size (`1g`, `256m`) in bytes. */
export function sizeBytes(size: string): number {
  const match = /^(\d+)(Ki|Mi|Gi|k|m|g)?b?$/i.exec(size);
  if (!match) throw new Error(`not a size: ${size}`);
  const unit = (match[2] ?? '').toLowerCase().replace('i', '');
  return Number(match[1]) * ({ '': 1, k: 1024, m: MiB, g: 1024 * MiB } as Record<string, number>)[unit]!;
}
