/**
 * Throughput: every server under the same request, in interleaved rounds (a burst of load from
 * elsewhere on the machine then hits every server alike), medians reported. Server CPU per request
 * comes from the server's own CPU clock, steadier than req/s when the load generator's core is busy.
 */
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { send } from '../support/http.js';
import type { ServerKind, ServerProcess } from './processes.js';
import { median } from './report.js';

/** One request to measure: an operation with a body and headers. */
export interface LoadCase {
  /** Shown in tables: `base64 encode`, `hash 1 MiB`. */
  readonly label: string;
  readonly path: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly connections: number;
}

/** The medians over the rounds of one server under one case. */
export interface Measured {
  readonly server: ServerKind;
  readonly label: string;
  readonly rps: number;
  /** Server CPU time (user + system, every thread) per answered request, in µs. */
  readonly cpuUs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Non-2xx answers, connection errors and timeouts, summed over the rounds. */
  readonly failures: number;
}

interface Run {
  rps: number;
  cpuUs: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function load(server: ServerProcess, loadCase: LoadCase, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.base}${loadCase.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...loadCase.headers },
    body: loadCase.body,
    connections: loadCase.connections,
    duration: seconds,
    // A 9 MiB body may take a while on a busy machine; a timeout is still counted as a failure.
    timeout: 30,
  });
}

async function measure(server: ServerProcess, loadCase: LoadCase, seconds: number): Promise<Run> {
  const before = await server.usage();
  const result = await load(server, loadCase, seconds);
  const after = await server.usage();
  const answered = result.requests.total;
  return {
    // Completed requests over the run's real length: autocannon's per-second average is coarse for short runs.
    rps: answered / result.duration,
    // Requests cut off at the end of the run cost CPU without counting; a few % for 9 MiB bodies in short runs.
    cpuUs: answered === 0 ? Number.NaN : (after.cpuUs - before.cpuUs) / answered,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors,
  };
}

/**
 * Sends each case once to every server and checks that every answer equals Toolshed's (or the first
 * server's): a reference doing less work than the service would flatter itself.
 */
export async function checkSameAnswers(servers: readonly ServerProcess[], cases: readonly LoadCase[]): Promise<void> {
  for (const loadCase of cases) {
    const answers = await Promise.all(
      servers.map(async (server) => ({ server, answer: await send(server.base, loadCase.path, { body: loadCase.body, headers: { 'Content-Type': 'application/json', ...loadCase.headers } }) })),
    );
    const reference = answers.find((entry) => entry.server.kind === 'toolshed') ?? answers[0];
    for (const { server, answer } of answers) {
      if (answer.status !== 200) throw new Error(`${server.name} answered ${loadCase.label} with ${answer.status}: ${answer.text.slice(0, 200)}`);
      if (!isDeepStrictEqual(answer.json, reference?.answer.json)) throw new Error(`${server.name} answers ${loadCase.label} differently from ${reference?.server.name}`);
    }
  }
}

export interface RoundPlan {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/** Warms every server on every case, then measures `rounds` interleaved rounds; the medians per server and case. */
export async function interleavedRounds(servers: readonly ServerProcess[], cases: readonly LoadCase[], plan: RoundPlan): Promise<Measured[]> {
  if (plan.warmupSeconds > 0) for (const loadCase of cases) for (const server of servers) await load(server, loadCase, plan.warmupSeconds);
  const runs = new Map<string, Run[]>();
  const key = (server: ServerProcess, loadCase: LoadCase): string => `${server.kind}\n${loadCase.label}`;
  for (let round = 0; round < plan.rounds; round++) {
    for (const loadCase of cases) {
      // Each round starts with a different server, so none is always measured right after another's load.
      const order = servers.map((_, index) => servers[(index + round) % servers.length] as ServerProcess);
      for (const server of order) {
        const run = await measure(server, loadCase, plan.seconds);
        runs.set(key(server, loadCase), [...(runs.get(key(server, loadCase)) ?? []), run]);
      }
    }
  }
  const results: Measured[] = [];
  for (const loadCase of cases) {
    for (const server of servers) {
      const list = runs.get(key(server, loadCase)) ?? [];
      const of = (field: keyof Omit<Run, 'failures'>): number => median(list.map((run) => run[field]));
      results.push({
        server: server.kind,
        label: loadCase.label,
        rps: of('rps'),
        cpuUs: of('cpuUs'),
        p50Ms: of('p50Ms'),
        p99Ms: of('p99Ms'),
        failures: list.reduce((sum, run) => sum + run.failures, 0),
      });
    }
  }
  return results;
}
