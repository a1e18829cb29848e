/**
 * The warm-up after `listening`: one pool worker is started in the background, so that the first
 * request that needs the pool does not wait for a thread to boot (a kept target of `npm run bench`).
 * Nothing else is run ahead of time: no examples, no JIT priming.
 */
import type { Logger } from './logger.js';
import type { WorkerPool } from './pool/worker-pool.js';

const offloadModule = new URL('./offload.js', import.meta.url);

/** Starts one worker of `pool` and logs one line once it is up (or why it is not). */
export async function startWarmUp(pool: WorkerPool, logger: Logger): Promise<void> {
  const started = performance.now();
  try {
    await pool.run<boolean>(offloadModule, 'ready', [], { deadlineMs: 30_000 });
    logger.info({ ms: Math.round(performance.now() - started) }, 'pool worker started');
  } catch (error) {
    logger.warn({ error: error instanceof Error ? error.name : typeof error }, 'pool worker did not start');
  }
}
