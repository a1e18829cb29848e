// npm run loadtest: the service under mixed valid traffic at 200 connections, then the same while
// the hostile corpus runs in a loop, then slow readers, 150,000 client addresses and a 300,000-
// request soak. Loopback only, bounded in time; prints one table. A measurement, not a test.
import { fork, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const seconds = Number(process.env.LOADTEST_SECONDS ?? 10);
const connections = Number(process.env.LOADTEST_CONNECTIONS ?? 200);
const soakRequests = Number(process.env.LOADTEST_SOAK ?? 300_000);
const clients = Number(process.env.LOADTEST_ADDRESSES ?? 150_000);

interface ServerStats { loopP99Ms: number; loopMaxMs: number; rssMb: number; peakRssMb: number; heapMb: number; liveMb: number; externalMb: number; threads: number; connections: number; gcMaxMs: number; gcTotalMs: number }
/** Where the memory is: the main thread's V8 heap, memory outside it (buffers), live pool workers. */
const breakdown = (stats: ServerStats) => `heap ${stats.heapMb.toFixed(0)} (live ${stats.liveMb.toFixed(0)}), external ${stats.externalMb.toFixed(0)} MB, ${stats.threads} workers`;
const rows: [string, string, string, boolean | undefined][] = [];
const row = (metric: string, target: string, value: string, ok?: boolean) => rows.push([metric, target, value, ok]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function child(script: string, args: string[] = []): ChildProcess {
  // LOADTEST_GC=1 lets the server collect garbage before it reports memory, telling a leak (live
  // heap grows) from garbage V8 has not collected yet (RSS grows, live heap does not).
  const execArgv = process.env.LOADTEST_GC === '1' ? ['--expose-gc'] : [];
  // The C library's settings every way the service ships sets (npm start, the image, the systemd
  // unit); without them RSS after a burst measures glibc's retention, not the service
  // (docs/configuration.md).
  const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576' };
  return fork(fileURLToPath(new URL(script, import.meta.url)), args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv, env });
}
function ask<T>(process: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    process.once('message', (answer) => resolve(answer as T));
    process.send(message);
  });
}

/** Probes /healthz from its own process (health-probe.ts) until the returned function is called; resolves with the p99. */
async function probeHealth(probe: ChildProcess): Promise<() => Promise<number>> {
  await ask(probe, 'start');
  return () => ask<number>(probe, 'stop');
}

/** Every example of every operation that needs no upstream, from the service's own OpenAPI document. */
async function validRequests(base: string): Promise<autocannon.Request[]> {
  const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
    paths: Record<string, { post: { requestBody: { content: { 'application/json': { examples: Record<string, { value: unknown }> } } }; responses: Record<string, unknown> } }>;
  };
  const requests: autocannon.Request[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (item.post.responses['502'] !== undefined) continue;
    for (const example of Object.values(item.post.requestBody.content['application/json'].examples)) {
      requests.push({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(example.value) });
    }
  }
  return requests;
}

/**
 * Sends `requests` in a random order per request: autocannon walks its list in the same order on
 * every connection, which made all 200 connections ask for the same operation at once.
 */
async function traffic(base: string, requests: autocannon.Request[], options: Partial<autocannon.Options>): Promise<autocannon.Result> {
  let seed = 1;
  const pick = (): autocannon.Request => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return requests[seed % requests.length]!;
  };
  const mixed = requests.length === 1 ? requests : [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...pick() }) }];
  return autocannon({ url: base, connections, requests: mixed, ...options });
}

/** Failed requests of a run: socket errors, timeouts and non-2xx answers, the latter by status. */
function failuresOf(result: autocannon.Result): { count: number; text: string } {
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, { count = 0 }]) => `${status}: ${count}`);
  const parts = [...statuses, ...(result.errors > 0 ? [`socket errors: ${result.errors}`] : []), ...(result.timeouts > 0 ? [`timeouts: ${result.timeouts}`] : [])];
  const count = result.errors + result.timeouts + result.non2xx;
  return { count, text: `${count} errors${parts.length > 0 ? ` (${parts.join(', ')})` : ''}` };
}

async function settleRss(server: ChildProcess, targetMb: number, maxMs: number): Promise<ServerStats> {
  let stats = await ask<ServerStats>(server, 'stats');
  for (const started = Date.now(); stats.rssMb > targetMb && Date.now() - started < maxMs; stats = await ask<ServerStats>(server, 'stats')) await sleep(1000);
  return stats;
}

const server = child('./server.js');
const port = await new Promise<number>((resolve) => server.once('message', (message) => resolve(Number(message))));
const base = `http://127.0.0.1:${port}`;
const prober = child('./health-probe.js', [String(port)]);
await new Promise((resolve) => prober.once('message', resolve));
const requests = await validRequests(base);
await traffic(base, requests, { duration: 2 }); // warm-up
const idleStats = await settleRss(server, 0, 0);
const idle = idleStats.rssMb;

await ask(server, 'reset');
let stopProbe = await probeHealth(prober);
const baseline = await traffic(base, requests, { duration: seconds });
let health = await stopProbe();
let stats = await ask<ServerStats>(server, 'stats');
const failures = failuresOf(baseline);
row(`valid mix, ${connections} connections, ${seconds} s`, '0 errors', `${Math.round(baseline.requests.average)} req/s, ${failures.text}`, failures.count === 0);
row('  healthz p99 / event-loop p99', '—', `${health.toFixed(1)} / ${stats.loopP99Ms.toFixed(1)} ms; GC pauses max ${stats.gcMaxMs.toFixed(0)} ms, ${stats.gcTotalMs.toFixed(0)} ms in all`);

