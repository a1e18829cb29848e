/**
 * (r), issue 40: a 3-step recipe (percent-decode → Base64-decode → decode the JWT) as one POST
 * /v1/recipes/run, against the same three POSTs sent one after another by one client that reads
 * each answer to build the next body; the time per chain of each, interleaved, on one keep-alive
 * connection. Target: the recipe takes at most 0.8 × the chain (one round trip instead of three).
 * Then identify on a 1 KiB, 64 KiB and 1 MiB input (Base64 of text: identify decodes it), p50.
 */
import { Agent, request } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { Placement, ServerProcess } from './processes.js';
import { startServer } from './processes.js';
import { formatNumber, formatRatio, median, ratio, renderTable, type Target } from './report.js';
import type { RoundPlan } from './throughput.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0.c2ln';
const INPUT = encodeURIComponent(Buffer.from(JWT).toString('base64'));
const RECIPE = JSON.stringify({ input: INPUT, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] });

/** POSTs `body` to `path` on one kept-alive connection; resolves with the parsed answer. */
function post(base: string, agent: Agent, path: string, body: string, headers: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}: ${text.slice(0, 200)}`));
        else resolve(JSON.parse(text));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The three POSTs, each body built from the answer before, as a client without recipes does it. */
async function chain(base: string, agent: Agent, headers: Record<string, string>): Promise<unknown> {
  const { decoded } = (await post(base, agent, '/v1/url-encoder/decode', JSON.stringify({ text: INPUT }), headers)) as { decoded: string };
  const { text } = (await post(base, agent, '/v1/base64/decode', JSON.stringify({ base64: decoded }), headers)) as { text: string };
  return post(base, agent, '/v1/jwt-decoder/decode', JSON.stringify({ token: text }), headers);
}

async function recipe(base: string, agent: Agent, headers: Record<string, string>): Promise<unknown> {
  return ((await post(base, agent, '/v1/recipes/run', RECIPE, headers)) as { result: unknown }).result;
}

/** Times `run` back to back for `seconds`; ms per call, each call. */
async function timed(seconds: number, run: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times;
}

/** Text of `bytes` ASCII bytes as Base64: what identify is given (about 4/3 of `bytes` long). */
function base64Input(bytes: number): string {
  const line = 'The quick brown fox jumps over the lazy dog. ';
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, Math.floor((bytes * 3) / 4))).toString('base64');
}

export async function runRecipeScenario(title: string, placement: Placement, env: Record<string, string>, keyed: Record<string, string>, plan: RoundPlan): Promise<{ table: string; targets: Target[] }> {
  const server: ServerProcess = await startServer('toolshed', placement, env);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { base } = server;
    const [byChain, byRecipe] = [await chain(base, agent, keyed), await recipe(base, agent, keyed)];
    if (!isDeepStrictEqual(byChain, byRecipe)) throw new Error('the recipe and the three POSTs answer differently');
    await timed(plan.warmupSeconds, () => chain(base, agent, keyed));
    await timed(plan.warmupSeconds, () => recipe(base, agent, keyed));
    const chains: number[] = [];
    const recipes: number[] = [];
    // Interleaved rounds: a busy moment of the machine falls on both.
    for (let round = 0; round < plan.rounds; round++) {
      chains.push(...(await timed(plan.seconds, () => chain(base, agent, keyed))));
      recipes.push(...(await timed(plan.seconds, () => recipe(base, agent, keyed))));
    }
    const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
    const perChain = ratio(mean(recipes), mean(chains));
    const rows = [
      ['3 POSTs, one after another', formatNumber(mean(chains), 3), formatNumber(median(chains), 3), String(chains.length)],
      ['POST /v1/recipes/run, 3 steps', formatNumber(mean(recipes), 3), formatNumber(median(recipes), 3), String(recipes.length)],
    ];
    const identifyRows: string[][] = [];
    const sizes: [string, number, number][] = [['1 KiB', 1024, 30], ['64 KiB', 64 * 1024, 15], ['1 MiB', 1024 * 1024, 5]];
    for (const [label, bytes, count] of sizes) {
      const body = JSON.stringify({ input: base64Input(bytes) });
      await post(base, agent, '/v1/recipes/identify', body, keyed);
      const times: number[] = [];
      for (let index = 0; index < count; index++) {
        const started = performance.now();
        await post(base, agent, '/v1/recipes/identify', body, keyed);
        times.push(performance.now() - started);
      }
      identifyRows.push([`identify, ${label} of Base64`, formatNumber(median(times), 1), String(count)]);
    }
    const table =
      `${renderTable(['one client, keep-alive', 'ms per chain (mean)', 'p50 ms', 'chains'], rows)}\nrecipe / 3 POSTs, time per chain: ${formatRatio(perChain)}\n\n` +
      renderTable(['identify', 'p50 ms', 'requests'], identifyRows);
    return { table, targets: [{ scenario: title, name: 'a 3-step recipe / the same 3 POSTs from one client, time per chain', value: perChain, comparison: '<=', goal: 0.8 }] };
  } finally {
    agent.destroy();
    await server.stop();
  }
}
