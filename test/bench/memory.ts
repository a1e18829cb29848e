/**
 * Scenario (e): resident memory. Idle RSS of a fresh Toolshed with every group loaded against a
 * fresh bare Koa; then Toolshed under keyed load (base64 and hash, small bodies) for the issue's
 * 60 s, and how close its RSS comes back to idle within the settle time.
 */
import autocannon from 'autocannon';
import { startServer, type Placement, type ServerProcess } from './processes.js';
import { formatMib, formatNumber, formatRatio, ratio, renderTable, type Target } from './report.js';
import type { LoadCase } from './throughput.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Time a fresh server is left alone, once its start-up work is done (Toolshed's warm-up in the
 * background and the young-generation trim after it), before its idle RSS is read.
 */
const IDLE_WAIT_MS = 2000;

export interface MemoryResult {
  readonly title: string;
  readonly idleBytes: Record<'toolshed' | 'koa', number>;
  readonly endOfLoadBytes: number;
  readonly afterBytes: number;
  readonly settledSeconds: number;
  readonly table: string;
  readonly targets: Target[];
}

/** Polls the RSS every second until it is within `goalBytes` or `maxSeconds` have passed. */
async function settle(server: ServerProcess, goalBytes: number, maxSeconds: number): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  let bytes = (await server.usage()).rssBytes;
  while (bytes > goalBytes && performance.now() - started < maxSeconds * 1000) {
    await sleep(1000);
    bytes = (await server.usage()).rssBytes;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

export async function runMemoryScenario(
  title: string,
  placement: Placement,
  env: Record<string, string>,
  keyedCases: readonly LoadCase[],
  loadSeconds: number,
  settleSeconds: number,
): Promise<MemoryResult> {
  const [toolshed, koa] = await Promise.all([startServer('toolshed', placement, env), startServer('koa', placement, env)]);
  try {
    await Promise.all([toolshed.warmedUp(), koa.warmedUp()]);
    await sleep(IDLE_WAIT_MS);
    const idleBytes = { toolshed: (await toolshed.usage()).rssBytes, koa: (await koa.usage()).rssBytes };
    await koa.stop();
    const result = await autocannon({
      url: toolshed.base,
      connections: keyedCases[0]?.connections ?? 32,
      duration: loadSeconds,
      // autocannon sends the list in turn on each connection: base64, hash, base64, …
      requests: keyedCases.map((loadCase) => ({ method: 'POST' as const, path: loadCase.path, headers: { 'content-type': 'application/json', ...loadCase.headers }, body: loadCase.body })),
    });
    const endOfLoadBytes = (await toolshed.usage()).rssBytes;
    const goal = idleBytes.toolshed * 1.15;
    const after = await settle(toolshed, goal, settleSeconds);
    const table = renderTable(
      ['RSS', 'Toolshed', 'bare Koa', 'Toolshed / Koa'],
      [
        ['idle, fresh start', formatMib(idleBytes.toolshed), formatMib(idleBytes.koa), formatRatio(ratio(idleBytes.toolshed, idleBytes.koa))],
        [`end of ${loadSeconds} s keyed load (${formatNumber(result.requests.total / result.duration)} req/s, ${result.non2xx + result.errors} failed)`, formatMib(endOfLoadBytes), '', ''],
        [`after the load (waited ${formatNumber(after.seconds, 0)} s of at most ${settleSeconds})`, formatMib(after.bytes), '', ''],
      ],
    );
    const targets: Target[] = [
      { scenario: title, name: 'idle RSS, Toolshed / bare Koa', value: ratio(idleBytes.toolshed, idleBytes.koa), comparison: '<=', goal: 1.4 },
      { scenario: title, name: `RSS after ${loadSeconds} s of keyed load / idle RSS`, value: ratio(after.bytes, idleBytes.toolshed), comparison: '<=', goal: 1.15 },
    ];
    return { title, idleBytes, endOfLoadBytes, afterBytes: after.bytes, settledSeconds: after.seconds, table, targets };
  } finally {
    await Promise.all([toolshed.stop(), koa.stop()]);
  }
}