// The attack is running (both lanes answered) before the measured run starts; its counts start with it.
const attacker = child('./attacker.js', [String(port)]);
const ready = await Promise.race([new Promise((resolve) => attacker.once('message', resolve)), sleep(120_000)]);
if (ready !== 'ready') process.stderr.write('the attacker had no answers after 2 minutes\n');
await ask(attacker, 'reset');
await ask(server, 'reset');
stopProbe = await probeHealth(prober);
const attacked = await traffic(base, requests, { duration: seconds });
health = await stopProbe();
stats = await ask<ServerStats>(server, 'stats');
const attack = await ask<{ sent: number; answered: number; fiveHundreds: number }>(attacker, 'stats');
attacker.kill();
const ratio = attacked.requests.average / baseline.requests.average;
row('valid mix while the hostile rows loop', '≥ 0.70 of valid', `${Math.round(attacked.requests.average)} req/s = ${ratio.toFixed(2)}, ${failuresOf(attacked).text}`, ratio >= 0.7);
// Each of the attacker's two lanes finished a hostile request inside the measured run, so the attack
// ran during it, not only before or after. Hostile requests are slow by design (a 10 MiB body each,
// on pool threads that yield to the main thread): 3 in 10 s on a quiet 2-core machine.
const hostileMinimum = 2;
row('  hostile requests answered / of them 500', `≥ ${hostileMinimum} / 0`, `${attack.answered} / ${attack.fiveHundreds} (${attack.sent} sent)`, attack.answered >= hostileMinimum && attack.fiveHundreds === 0);
row('  healthz p99', '< 100 ms', `${health.toFixed(1)} ms`, health < 100);
row('  event-loop delay p99 (max)', '< 50 ms', `${stats.loopP99Ms.toFixed(1)} ms (${stats.loopMaxMs.toFixed(0)}); GC pauses max ${stats.gcMaxMs.toFixed(0)} ms, ${stats.gcTotalMs.toFixed(0)} ms in all`, stats.loopP99Ms < 50);
row('  RSS peak', '< 1024 MB', `${stats.peakRssMb.toFixed(0)} MB`, stats.peakRssMb < 1024);
const afterStats = await settleRss(server, idle * 1.2, 45_000);
const after = afterStats.rssMb;
row('  RSS after the load (idle before)', '≤ 1.2 × idle', `${after.toFixed(0)} MB (${idle.toFixed(0)} MB); ${breakdown(afterStats)} (${breakdown(idleStats)})`, after <= idle * 1.2);

// 50 clients ask for 30 MB answers and never read them: the answer budget and the write timeout.
await ask(server, 'reset');
const slowBody = JSON.stringify({ text: 'a'.repeat(3_400_000), format: 'binary' });
const sockets = Array.from({ length: 50 }, () => {
  const socket = connect(port, '127.0.0.1', () => {
    socket.write(`POST /v1/text-converter/encode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(slowBody)}\r\n\r\n`);
    socket.write(slowBody);
    socket.pause();
  });
  socket.on('error', () => undefined);
  return socket;
});
await sleep(3000);
const during = await ask<ServerStats>(server, 'stats');
await sleep(15_000);
stats = await ask<ServerStats>(server, 'stats');
for (const socket of sockets) socket.destroy();
row(
  '50 clients never read 30 MB answers',
  'closed, RSS < 1024 MB',
  `${during.connections} → ${stats.connections} open after 18 s (write timeout 5 s), RSS peak ${stats.peakRssMb.toFixed(0)} MB`,
  stats.connections === 0 && stats.peakRssMb < 1024,
);

// Anonymous requests from many addresses (trustProxy 1: the address comes from X-Forwarded-For).
let address = 0;
const fromAddress = (count: number) =>
  traffic(base, [{ method: 'POST', path: '/v1/base64/encode', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}', setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address++ & 255}` } }) }], { amount: count, connections: 50 });
const first = await fromAddress(10_000);
if (clients > 20_000) await fromAddress(clients - 20_000);
const last = await fromAddress(10_000);
row(`${clients.toLocaleString('en')} client addresses: p50 first / last 10,000`, 'flat', `${first.latency.p50} / ${last.latency.p50} ms`, last.latency.p50 <= Math.max(5, first.latency.p50 * 3));

// The soak: RSS growth over many requests.
// Growth is counted from a warm service (pool workers started, code paths compiled), so that it shows
// what the requests keep, not what the first ones start.
await traffic(base, requests, { duration: 2 });
const beforeSoakStats = await settleRss(server, 0, 0);
const beforeSoak = beforeSoakStats.rssMb;
const soak = await traffic(base, requests, { amount: soakRequests });
const afterSoakStats = await settleRss(server, beforeSoak * 1.1, 45_000);
const afterSoak = afterSoakStats.rssMb;
row(`soak, ${soakRequests.toLocaleString('en')} requests`, 'RSS growth < 10 %', `${Math.round(soak.requests.average)} req/s, ${beforeSoak.toFixed(0)} → ${afterSoak.toFixed(0)} MB; ${breakdown(beforeSoakStats)} → ${breakdown(afterSoakStats)}`, afterSoak < beforeSoak * 1.1);

prober.kill();
server.kill();
const widths = [0, 1, 2].map((column) => Math.max(...rows.map((cells) => String(cells[column]).length), 6));
const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index] ?? 4)).join(' | ')} |`;
process.stdout.write(`${line(['measure', 'target', 'measured', 'ok'])}\n|${[...widths, 4].map((width) => '-'.repeat(width + 2)).join('|')}|\n`);
for (const [metric, target, value, ok] of rows) process.stdout.write(`${line([metric, target, value, ok === undefined ? '' : ok ? 'yes' : 'NO'])}\n`);
process.exit(0);
