/**
 * (m), issue 23: a tools/call of base64 encode at /mcp against the same POST /v1/base64/encode, on
 * the same Toolshed process, keyed, interleaved; the ratio of the two in one run. Target: the MCP
 * path costs at most 1.25 × the plain POST, by CPU per request and by req/s.
 */
import { isDeepStrictEqual } from 'node:util';
import { send } from '../support/http.js';
import type { ServerProcess } from './processes.js';
import { formatNumber, formatRatio, ratio, renderTable, type Target } from './report.js';
import { ENCODE_PATH } from './reference-work.js';
import { interleavedRounds, type LoadCase, type RoundPlan } from './throughput.js';
import type { LoadScenarioResult } from './load-scenarios.js';

const TEXT = 'The quick brown fox jumps over the lazy dog';
/** What an MCP client sends after initialize: the negotiated revision and both media types accepted. */
const MCP_HEADERS = { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25', 'Content-Type': 'application/json' };

/** The POST and the tools/call of the same encoding, with `headers` (the key). */
export function mcpCases(headers: Record<string, string>, connections: number): LoadCase[] {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'base64_encode', arguments: { text: TEXT } } };
  return [
    { label: 'POST /v1/base64/encode', path: ENCODE_PATH, body: JSON.stringify({ text: TEXT }), headers, connections },
    { label: 'MCP tools/call base64_encode', path: '/mcp', body: JSON.stringify(call), headers: { ...headers, ...MCP_HEADERS }, connections },
  ];
}

/** Both answers must carry the same result, or the comparison means nothing. */
async function checkSameResult(server: ServerProcess, [post, mcp]: readonly LoadCase[]): Promise<void> {
  const plain = await send(server.base, post!.path, { body: post!.body, headers: { 'Content-Type': 'application/json', ...post!.headers } });
  const tool = await send(server.base, mcp!.path, { body: mcp!.body, headers: mcp!.headers });
  const structured = (tool.json as { result?: { structuredContent?: unknown } } | undefined)?.result?.structuredContent;
  if (plain.status !== 200 || tool.status !== 200 || !isDeepStrictEqual(structured, plain.json)) {
    throw new Error(`the tools/call answer (${tool.status}: ${tool.text.slice(0, 200)}) differs from the POST's (${plain.status}: ${plain.text.slice(0, 200)})`);
  }
}

export async function runMcpScenario(title: string, toolshed: ServerProcess, cases: readonly LoadCase[], plan: RoundPlan): Promise<LoadScenarioResult> {
  await checkSameResult(toolshed, cases);
  const measured = await interleavedRounds([toolshed], cases, plan);
  const [post, mcp] = measured;
  const cpu = ratio(mcp?.cpuUs, post?.cpuUs);
  const rps = ratio(post?.rps, mcp?.rps);
  const rows = measured.map((row) => [row.label, formatNumber(row.rps), formatNumber(row.p50Ms), formatNumber(row.p99Ms), formatNumber(row.cpuUs, 1), String(row.failures)]);
  const table = `${renderTable(['request', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'failed'], rows)}\nMCP / POST: CPU per request ${formatRatio(cpu)}, time per request (POST req/s over MCP req/s) ${formatRatio(rps)}`;
  const targets: Target[] = [
    { scenario: title, name: 'MCP tools/call / POST, base64 encode, by CPU per request', value: cpu, comparison: '<=', goal: 1.25 },
    { scenario: title, name: 'MCP tools/call / POST, base64 encode, by time per request (inverse req/s)', value: rps, comparison: '<=', goal: 1.25 },
  ];
  return { title, measured, table, targets };
}
