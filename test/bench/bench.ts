// npm run bench: the same Base64 operation served by raw node:http, bare Koa (koa-body + @koa/router)
// and the full Toolshed pipeline, measured one after another in one run on loopback, as ratios.
// A benchmark, not a test: it asserts nothing and is bounded in time.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const body = JSON.stringify({ text: 'The quick brown fox jumps over the lazy dog' });

interface Measure {
  name: string;
  rps: number;
  /** Server CPU time (user + system) per request, in µs: hardly moved by load elsewhere on the machine. */
  cpuUs: number;
  p50: number;
  p99: number;
  rssMb: number;
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command name; clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) / 100;
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

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  runs: { rps: number; p50: number; p99: number; cpuUs: number }[];
}

async function run(server: Server): Promise<void> {
  const cpuBefore = cpuSeconds(server.child.pid as number);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}/v1/base64/encode`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpuUs = ((cpuSeconds(server.child.pid as number) - cpuBefore) * 1e6) / result.requests.total;
  server.runs.push({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const servers: Server[] = [];
const peak = new Map<string, number>();
for (const [name, script] of [['raw node:http', './raw-http-server.js'], ['bare Koa', './bare-koa-server.js'], ['Toolshed', './toolshed-server.js']] as const) {
  servers.push({ name, ...(await start(script)), runs: [] });
}
try {
  for (const server of servers) await autocannon({ url: `http://127.0.0.1:${server.port}/v1/base64/encode`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections, duration: 2 });
  // Interleaved rounds, medians reported: a burst of load elsewhere on the machine then hits every server alike.
  for (let round = 0; round < rounds; round++) for (const server of servers) await run(server);
} finally {
  for (const server of servers) {
    peak.set(server.name, peakRssMb(server.child.pid as number));
    server.child.kill('SIGTERM');
  }
}
const results: Measure[] = servers.map((server) => ({
  name: server.name,
  rps: median(server.runs.map((entry) => entry.rps)),
  p50: median(server.runs.map((entry) => entry.p50)),
  p99: median(server.runs.map((entry) => entry.p99)),
  cpuUs: median(server.runs.map((entry) => entry.cpuUs)),
  rssMb: peak.get(server.name) ?? 0,
}));
const [raw, koa, toolshed] = results as [Measure, Measure, Measure];

console.log(`\n${connections} connections, ${rounds} interleaved rounds of ${seconds} s per server (medians), POST /v1/base64/encode\n`);
console.log('server            req/s    p50 ms  p99 ms  CPU µs/req  peak RSS MB');
for (const row of results) {
  console.log(
    `${row.name.padEnd(16)} ${row.rps.toFixed(0).padStart(7)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(7)} ${row.cpuUs.toFixed(1).padStart(11)} ${row.rssMb.toFixed(0).padStart(12)}`,
  );
}
console.log('\nratios              by req/s   by CPU per request');
const ratio = (a: Measure, b: Measure): string => `${(a.rps / b.rps).toFixed(2).padStart(10)} ${(b.cpuUs / a.cpuUs).toFixed(2).padStart(12)}`;
console.log(`bare Koa / raw      ${ratio(koa, raw)}`);
console.log(`Toolshed / raw      ${ratio(toolshed, raw)}   (goal: Fastify's ~0.77)`);
console.log(`Toolshed / bare Koa ${ratio(toolshed, koa)}   (must stay >= 0.85)`);
