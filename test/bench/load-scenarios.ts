/**
 * Scenarios (a) and (b), small bodies with and without an API key, against all four servers, and
 * (c), bodies of 100 KiB to 9 MiB against raw node:http, Fastify and Toolshed. Each becomes one
 * table: medians, then each server's ratios to the reference a kept target is set against.
 */
import type { ServerKind, ServerProcess } from './processes.js';
import { SERVERS } from './processes.js';
import { cleanRatio, formatNumber, formatRatio, ratio, renderTable, type Target } from './report.js';
import { checkSameAnswers, interleavedRounds, type LoadCase, type Measured, type RoundPlan } from './throughput.js';
import { ENCODE_PATH, HASH_PATH } from './reference-work.js';

/** Kept targets: keyed small requests ≥ 1.0 of bare Koa (issue 44 raised issue 38's 0.95); 100 KiB–9 MiB bodies ≥ 0.90 of Fastify. */
export const SMALL_OF_KOA = 1;
export const LARGE_OF_FASTIFY = 0.9;

const SMALL_TEXT = 'The quick brown fox jumps over the lazy dog';

/** base64 encode and hash (every algorithm, the default) of a 43-character text. */
export function smallCases(headers: Record<string, string>, connections: number): LoadCase[] {
  const body = JSON.stringify({ text: SMALL_TEXT });
  return [
    { label: 'base64 encode', path: ENCODE_PATH, body, headers, connections },
    { label: 'hash', path: HASH_PATH, body, headers, connections },
  ];
}

/** A JSON body `{"text":"…"}` of exactly `bytes` bytes: English text, ASCII so that no character needs escaping. */
export function bodyOfSize(bytes: number): string {
  const frame = '{"text":""}'.length;
  return JSON.stringify({ text: `${SMALL_TEXT}. `.repeat(Math.ceil(bytes / 45)).slice(0, bytes - frame) });
}

const LARGE_SIZES = [
  { label: '100 KiB', bytes: 100 * 1024, connections: 16 },
  { label: '1 MiB', bytes: 2 ** 20, connections: 8 },
  { label: '9 MiB', bytes: 9 * 2 ** 20, connections: 4 },
] as const;

/** Both operations at 100 KiB, 1 MiB and 9 MiB; fewer connections as bodies grow, so a run still fits in memory. */
export function largeCases(headers: Record<string, string>): LoadCase[] {
  return LARGE_SIZES.flatMap(({ label, bytes, connections }) => {
    const body = bodyOfSize(bytes);
    return [
      { label: `base64 encode ${label}`, path: ENCODE_PATH, body, headers, connections },
      { label: `hash ${label}`, path: HASH_PATH, body, headers, connections },
    ];
  });
}

export interface LoadScenarioResult {
  readonly title: string;
  readonly measured: Measured[];
  readonly table: string;
  readonly targets: Target[];
}

/**
 * The table of one scenario. `versus` names the references each row is divided by: `×Koa req/s`
 * is the row's req/s over bare Koa's, `×Koa CPU` bare Koa's CPU per request over the row's, so
 * above 1 is better for both.
 */
export function scenarioTable(measured: readonly Measured[], versus: readonly ServerKind[]): string {
  const short: Record<ServerKind, string> = { raw: 'raw', fastify: 'Fastify', koa: 'Koa', toolshed: 'Toolshed', contained: 'contained', trusted: 'trusted' };
  const headers = ['operation', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'failed'];
  for (const kind of versus) headers.push(`×${short[kind]} req/s`, `×${short[kind]} CPU`);
  const rows = measured.map((row) => {
    const cells = [row.label, SERVERS[row.server].name, formatNumber(row.rps), formatNumber(row.p50Ms), formatNumber(row.p99Ms), formatNumber(row.cpuUs, 1), String(row.failures)];
    for (const kind of versus) {
      const reference = measured.find((other) => other.label === row.label && other.server === kind);
      cells.push(formatRatio(ratio(row.rps, reference?.rps)), formatRatio(ratio(reference?.cpuUs, row.cpuUs)));
    }
    return cells;
  });
  return renderTable(headers, rows, 2);
}

function find(measured: readonly Measured[], label: string, server: ServerKind): Measured | undefined {
  return measured.find((row) => row.label === label && row.server === server);
}

/**
 * (a) or (b): the four servers. With `kept` (keyed requests, (a)), the kept target: Toolshed / bare
 * Koa ≥ 1.0, by req/s and by CPU per request (the steadier of the two on a busy machine). The
 * anonymous run (b) is measured without a target: the issue keeps the keyed one only.
 */
export async function runSmallScenario(title: string, servers: readonly ServerProcess[], cases: readonly LoadCase[], plan: RoundPlan, kept: boolean): Promise<LoadScenarioResult> {
  await checkSameAnswers(servers, cases);
  const measured = await interleavedRounds(servers, cases, plan);
  const targets: Target[] = !kept
    ? []
    : cases.flatMap(({ label }) => {
        const own = find(measured, label, 'toolshed');
        const koa = find(measured, label, 'koa');
        return [
          { scenario: title, name: `Toolshed / bare Koa, ${label}, by req/s`, value: cleanRatio(own, koa, (row) => row.rps), comparison: '>=' as const, goal: SMALL_OF_KOA },
          { scenario: title, name: `Toolshed / bare Koa, ${label}, by CPU per request`, value: cleanRatio(koa, own, (row) => row.cpuUs), comparison: '>=' as const, goal: SMALL_OF_KOA },
        ];
      });
  return { title, measured, table: scenarioTable(measured, ['koa', 'fastify', 'raw']), targets };
}

/** (c): raw node:http (the ceiling), Fastify and Toolshed; the kept target: Toolshed ≥ 0.90 of Fastify by req/s, every size and operation. */
export async function runLargeScenario(title: string, servers: readonly ServerProcess[], cases: readonly LoadCase[], plan: RoundPlan): Promise<LoadScenarioResult> {
  await checkSameAnswers(servers, cases);
  const measured = await interleavedRounds(servers, cases, plan);
  const targets: Target[] = cases.map(({ label }) => ({
    scenario: title,
    name: `Toolshed / Fastify, ${label}, by req/s`,
    value: cleanRatio(find(measured, label, 'toolshed'), find(measured, label, 'fastify'), (row) => row.rps),
    comparison: '>=' as const,
    goal: LARGE_OF_FASTIFY,
  }));
  return { title, measured, table: scenarioTable(measured, ['fastify', 'raw']), targets };
}
