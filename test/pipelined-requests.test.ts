// Requests a client sends ahead on one connection (HTTP/1.1 pipelining, kernel/http/pipelined-requests.ts),
// over real sockets since the connection is the subject: they start one at a time, in order, each
// once the answer before it is out; up to 16 may wait, and one more closes the connection, which
// /metrics counts. Outcomes are counted (requests Node parsed, answers received), never timed.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { COOL_MS, CooledPeers, CUTS_TO_COOL, type RefusedConnections } from '../kernel/http/connection-caps.js';
import { MAX_WAITING, oneAtATime } from '../kernel/http/pipelined-requests.js';
import { send } from './support/http.js';
import { serviceStarter } from './support/service.js';
import { until } from './support/until.js';

const servers: Server[] = [];
after(() => servers.forEach((server) => server.close()));

/** A plain node:http server with `listener` behind oneAtATime; `handed` holds every request Node handed over, `parsed` counts them. */
async function serve(listener: RequestListener): Promise<{ port: number; refused: RefusedConnections; handed: IncomingMessage[]; parsed: () => number }> {
  const refused: RefusedConnections = { total: 0, client: 0, pipelined: 0 };
  const server = createServer(oneAtATime(listener, refused));
  const handed: IncomingMessage[] = [];
  server.on('request', (req: IncomingMessage) => handed.push(req));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return { port: (server.address() as AddressInfo).port, refused, handed, parsed: () => handed.length };
}

/** One connection (from `localAddress`, 127.0.0.1 by default) that writes `requests` in one write and keeps what comes back. */
function pipeline(port: number, requests: readonly string[], localAddress?: string): { socket: Socket; received: () => string; closed: () => boolean } {
  const socket = connect({ port, host: '127.0.0.1', ...(localAddress === undefined ? {} : { localAddress }) }, () => socket.write(requests.join('')));
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return { socket, received: () => received, closed: () => closed };
}

