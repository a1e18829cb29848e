// The attacks of the loadtest, one per process, named by the second argument; each runs until it is
// stopped and tells its parent it is ready once it has had an answer (large-doors: one to each of
// its three requests; held bodies: once they are all open): a run measured before that would
// measure no attack at all.
//  hostile      the hostile corpus's single-request rows in a loop, two at a time (it builds every
//               body first: seconds of CPU, about 120 MB)
//  slow-hold    issue 44's "13 bytes hold every POST": 12 bodies declaring 10 MiB and one 8 MiB,
//               one byte each, each reopened when the service cuts it
//  share-hold   one address sends 1 MiB of each of 64 bodies declaring 10 MiB and stalls, each
//               reopened when refused or cut: it may hold its share of the reading budget, no more
//  amplify      issue 44's "652 bytes take 1.2 GB": the 30-step recipe, gzipped, two at a time
//  large-doors  10 MiB bodies to /v1/recipes/run, /v1/recipes/identify and /mcp, two at a time
//  pipeline     64 connections, each writing 1,000 small POSTs at once without waiting for an
//               answer, each reopened when the service closes it
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { kernelRows } from '../hostile/corpus.js';
import { send } from '../support/http.js';

const port = Number(process.argv[2]);
const mode = process.argv[3] ?? 'hostile';
const base = `http://127.0.0.1:${port}`;
/** The attacker's own address (Linux's loopback answers every 127.x.y.z): a client apart from the measured traffic. */
const localAddress = '127.0.0.3';
const MiB = 2 ** 20;
const counts = { sent: 0, answered: 0, fiveHundreds: 0, statuses: {} as Record<string, number> };
const lanes = 2;

function count(status: number): void {
  counts.answered++;
  counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
  if (status === 500) counts.fiveHundreds++;
}

interface Shot {
  readonly path: string;
  readonly body: string | Buffer | object;
  readonly headers: Record<string, string>;
}

/**
 * Sends `shots` in a loop on `lanes` lanes; 'ready' once every lane has had an answer and, with
 * `everyShot`, once every shot has: its door and operation have then been used once, and what a
 * first use loads once (the MCP SDK, about 300 ms of compiling in pieces of up to 120 ms, see
 * mcp/route.ts; a built-in's module) is not what the run under attack measures.
 */
function loop(shots: readonly Shot[], everyShot = false): void {
  let lanesAnswered = 0;
  const unanswered = new Set(everyShot ? shots : []);
  let told = false;
  const tell = (): void => {
    if (told || lanesAnswered < lanes || unanswered.size > 0) return;
    told = true;
    process.send?.('ready');
  };
  const lane = async (offset: number): Promise<void> => {
    let first = true;
    for (let index = offset; ; index += lanes) {
      const shot = shots[index % shots.length]!;
      counts.sent++;
      // send() waits for an answer after a reset (a 413 may follow it); a reset with no answer would
      // hold the lane forever, so a request unanswered after 30 s counts as not answered.
      const answer = await Promise.race([
        send(base, shot.path, { body: shot.body, headers: shot.headers, localAddress }).catch(() => undefined),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30_000).unref()),
      ]);
      if (answer === undefined) continue;
      count(answer.status);
      if (first) lanesAnswered++;
      first = false;
      unanswered.delete(shot);
      tell();
    }
  };
  for (let offset = 0; offset < lanes; offset++) void lane(offset);
}

/** Keeps bodies of the `declared` lengths open with `sent` bytes of each, reopening each one the service ends. */
function hold(declared: readonly number[], sent: number): void {
  let open = 0;
  const body = (length: number, socket: Socket): void => {
    counts.sent++;
    socket.write(`POST /v1/base64/encode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 0x20));
  };
  const keep = (length: number): void => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => {
      body(length, socket);
      if (++open === declared.length) process.send?.('ready');
    });
    socket.on('error', () => undefined);
    // The status line of the one answer the body gets: its refusal.
    socket.once('data', (chunk: Buffer) => count(Number(chunk.toString('latin1', 9, 12))));
    socket.once('close', () => keep(length));
  };
  for (const length of declared) keep(length);
}

/** `connections` connections that each write `burst` small POSTs at once, ahead of every answer, each reopened when closed. */
function pipeline(connections: number, burst: number): void {
  const requests = Buffer.from(`POST /v1/base64/encode HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"text":"hi"}`.repeat(burst));
  let open = 0;
  const keep = (): void => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => {
      counts.sent++;
      socket.write(requests);
      if (++open === connections) process.send?.('ready');
    });
    // Read and dropped: whether it reads its answers or not, a connection is closed past 16 waiting.
    socket.resume();
    socket.on('error', () => undefined);
    socket.once('close', () => {
      counts.statuses.closed = (counts.statuses.closed ?? 0) + 1;
      keep();
    });
  };
  for (let index = 0; index < connections; index++) keep();
}

/** The 30 text-converter/encode steps of issue 44, each answer 68 × its input, sent gzipped (652 bytes). */
function amplifyingRecipe(): Buffer {
  const step = { operation: 'text-converter/encode', body: { text: { $from: '/input' }, format: 'binary', separator: '\u0001'.repeat(10) } };
  return gzipSync(JSON.stringify({ input: 'x'.repeat(490_000), steps: Array.from({ length: 30 }, () => step) }));
}

const json = { 'Content-Type': 'application/json' };
/** A JSON string of `size` bytes of text. */
const text = (size: number): string => 'a'.repeat(size);

if (mode === 'hostile') {
  const rows = kernelRows.filter((row) => row.concurrent === undefined);
  loop(rows.map((row) => ({ path: row.path, body: row.body(), headers: json })));
} else if (mode === 'slow-hold') {
  hold([...Array.from({ length: 12 }, () => 10 * MiB), 8 * MiB], 1);
} else if (mode === 'share-hold') {
  hold(Array.from({ length: 64 }, () => 10 * MiB), MiB);
} else if (mode === 'amplify') {
  loop([{ path: '/v1/recipes/run', body: amplifyingRecipe(), headers: { ...json, 'Content-Encoding': 'gzip' } }]);
} else if (mode === 'large-doors') {
  const size = 10 * MiB - 1024;
  loop([
    { path: '/v1/recipes/run', body: `{"input":"${text(size)}","steps":[{"operation":"hash-generator/hash"}]}`, headers: json },
    { path: '/v1/recipes/identify', body: `{"input":"${text(size)}"}`, headers: json },
    {
      path: '/mcp',
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hash-generator_hash","arguments":{"text":"${text(size)}"}}}`,
      headers: { ...json, Accept: 'application/json, text/event-stream' },
    },
  ], true);
} else if (mode === 'pipeline') {
  pipeline(64, 1000);
} else throw new Error(`no attack named ${mode}`);

// 'reset' starts the counts of the measured run; anything else asks for them.
process.on('message', (message) => {
  if (message === 'reset') Object.assign(counts, { sent: 0, answered: 0, fiveHundreds: 0, statuses: {} });
  process.send?.({ ...counts });
});
