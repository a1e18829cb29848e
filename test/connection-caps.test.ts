// The caps on open connections (kernel/http/connection-caps.ts), over real sockets since connections
// are the subject: past server.connectionsPerClient from one peer address, or server.maxConnections
// in all, a new connection is closed as it is accepted, unanswered, and the others are not touched;
// /metrics counts each by its cap.
// Clients are told apart by their own address: every 127.x.y.z is loopback on Linux.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { send } from './support/http.js';
import { serviceStarter, type TestService } from './support/service.js';
import { until } from './support/until.js';

const echo = '/v1/kernel-probe/echo';
const start = serviceStarter();
const sockets: Socket[] = [];
after(() => sockets.forEach((socket) => socket.destroy()));

/** A connection from `localAddress` that sends the start of a request and stalls in its headers. */
function stalled(service: TestService, localAddress: string): Socket {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(service.url).port), localAddress }, () => socket.write(`POST ${echo} HTTP/1.1\r\nHost: x\r\n`));
  socket.on('error', () => undefined);
  sockets.push(socket);
  return socket;
}

/** A whole request from `localAddress` on a connection of its own: 'answered' (with its status line) or 'closed' unanswered. */
function ask(service: TestService, localAddress: string): Promise<string> {
  return new Promise((resolve) => {
    const body = '{"text":"hi"}';
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(service.url).port), localAddress }, () =>
      socket.write(`POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`),
    );
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received === '' ? 'closed' : `answered ${received.split('\r\n', 1)[0]}`));
  });
}

/** Resolves once the server holds `count` connections. */
async function holding(service: TestService, count: number): Promise<void> {
  let open = -1;
  const look = (): void => {
    service.server.getConnections((_error, value) => (open = value));
  };
  look();
  await until(() => {
    if (open === count) return true;
    look();
    return false;
  }, `${count} connections open`);
}

/** What /metrics says the caps closed (`toolshed_connections_refused_total`). */
async function refusedOf(service: TestService): Promise<{ total: number; client: number }> {
  const text = (await send(service.url, '/metrics', { method: 'GET' })).text;
  const count = (cap: string): number => Number(new RegExp(`^toolshed_connections_refused_total\\{cap="${cap}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
  return { total: count('total'), client: count('client') };
}

describe('server.connectionsPerClient', () => {
  it('closes a connection past the cap from one address as it is accepted, and answers other addresses', async () => {
    const service = await start({ server: { connectionsPerClient: 3 }, metrics: { enabled: true } });
    const held = [1, 2, 3].map(() => stalled(service, '127.0.0.7'));
    await holding(service, 3);
    assert.equal(await ask(service, '127.0.0.7'), 'closed');
    assert.equal(await ask(service, '127.0.0.8'), 'answered HTTP/1.1 200 OK');
    // One of the three closes: the address has room again.
    held[0]!.destroy();
    await holding(service, 2);
    assert.equal(await ask(service, '127.0.0.7'), 'answered HTTP/1.1 200 OK');
    assert.deepEqual(await refusedOf(service), { total: 0, client: 1 });
  });

  it('counts the peer, and leaves a listed trusted proxy and every peer behind a hop count out of it', async () => {
    const listed = await start({ server: { connectionsPerClient: 1, trustProxy: ['127.0.0.9'] } });
    stalled(listed, '127.0.0.9');
    await holding(listed, 1);
    assert.equal(await ask(listed, '127.0.0.9'), 'answered HTTP/1.1 200 OK');
    stalled(listed, '127.0.0.10');
    await holding(listed, 2);
    assert.equal(await ask(listed, '127.0.0.10'), 'closed');
    const hops = await start({ server: { connectionsPerClient: 1, trustProxy: 1 } });
    stalled(hops, '127.0.0.11');
    await holding(hops, 1);
    assert.equal(await ask(hops, '127.0.0.11'), 'answered HTTP/1.1 200 OK');
  });
});

describe('server.maxConnections', () => {
  it('closes a connection past the cap in all as it is accepted, whatever its address', async () => {
    const service = await start({ server: { maxConnections: 2, connectionsPerClient: 0 }, metrics: { enabled: true } });
    const held = [stalled(service, '127.0.0.12'), stalled(service, '127.0.0.13')];
    await holding(service, 2);
    assert.equal(await ask(service, '127.0.0.14'), 'closed');
    held[0]!.destroy();
    await holding(service, 1);
    assert.equal(await ask(service, '127.0.0.14'), 'answered HTTP/1.1 200 OK');
    assert.deepEqual(await refusedOf(service), { total: 1, client: 0 });
  });
});
