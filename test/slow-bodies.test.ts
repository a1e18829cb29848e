// Slow clients against the reading budget (issue 44), over real sockets since slow clients are the
// subject: a body holds what has arrived of it, never what it declares; one client address holds at
// most its share; a body arriving below the rate floor is cut. Clients are told apart by their own
// address: every 127.x.y.z is loopback on Linux, and the service counts each as another client.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { serviceStarter, type TestService } from './support/service.js';
import { until } from './support/until.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const echo = '/v1/kernel-probe/echo';
const attacker = '127.0.0.3';
const other = '127.0.0.2';
const start = serviceStarter();

interface RawAnswer {
  readonly status: number;
  readonly headers: string;
  readonly json: { error?: { code: string; message: string }; text?: string };
}

/** A POST to `echo` from `localAddress` declaring `declared` bytes, of which `first` is sent now; `answer` settles when the service answers. */
function openBody(service: TestService, localAddress: string, declared: number, first: Buffer): { socket: Socket; answer: Promise<RawAnswer> } {
  const { port } = new URL(service.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress });
  socket.on('error', () => undefined);
  socket.write(`POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
  socket.write(first);
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const settle = (): void => {
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
      // The answer is whole once its declared length is here (a 200 keeps the connection open).
      if (end === -1 || length === null || received.length < end + 4 + Number(length[1])) return;
      socket.removeAllListeners('data');
      resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, end), json: JSON.parse(text.slice(end + 4)) as RawAnswer['json'] });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      settle();
    });
    socket.once('close', () => reject(new Error(`closed without a whole answer: ${JSON.stringify(received.toString('utf8').slice(0, 200))}`)));
  });
  // A body the test gives up on (its socket destroyed) never answers: that is not a failure.
  answer.catch(() => undefined);
  return { socket, answer };
}

/** `{"text":"aaa…"}` of exactly `size` bytes. */
const echoBody = (size: number): Buffer => Buffer.from(`{"text":"${'a'.repeat(size - 11)}"}`);

describe('the slow-body hold', () => {
  const sockets: Socket[] = [];
  after(() => sockets.forEach((socket) => socket.destroy()));

  it('holds 13 connections of one byte each against 10 MiB declarations to 13 bytes, and answers other clients 200', async () => {
    // The default budget (128 MiB) and share, with no rate floor: the bodies stay held through the test.
    const service = await start({ server: { minBodyBytesPerSecond: 0 } });
    // 12 × 10 MiB + 8 MiB = 128 MiB: counted as declared, these 13 bytes held the whole budget.
    const declared = [...Array.from({ length: 12 }, () => 10 * MiB), 8 * MiB];
    for (const length of declared) sockets.push(openBody(service, attacker, length, Buffer.from('{')).socket);
    await until(() => service.bodies.reading.inUse === 13, 'the 13 bytes are counted');
    const small = await send(service.url, echo, { body: { text: 'hello' }, localAddress: other });
    assert.equal(small.status, 200, small.text);
    assert.equal((small.json as { text: string }).text, 'hello');
    const large = echoBody(2 * MiB);
    const big = await send(service.url, echo, { body: large, headers: { 'Content-Type': 'application/json' }, localAddress: other });
    assert.equal(big.status, 200, big.text.slice(0, 200));
    assert.equal((big.json as { text: string }).text, 'a'.repeat(large.length - 11));
    // The attacker's own next body is read too: 13 bytes are far from its share.
    const own = await send(service.url, echo, { body: { text: 'mine' }, localAddress: attacker });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(service.bodies.reading.stats(), { bytes: 13, clients: 1, largestClientBytes: 13, reading: 13 }, 'the 13 are still being read');
  });
});

describe('server.readingBytesPerClient', () => {
  it("holds one address's slow bodies to its share (429), and another address's POST is read", async () => {
    const share = 256 * KiB;
    const service = await start({ server: { readingBytes: MiB, readingBytesPerClient: share, minBodyBytesPerSecond: 0 } });
    const body = echoBody(512 * KiB);
    const sent = 200 * KiB;
    const first = openBody(service, attacker, body.length, body.subarray(0, sent));
    await until(() => service.bodies.reading.inUse === sent, 'the first body is counted');
    // Three more of the same: without the share they would hold 800 KiB of the 1 MiB budget.
    for (let index = 0; index < 3; index++) {
      const next = openBody(service, attacker, body.length, body.subarray(0, sent));
      let answer: RawAnswer | undefined;
      void next.answer.then((given) => (answer = given));
      // Whichever comes first: the answer, or the address holding more than its share (the check gone).
      await until(() => answer !== undefined || service.bodies.reading.stats().largestClientBytes > share, 'an answer');
      next.socket.destroy();
      assert.ok(answer !== undefined, 'the address held more than its share');
      assert.equal(answer.status, 429);
      assert.deepEqual(answer.json, { error: { code: 'rate_limited', message: `This client address is sending more than ${share} bytes of request bodies at once; retry in 1 s` } });
      assert.match(answer.headers, /\r\nretry-after: 1\r\n/i);
      assert.match(answer.headers, /\r\nconnection: close\r\n/i);
    }
    assert.deepEqual(service.bodies.reading.stats(), { bytes: sent, clients: 1, largestClientBytes: sent, reading: 1 }, 'what the refused bodies held is given back');
    // Another address: its 600 KiB fit beside the first body's 200 KiB.
    const others = echoBody(600 * KiB);
    const answer = await send(service.url, echo, { body: others, headers: { 'Content-Type': 'application/json' }, localAddress: other });
    assert.equal(answer.status, 200, answer.text.slice(0, 200));
    assert.equal((answer.json as { text: string }).text, 'a'.repeat(others.length - 11));
    // A body alone is always read: the first one, finished, is answered.
    first.socket.write(body.subarray(sent));
    const whole = await first.answer;
    first.socket.destroy();
    assert.equal(whole.status, 200);
    assert.equal(whole.json.text, 'a'.repeat(body.length - 11));
    await until(() => service.bodies.reading.stats().clients === 0, 'everything is given back');
  });
});

describe('server.minBodyBytesPerSecond', () => {
  it('cuts a body that arrives slower than the floor once the grace period has passed: 408, connection closed', async () => {
    const service = await start({ server: { minBodyBytesPerSecond: 1024, bodyRateGraceMs: 200 } });
    const slow = openBody(service, attacker, 100, Buffer.from('{'));
    const answer = await slow.answer;
    slow.socket.destroy();
    assert.equal(answer.status, 408);
    assert.deepEqual(answer.json, { error: { code: 'request_timeout', message: 'The request body arrived slower than 1024 bytes per second' } });
    assert.match(answer.headers, /\r\nconnection: close\r\n/i);
    assert.deepEqual(service.bodies.reading.stats(), { bytes: 0, clients: 0, largestClientBytes: 0, reading: 0 });
  });
});

describe('server.sendingBytesPerClient', () => {
  const encode = '/v1/text-converter/encode';
  it("holds one address's unread answers to its share (429), and another address is answered", async () => {
    const share = MiB;
    const service = await start({ server: { sendingBytesPerClient: share } }, { builtinDir: builtinPluginDir });
    // 3 MiB of text in binary: a 27 MiB answer (3 MiB × 9 - 1 characters), more than the sockets'
    // buffers between the service and a client that never reads take in.
    const text = 'a'.repeat(3 * MiB);
    const body = JSON.stringify({ text, format: 'binary' });
    const { port } = new URL(service.url);
    const stalled = connect({ host: '127.0.0.1', port: Number(port), localAddress: attacker });
    stalled.on('error', () => undefined);
    stalled.pause();
    stalled.write(`POST ${encode} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await until(() => service.bodies.sending.heldBy(attacker) > 0, 'the unread answer is held');
    // A small answer to the same address is over its share now (an answer alone always goes: the first one did).
    const refused = await send(service.url, encode, { body: { text: 'hi' }, localAddress: attacker });
    assert.equal(refused.status, 429, refused.text);
    assert.deepEqual(refused.json, { error: { code: 'rate_limited', message: `This client address has more than ${share} bytes of answers it has not read yet; read them, or retry in 1 s` } });
    assert.equal(refused.headers['retry-after'], '1');
    // Another address is answered, a large answer too.
    const small = await send(service.url, encode, { body: { text: 'hi' }, localAddress: other });
    assert.equal(small.status, 200, small.text);
    assert.deepEqual(small.json, { bytes: '68 69', count: 2 });
    const large = await send(service.url, encode, { body, headers: { 'Content-Type': 'application/json' }, localAddress: other });
    assert.equal(large.status, 200, large.text.slice(0, 200));
    assert.deepEqual(large.json, { bytes: Array.from({ length: text.length }, () => '01100001').join(' '), count: text.length });
    // The client that never read goes away: its share is given back, and its next answer goes.
    stalled.destroy();
    await until(() => service.bodies.sending.holders().clients === 0, 'the unread answer is given back');
    const again = await send(service.url, encode, { body: { text: 'hi' }, localAddress: attacker });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.json, { bytes: '68 69', count: 2 });
  });

  it('holds a recipe answer sent as parts while its client does not read, and gives it back when the client goes', async () => {
    const service = await start({}, { builtinDir: builtinPluginDir });
    // A 27 MiB step answer: the recipe answers its bytes framed, as parts (recipes/run.ts).
    const body = JSON.stringify({ input: 'a'.repeat(3 * MiB), steps: [{ operation: 'text-converter/encode', body: { format: 'binary' } }] });
    const { port } = new URL(service.url);
    const stalled = connect({ host: '127.0.0.1', port: Number(port), localAddress: attacker });
    stalled.on('error', () => undefined);
    stalled.pause();
    stalled.write(`POST /v1/recipes/run HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    // {"result":{"bytes":"…","count":3145728}}: 3 MiB × 9 − 1 characters of digits and spaces, 39 around them.
    await until(() => service.bodies.sending.heldBy(attacker) > 0, 'the unread answer is held');
    assert.equal(service.bodies.sending.heldBy(attacker), 3 * MiB * 9 - 1 + 39);
    stalled.destroy();
    await until(() => service.bodies.sending.holders().clients === 0, 'the unread answer is given back');
  });
});
