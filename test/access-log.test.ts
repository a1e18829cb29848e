// The hand-built access-log line must be the very line pino writes for the same entry.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { accessLine, accessLogger, type AccessEntry } from '../kernel/http/access-log.js';
import { send } from './support/http.js';
import { startTestService } from './support/service.js';

/** What pino itself writes for `entry`, with its clock fixed at `time`. */
function pinoLine(entry: AccessEntry, time: number): string {
  let written = '';
  const logger = pino({ level: 'info', base: null, messageKey: 'msg', timestamp: () => `,"time":${time}` }, { write: (line: string) => (written += line) });
  logger.info(entry, 'request');
  return written;
}

const full: AccessEntry = { requestId: '01JD0000000000000000000000', operation: 'base64.encode', method: 'POST', status: 200, durationMs: 0.42, ip: '::ffff:127.0.0.1', key: 'ci "quoted" \\ ünïcode' };

describe('the access-log line', () => {
  it('is byte for byte the line pino writes, undefined fields left out', () => {
    const time = 1732406400123;
    // Plain values (quoted as they are) and values JSON must escape (the key; an address a proxy header gave).
    const escaped = { ...full, ip: '10.0.0.1"\u0001', operation: 'a\\b' };
    // The fields in the order the line has them, path included (pino keeps an object's order).
    const withPath: AccessEntry = { requestId: full.requestId, operation: undefined, method: 'GET', path: '/tools/base64/encode', status: 200, durationMs: 1, ip: '127.0.0.1', key: undefined };
    const oddPath: AccessEntry = { ...withPath, path: '/v1/caf\u00e9"\n' };
    for (const entry of [full, escaped, { ...full, operation: undefined, key: undefined }, { ...full, requestId: undefined, status: 404, durationMs: 12 }, withPath, oddPath]) {
      assert.equal(accessLine(entry, time), pinoLine(entry, time));
    }
  });

  it("is written to the logger's stream at info, and not at warn", () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) };
    accessLogger(pino({ level: 'info', base: null, messageKey: 'msg' }, destination))(full);
    accessLogger(pino({ level: 'warn', base: null, messageKey: 'msg' }, destination))(full);
    assert.equal(lines.length, 1);
    assert.deepEqual({ ...JSON.parse(lines[0]!), time: 0 }, { level: 30, time: 0, ...full, msg: 'request' });
  });
});

describe('the access log over HTTP (issue 39)', () => {
  const requestLines = (logs: string[]): Record<string, unknown>[] =>
    logs.flatMap((chunk) => chunk.split('\n')).filter((line) => line.includes('"msg":"request"')).map((line) => JSON.parse(line) as Record<string, unknown>);

  it('names the path of a request without an operation (never its query), and not of an operation', async () => {
    const service = await startTestService({});
    try {
      await send(service.url, '/healthz?secret=1', { method: 'GET' });
      await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' } });
      await send(service.url, '/v1/a-secret-typed-as-a-path', { body: { text: 'x' } });
      const [health, echo, unknown] = requestLines(service.logs);
      assert.equal(health!.path, '/healthz');
      assert.ok(!JSON.stringify(health).includes('secret'));
      assert.equal(echo!.path, undefined);
      // A path the service refused is the client's own text: its first segment only.
      assert.equal(unknown!.path, '/v1/…');
      assert.equal(echo!.operation, 'kernel-probe.echo');
    } finally {
      await service.stop();
    }
  });

  it('logs a request cut at server.shutdownTimeoutMs with its address and 499, not 400 with no address', async () => {
    const service = await startTestService({ server: { shutdownTimeoutMs: 200 } });
    const received = new Promise((resolve) => service.server.once('request', resolve));
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // Headers and 1 of 10 body bytes: the request is in flight when the service stops.
    socket.write('POST /v1/kernel-probe/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{');
    await received;
    await service.stop();
    await closed;
    // The cut request's middleware ends a few ticks after its socket closed.
    while (requestLines(service.logs).length === 0) await new Promise((resolve) => setImmediate(resolve));
    const lines = requestLines(service.logs);
    assert.equal(lines.length, 1, service.logs.join(''));
    assert.equal(lines[0]!.status, 499);
    assert.equal(lines[0]!.ip, '127.0.0.1');
  });
});
