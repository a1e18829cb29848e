/**
 * Scenario (d): cold start, from spawning the process to the first /healthz answer, Toolshed with
 * every group against bare Koa (median of several interleaved starts); and, after each fresh
 * Toolshed start, whether a pool operation's first call boots a worker on the request path:
 * the pool's live workers are counted right before and right after that call (an outcome, not a
 * time: kernel/host/warm-up.ts starts one worker in the background, so the call should find it alive).
 */
import { send } from '../support/http.js';
import { startServer, type Placement, type ServerKind, type ServerProcess } from './processes.js';
import { formatNumber, formatRatio, median, ratio, renderTable, type Target } from './report.js';
import { HEALTH_PATH } from './reference-work.js';

/** The pool operation called first: regex-tester/test runs every job on the pool (context.runInWorker). */
export const POOL_CALL = { id: 'regex-tester.test', path: '/v1/regex-tester/test', body: JSON.stringify({ pattern: '(\\d{4})-(\\d{2})', text: 'from 2024-05 to 2025-01' }) };

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Spawn to first /healthz answer, in ms; the server is handed to `after` before it is stopped. */
async function coldStart(kind: ServerKind, placement: Placement, env: Record<string, string>, after?: (server: ServerProcess) => Promise<void>): Promise<number> {
  const { value: server, ms } = await timed(async () => {
    const started = await startServer(kind, placement, env);
    const health = await send(started.base, HEALTH_PATH, { method: 'GET' });
    if (health.status !== 200) throw new Error(`${started.name} answered /healthz with ${health.status}`);
    return started;
  });
  try {
    await after?.(server);
  } finally {
    await server.stop();
  }
  return ms;
}

/** The first pool call after one fresh start. */
export interface FirstPoolCall {
  /** From the first /healthz answer until the background warm-up said it was done; no target. */
  readonly warmUpMs: number;
  /** Pool workers alive right before the call, and right after its answer. */
  readonly threadsBefore: number;
  readonly threadsAfter: number;
  /** The call's latency; no target (a time on a busy machine says little). */
  readonly callMs: number;
}

/**
 * Workers booted by the first pool call, the most over the starts sampled: the kept target is 0.
 * NaN (measured nothing, so met by nothing) when no start was sampled, or when a call left no
 * worker alive: it did not run on the pool, and a call that needs no worker proves nothing.
 */
export function workersBooted(calls: readonly FirstPoolCall[]): number {
  if (calls.length === 0 || calls.some((call) => !(call.threadsAfter >= 1))) return Number.NaN;
  return Math.max(...calls.map((call) => call.threadsAfter - call.threadsBefore));
}

async function firstPoolCall(server: ServerProcess): Promise<FirstPoolCall> {
  const { ms: warmUpMs } = await timed(() => server.warmedUp());
  const threadsBefore = (await server.usage()).poolThreads ?? Number.NaN;
  const { value: answer, ms: callMs } = await timed(() => send(server.base, POOL_CALL.path, { body: POOL_CALL.body, headers: { 'Content-Type': 'application/json' } }));
  if (answer.status !== 200) throw new Error(`${POOL_CALL.id} answered with ${answer.status}: ${answer.text.slice(0, 200)}`);
  const threadsAfter = (await server.usage()).poolThreads ?? Number.NaN;
  return { warmUpMs, threadsBefore, threadsAfter, callMs };
}

export interface StartupResult {
  readonly title: string;
  readonly coldStartMs: Record<'toolshed' | 'koa', number[]>;
  readonly firstPoolCalls: FirstPoolCall[];
  readonly table: string;
  readonly targets: Target[];
}

export async function runStartupScenario(title: string, placement: Placement, env: Record<string, string>, starts: number): Promise<StartupResult> {
  const coldStartMs: Record<'toolshed' | 'koa', number[]> = { toolshed: [], koa: [] };
  const firstPoolCalls: FirstPoolCall[] = [];
  const sample = async (server: ServerProcess): Promise<void> => {
    firstPoolCalls.push(await firstPoolCall(server));
  };
  for (let start = 0; start < starts; start++) {
    // Alternate which server starts first, so neither always finds the file cache warmed by the other.
    const order: ('toolshed' | 'koa')[] = start % 2 === 0 ? ['toolshed', 'koa'] : ['koa', 'toolshed'];
    for (const kind of order) coldStartMs[kind].push(await coldStart(kind, placement, env, kind === 'toolshed' ? sample : undefined));
  }
  const toolshed = median(coldStartMs.toolshed);
  const koa = median(coldStartMs.koa);
  const booted = workersBooted(firstPoolCalls);
  const table = [
    renderTable(
      ['cold start to first /healthz', 'median ms', 'runs (ms)'],
      [
        ['Toolshed, every group', formatNumber(toolshed), coldStartMs.toolshed.map((ms) => formatNumber(ms)).join(' ')],
        ['bare Koa', formatNumber(koa), coldStartMs.koa.map((ms) => formatNumber(ms)).join(' ')],
        ['Toolshed / bare Koa', formatRatio(ratio(toolshed, koa)), ''],
      ],
    ),
    '',
    renderTable(
      [`first pool call (${POOL_CALL.id}) after a fresh start`, 'workers before', 'after', 'warm-up done ms after /healthz (no target)', 'call ms (no target)'],
      firstPoolCalls.map((call, index) => [`start ${index + 1}`, String(call.threadsBefore), String(call.threadsAfter), formatNumber(call.warmUpMs), formatNumber(call.callMs, 1)]),
    ),
  ];
  const targets: Target[] = [
    { scenario: title, name: 'cold start, Toolshed / bare Koa', value: ratio(toolshed, koa), comparison: '<=', goal: 1.64 },
    { scenario: title, name: `pool workers booted by a pool operation's first call, most over ${firstPoolCalls.length} fresh starts`, value: booted, comparison: '<=', goal: 0, unit: '', digits: 0 },
  ];
  return { title, coldStartMs, firstPoolCalls, table: table.join('\n'), targets };
}
