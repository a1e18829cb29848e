// Slow and silent clients get the contract's 408 JSON (docs/errors.md), whether they trickle their
// headers or body or stop sending altogether. Raw sockets: node:http cannot send a request this badly.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from './support/service.js';

interface Outcome {
  readonly status: number;
  readonly headers: string;
  readonly body: unknown;
  /** How many pieces the client had sent when the answer (or the close) came. */
  readonly piecesSent: number;
}

/**
 * Sends `head`, then one of `pieces` every 100 ms (cycling) until the server answers or closes,
 * sending at most `maxPieces`; resolves with what the server sent. With no pieces it stays silent.
 */
function trickle(port: number, head: string, pieces: readonly string[], maxPieces: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(head);
      if (pieces.length === 0) return;
      timer = setInterval(() => {
        if (sent >= maxPieces || chunks.length > 0 || socket.destroyed) return clearInterval(timer);
        socket.write(pieces[sent % pieces.length]!);
        sent++;
      }, 100);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [headers = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(headers.split(' ')[1]), headers, body: body === '' ? undefined : JSON.parse(body), piecesSent: sent });
    });
  });
}

const echo = '/v1/kernel-probe/echo';
const codeOf = (body: unknown): string | undefined => (body as { error?: { code: string } } | undefined)?.error?.code;

describe('server.headersTimeoutMs and server.requestTimeoutMs', () => {
  let service: TestService;
  let port: number;
  before(async () => {
    // Small bounds so the test takes a second, not a minute; the idle close stays far away (60 s).
    service = await startTestService({ server: { headersTimeoutMs: 300, requestTimeoutMs: 1500, writeTimeoutMs: 60_000 } });
    port = Number(new URL(service.url).port);
  });
  after(() => service.stop());

  it('answers 408 JSON to a request line followed by silence', async () => {
    const outcome = await trickle(port, `POST ${echo} HTTP/1.1\r\n`, [], 0);
    assert.equal(outcome.status, 408);
    assert.match(outcome.headers, /Content-Type: application\/json/);
    assert.equal(codeOf(outcome.body), 'request_timeout');
  });

  it('answers 408 to headers trickled one line at a time, while they still trickle', async () => {
    // 300 ms allow about 3 lines; 100 lines (10 s) only guard against a server that never answers.
    const outcome = await trickle(port, `POST ${echo} HTTP/1.1\r\nHost: x\r\n`, ['X-Slow: y\r\n'], 100);
    assert.equal(outcome.status, 408);
    assert.equal(codeOf(outcome.body), 'request_timeout');
    assert.ok(outcome.piecesSent < 100, 'the answer came before the client stopped trickling');
  });

  it('answers 408 to a body trickled one byte at a time, while it still trickles', async () => {
    const head = `POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    // 1.5 s allow about 15 bytes; 500 (50 s) only guard against a server that never answers.
    const outcome = await trickle(port, head, [' '], 500);
    assert.equal(outcome.status, 408);
    assert.equal(codeOf(outcome.body), 'request_timeout');
    assert.ok(outcome.piecesSent < 500, 'the answer came before the client stopped trickling');
  });
});

describe('server.writeTimeoutMs in the middle of a request', () => {
  let service: TestService;
  let port: number;
  before(async () => {
    // The idle close (1 s) comes long before the whole-request bound (the default, 60 s).
    service = await startTestService({ server: { writeTimeoutMs: 1000 }, operations: { deadlineMs: 500 }, workers: { requestBudgetMs: 500 } });
    port = Number(new URL(service.url).port);
  });
  after(() => service.stop());

  it('answers 408 JSON, not a bare close, to a body that stops arriving', async () => {
    const head = `POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text":`;
    const outcome = await trickle(port, head, [], 0);
    assert.equal(outcome.status, 408);
    assert.match(outcome.headers, /Connection: close/i);
    assert.equal(codeOf(outcome.body), 'request_timeout');
  });
});