const getOf = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
const bodiesOf = (received: string): string[] => received.split('HTTP/1.1 ').slice(1).map((answer) => answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('requests sent ahead on one connection', () => {
  it('start one at a time, in order, each once the answer before it is out', async () => {
    let running = 0;
    let most = 0;
    const { port } = await serve((req, res) => {
      most = Math.max(most, ++running);
      // Answered a turn later: a request started meanwhile would be running beside it.
      setImmediate(() => {
        running--;
        res.end(req.url);
      });
    });
    const paths = Array.from({ length: 10 }, (_, index) => `/${index}`);
    const client = pipeline(port, paths.map(getOf));
    await until(() => bodiesOf(client.received()).length === 10, 'ten answers');
    client.socket.destroy();
    assert.deepEqual(bodiesOf(client.received()), paths);
    assert.equal(most, 1);
  });

  it(`may wait ${MAX_WAITING} deep behind the one being answered`, async () => {
    const held: ServerResponse[] = [];
    const server = await serve((_req: IncomingMessage, res) => (held.length === 0 ? held.push(res) : res.end('later')));
    const client = pipeline(server.port, Array.from({ length: MAX_WAITING + 1 }, () => getOf('/')));
    await until(() => server.parsed() === MAX_WAITING + 1, 'every request parsed');
    held[0]!.end('first');
    await until(() => bodiesOf(client.received()).length === MAX_WAITING + 1, 'every answer');
    assert.equal(client.closed(), false);
    assert.equal(server.refused.pipelined, 0);
    client.socket.destroy();
  });

  it('close the connection at one more, unstarted, and are counted', async () => {
    let started = 0;
    const server = await serve(() => started++);
    const client = pipeline(server.port, Array.from({ length: MAX_WAITING + 2 }, () => getOf('/')));
    await until(() => client.closed(), 'the connection closed');
    assert.equal(started, 1);
    assert.equal(server.refused.pipelined, 1);
  });

  it('that are dropped with the connection are ended without an error, so Node makes none of its own for each', async () => {
    let started = 0;
    const server = await serve(() => started++);
    const client = pipeline(server.port, Array.from({ length: 200 }, () => getOf('/')));
    // Every request as Node handed it over: the one started, those waiting, the one that closed it and those after.
    const { handed } = server;
    // One write: Node parses it in one read (the rest of a read is parsed after a cut, a later read is not).
    await until(() => client.closed() && handed.length > MAX_WAITING + 1 && handed.every((req) => req.destroyed), 'the requests parsed, every one ended');
    assert.equal(started, 1);
    const dropped = handed.slice(MAX_WAITING + 1);
    // Before, each was left to Node's abort: an ECONNRESET error made, its stack formatted, and emitted.
    assert.deepEqual(dropped.map((req) => req.errored), dropped.map(() => null));
  });
});

describe('the service, sent a pipeline', () => {
  const start = serviceStarter();
  const echo = (text: string): string => {
    const body = JSON.stringify({ text });
    return `POST /v1/kernel-probe/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };

  it('answers one within the bound in order, and closes one of 1,000 small POSTs; the next client is answered', async () => {
    const service = await start({ metrics: { enabled: true } });
    const port = Number(new URL(service.url).port);
    const texts = Array.from({ length: MAX_WAITING }, (_, index) => `t${index}`);
    const polite = pipeline(port, texts.map(echo));
    await until(() => bodiesOf(polite.received()).length === texts.length, 'every answer');
    polite.socket.destroy();
    assert.deepEqual(bodiesOf(polite.received()).map((body) => (JSON.parse(body) as { text: string }).text), texts);
    // Before, every request parsed was started, each context waiting for its turn: 100,000 of them, unread, held 1 GB.
    const flood = pipeline(port, Array.from({ length: 1000 }, (_, index) => echo(`f${index}`)));
    await until(() => flood.closed(), 'the flood cut');
    assert.ok(bodiesOf(flood.received()).length < 1000);
    assert.equal((await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'next' } })).status, 200);
    assert.match((await send(service.url, '/metrics', { method: 'GET' })).text, /^toolshed_connections_refused_total\{cap="pipelined"\} 1$/m);
  });
});

describe('a peer whose connections keep being closed for requests sent ahead', () => {
  const start = serviceStarter();

  it(`cools off after ${CUTS_TO_COOL} closes within ${COOL_MS / 1000} s of its first, an IPv6 /64 as one peer, until that time has passed`, () => {
    let now = 0;
    const cooled = new CooledPeers(() => now);
    for (let cut = 1; cut < CUTS_TO_COOL; cut++) cooled.cut('203.0.113.7');
    assert.equal(cooled.cooling('203.0.113.7'), false);
    now = COOL_MS - 1;
    cooled.cut('203.0.113.7');
    assert.equal(cooled.cooling('203.0.113.7'), true);
    assert.equal(cooled.cooling('203.0.113.8'), false);
    now = COOL_MS;
    assert.equal(cooled.cooling('203.0.113.7'), false);
    // Closes spread wider than the period never add up.
    for (let cut = 0; cut < 2 * CUTS_TO_COOL; cut++) {
      now += COOL_MS / 2;
      cooled.cut('203.0.113.9');
      now += COOL_MS / 2;
    }
    assert.equal(cooled.cooling('203.0.113.9'), false);
    for (let cut = 0; cut < CUTS_TO_COOL; cut++) cooled.cut(`2001:db8::${cut + 1}`);
    assert.equal(cooled.cooling('2001:db8::ffff'), true);
    assert.equal(cooled.cooling('2001:db8:0:1::1'), false);
  });

  it(`has its next connection closed as it is accepted, unread, while others are answered`, async () => {
    const service = await start({ metrics: { enabled: true } });
    const port = Number(new URL(service.url).port);
    for (let cut = 0; cut < CUTS_TO_COOL; cut++) {
      const flood = pipeline(port, Array.from({ length: 1000 }, () => getOf('/healthz')));
      await until(() => flood.closed(), 'the flood cut');
    }
    // Before, this connection was read: each flood's cut came after Node had parsed a read of about 600 requests.
    const next = pipeline(port, [getOf('/healthz')]);
    await until(() => next.closed(), 'the next connection closed');
    assert.equal(next.received(), '');
    // Another peer, on one connection: its /healthz, then /metrics, which counts every close.
    const other = pipeline(port, [getOf('/healthz'), getOf('/metrics')], '127.0.0.2');
    await until(() => bodiesOf(other.received()).length === 2, 'the other peer answered');
    other.socket.destroy();
    const [health, metrics] = bodiesOf(other.received());
    assert.deepEqual(JSON.parse(health!), { status: 'ok' });
    assert.match(metrics!, new RegExp(`^toolshed_connections_refused_total\\{cap="pipelined"\\} ${CUTS_TO_COOL + 1}$`, 'm'));
  });
});
