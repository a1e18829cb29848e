/**
 * Scenario (d): cold start, from spawning the process to the first /healthz answer, Toolshed with
 * every group against bare Koa (median of several interleaved starts); then the latency of the
 * first call of every operation after a fresh start (median over those starts) against its hundredth.
 */
import { send } from '../support/http.js';
import { startServer, type Placement, type ServerKind, type ServerProcess } from './processes.js';
import { formatNumber, formatRatio, median, ratio, renderTable, type Target } from './report.js';
import { HEALTH_PATH } from './reference-work.js';

interface OpenApiDocument {
  paths: Record<string, { post?: { operationId: string; requestBody: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } }; responses: Record<string, unknown> } }>;
}

/** One call per operation: its first example, from the service's own OpenAPI document. */
export interface OperationCall {
  readonly id: string;
  readonly path: string;
  readonly body: string;
}

/** Every operation that needs no upstream (no 502 in its responses), with its first example as the call. */
async function operationCalls(base: string): Promise<OperationCall[]> {
  const document = (await send(base, '/v1/openapi.json', { method: 'GET' })).json as OpenApiDocument;
  const calls: OperationCall[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const post = item.post;
    if (post === undefined || post.responses['502'] !== undefined) continue;
    const example = Object.values(post.requestBody.content['application/json'].examples ?? {})[0];
    if (example !== undefined) calls.push({ id: post.operationId, path, body: JSON.stringify(example.value) });
  }
  return calls;
}

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

export interface FirstCall {
  readonly id: string;
  /** The first call's latency after a fresh start: the median over the fresh starts sampled. */
  readonly firstMs: number;
  readonly nthMs: number;
}

/** Calls every operation once, in turn, each on a new connection; latency in ms by operation id. */
async function callEach(server: ServerProcess, calls: readonly OperationCall[]): Promise<Map<string, number>> {
  const latencies = new Map<string, number>();
  for (const call of calls) {
    const { value: answer, ms } = await timed(() => send(server.base, call.path, { body: call.body, headers: { 'Content-Type': 'application/json' } }));
    if (answer.status !== 200) throw new Error(`${call.id} answered its example with ${answer.status}: ${answer.text.slice(0, 200)}`);
    latencies.set(call.id, ms);
  }
  return latencies;
}

export interface StartupResult {
  readonly title: string;
  readonly coldStartMs: Record<'toolshed' | 'koa', number[]>;
  readonly firstCalls: FirstCall[];
  readonly table: string;
  readonly targets: Target[];
}

export async function runStartupScenario(title: string, placement: Placement, env: Record<string, string>, starts: number, nth: number): Promise<StartupResult> {
  const coldStartMs: Record<'toolshed' | 'koa', number[]> = { toolshed: [], koa: [] };
  let calls: OperationCall[] = [];
  // A first call is one sample on a busy machine: every fresh start but the first adds one.
  const firstSamples = new Map<string, number[]>();
  const sampleFirstCalls = async (server: ServerProcess): Promise<void> => {
    for (const [id, ms] of await callEach(server, calls)) firstSamples.set(id, [...(firstSamples.get(id) ?? []), ms]);
  };
  for (let start = 0; start < starts; start++) {
    // Alternate which server starts first, so neither always finds the file cache warmed by the other.
    const order: ('toolshed' | 'koa')[] = start % 2 === 0 ? ['toolshed', 'koa'] : ['koa', 'toolshed'];
    for (const kind of order) {
      // After the timing: the first start lists the operations (a request that warms the kernel), the others call each once.
      // First calls are sampled once the service's background warm-up (kernel/warm-up.ts) is done.
      const afterwards = async (server: ServerProcess): Promise<void> => {
        await server.warmedUp();
        if (start === 0) calls = await operationCalls(server.base);
        else await sampleFirstCalls(server);
      };
      coldStartMs[kind].push(await coldStart(kind, placement, env, kind === 'toolshed' ? afterwards : undefined));
    }
  }
  // One more fresh start: the first calls once more, then in turns (every operation once per turn) up to call `nth`.
  let nthCalls = new Map<string, number>();
  await coldStart('toolshed', placement, env, async (server) => {
    await server.warmedUp();
    await sampleFirstCalls(server);
    for (let turn = 2; turn <= nth; turn++) nthCalls = await callEach(server, calls);
  });
  const firstCalls: FirstCall[] = calls.map(({ id }) => ({ id, firstMs: median(firstSamples.get(id) ?? [Number.NaN]), nthMs: nthCalls.get(id) ?? Number.NaN }));

  const toolshed = median(coldStartMs.toolshed);
  const koa = median(coldStartMs.koa);
  const worst = [...firstCalls].sort((a, b) => b.firstMs - b.nthMs - (a.firstMs - a.nthMs));
  const slowest = worst[0];
  const lines = [
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
      [`first call (median of ${starts} fresh starts) vs call ${nth}, worst 5 of ${firstCalls.length} operations`, 'first ms', `call ${nth} ms`, 'difference ms'],
      worst.slice(0, 5).map((call) => [call.id, formatNumber(call.firstMs, 1), formatNumber(call.nthMs, 1), formatNumber(call.firstMs - call.nthMs, 1)]),
    ),
  ];
  const targets: Target[] = [
    { scenario: title, name: 'cold start, Toolshed / bare Koa', value: ratio(toolshed, koa), comparison: '<=', goal: 1.64 },
    {
      scenario: title,
      name: `first call minus call ${nth}, worst operation (${slowest?.id ?? 'none'})`,
      value: slowest === undefined ? Number.NaN : slowest.firstMs - slowest.nthMs,
      comparison: '<=',
      goal: 10,
      unit: ' ms',
    },
  ];
  return { title, coldStartMs, firstCalls, table: lines.join('\n'), targets };
}
