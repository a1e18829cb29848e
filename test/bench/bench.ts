// npm run bench: the same Base64 operation served by raw node:http, bare Koa (koa-body + @koa/router)
// and the full Toolshed pipeline, measured one after another in one run on loopback, as ratios.
// A benchmark, not a test: it asserts nothing and is bounded in time.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const body = JSON.stringify({ text: 'The quick brown fox jumps over the lazy dog' });

interface Measure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  rssMb: number;
}

function peakRssMb(pid: number): number {
  // VmHWM is the peak resident set size the kernel recorded for the process.
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function start(script: string): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port };
}

async function measure(name: string, script: string): Promise<Measure> {
  const { child, port } = await start(script);
  const options = {
    url: `http://127.0.0.1:${port}/v1/base64/encode`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body,
    connections,
  };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT and connection set-up
  const result = await autocannon({ ...options, duration: seconds });
  const rssMb = peakRssMb(child.pid as number);
  child.kill('SIGTERM');
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, rssMb };
}

const results: Measure[] = [];
results.push(await measure('raw node:http', './raw-http-server.js'));
results.push(await measure('bare Koa', './bare-koa-server.js'));
results.push(await measure('Toolshed', './toolshed-server.js'));
const [raw, koa, toolshed] = results as [Measure, Measure, Measure];

console.log(`\n${connections} connections, ${seconds} s each, POST /v1/base64/encode\n`);
console.log('server            req/s    p50 ms  p99 ms  peak RSS MB');
for (const row of results) {
  console.log(`${row.name.padEnd(16)} ${row.rps.toFixed(0).padStart(7)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(7)} ${row.rssMb.toFixed(0).padStart(11)}`);
}
console.log(`\nbare Koa / raw node:http  ${(koa.rps / raw.rps).toFixed(2)}`);
console.log(`Toolshed / raw node:http  ${(toolshed.rps / raw.rps).toFixed(2)}   (goal: Fastify's ~0.77)`);
console.log(`Toolshed / bare Koa       ${(toolshed.rps / koa.rps).toFixed(2)}   (must stay ≥ 0.85)`);
