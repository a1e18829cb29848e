/**
 * Scenario (e): idle resident memory of a fresh Toolshed with every group enabled (a built-in's
 * module is imported on its first call, and none was called) beside a fresh bare Koa, both started
 * with the same launch line. A measurement without a target: issue 38
 * withdrew the idle-RSS and after-load targets, and the loadtest holds the memory targets kept
 * (RSS peak, soak growth). It stays because it is cheap (two starts, one reading each).
 */
import { startServer, type Placement } from './processes.js';
import { formatMib, formatRatio, ratio, renderTable, type Target } from './report.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Time a fresh server is left alone, once its start-up work is done (Toolshed's warm-up in the background), before its idle RSS is read. */
const IDLE_WAIT_MS = 2000;

export interface MemoryResult {
  readonly title: string;
  readonly idleBytes: Record<'toolshed' | 'koa', number>;
  readonly table: string;
  readonly targets: Target[];
}

export async function runMemoryScenario(title: string, placement: Placement, env: Record<string, string>): Promise<MemoryResult> {
  const [toolshed, koa] = await Promise.all([startServer('toolshed', placement, env), startServer('koa', placement, env)]);
  try {
    await Promise.all([toolshed.warmedUp(), koa.warmedUp()]);
    await sleep(IDLE_WAIT_MS);
    const idleBytes = { toolshed: (await toolshed.usage()).rssBytes, koa: (await koa.usage()).rssBytes };
    const table = renderTable(
      ['RSS, idle after a fresh start (no target)', 'Toolshed', 'bare Koa', 'Toolshed / Koa'],
      [['every group enabled, none called, one pool worker', formatMib(idleBytes.toolshed), formatMib(idleBytes.koa), formatRatio(ratio(idleBytes.toolshed, idleBytes.koa))]],
    );
    return { title, idleBytes, table, targets: [] };
  } finally {
    await Promise.all([toolshed.stop(), koa.stop()]);
  }
}
