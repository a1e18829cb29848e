// A client that writes its whole body before it reads (Node's http client without
// `Expect: 100-continue`, often) must receive the 413, not a reset (issue 22). The server answers
// with Connection: close and reads the rest of the declared body before it closes (kernel/http/linger.ts):
// a socket closed with unread bytes answers them with a TCP reset, and the client's system then
// drops the answer it has not read yet.
import assert from 'node:assert/strict';
import { IncomingMessage, request } from 'node:http';
import { connect, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FREE_PIECES } from '../kernel/host/pieces.js';
import { LINGER_MAX_BYTES, lingerBeforeClose } from '../kernel/http/linger.js';
import { startTestService, type TestService } from './support/service.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(() => service.stop());

/** The case: 1,032 bytes over the 10 MiB cap (10,485,760). */
const DECLARED = 10_486_792;
const ATTEMPTS = 10;
const path = '/v1/kernel-probe/echo';
const tooLarge = { error: { code: 'payload_too_large', message: 'The request body is larger than 10485760 bytes' } };

interface RawAnswer {
  text: string;
  written: number;
  error?: string;
}

/**
 * Sends the headers and `size` body bytes on a raw socket without reading anything until every byte
 * is written (or writing fails), then reads the answer until the server closes.
 */
function writeAllThenRead(declared: number, size: number): Promise<RawAnswer> {
  const { port, hostname } = new URL(service.url);
  return new Promise((resolve) => {
    const socket = connect({ port: Number(port), host: hostname });
    socket.pause();
    let text = '';
    let written = 0;
    let error: string | undefined;
    socket.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code));
    socket.on('close', () => resolve({ text, written, ...(error === undefined ? {} : { error }) }));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = (): void => {
      while (written < size && error === undefined) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - written));
        written += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      // Everything is written (or writing failed): only now read.
      socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
      socket.resume();
      socket.end();
    };
    pump();
  });
}

function bodyOf(raw: string): unknown {
  const start = raw.indexOf('\r\n\r\n');
  return start === -1 ? undefined : JSON.parse(raw.slice(start + 4));
}

describe('413 to a client that writes the whole body first', () => {
  it('reaches a raw socket that reads only after writing every byte, in every attempt', async () => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const answer = await writeAllThenRead(DECLARED, DECLARED);
      assert.equal(answer.error, undefined, `attempt ${attempt}: ${answer.error}`);
      assert.equal(answer.written, DECLARED);
      assert.match(answer.text, /^HTTP\/1\.1 413 Payload Too Large\r\n/, `attempt ${attempt}`);
      assert.match(answer.text, /\r\nConnection: close\r\n/i);
      assert.deepEqual(bodyOf(answer.text), tooLarge);
    }
  });

  it('reaches Node\'s http client writing the body in one go without Expect, in every attempt', async () => {
    const body = Buffer.alloc(DECLARED, 0x20);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const outcome = await new Promise<{ status?: number; text?: string; error?: string }>((resolve) => {
        const req = request(`${service.url}${path}`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': DECLARED } }, (res) => {
          let text = '';
          res.on('data', (data: Buffer) => (text += data.toString()));
          res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code }));
        req.end(body);
      });
      assert.equal(outcome.error, undefined, `attempt ${attempt}: ${outcome.error}`);
      assert.equal(outcome.status, 413);
      assert.deepEqual(JSON.parse(outcome.text!), tooLarge);
    }
  });

  it('stops reading after LINGER_MAX_BYTES: a client sending far more is cut off', async () => {
    // 64 MiB declared and sent: the server reads at most 16 MiB more, then closes; writing fails.
    const answer = await writeAllThenRead(64 * 1024 * 1024, 64 * 1024 * 1024);
    assert.ok(answer.error === 'EPIPE' || answer.error === 'ECONNRESET', String(answer.error));
    assert.ok(answer.written < 64 * 1024 * 1024 && answer.written > LINGER_MAX_BYTES, String(answer.written));
  });
});

describe('lingering after such an answer', () => {
  it('stops at a rest that comes in too many small pieces, as reading does', async () => {
    // A request on an unconnected socket: the pieces are pushed by hand, each one a 'data' event.
    const req = new IncomingMessage(new Socket());
    lingerBeforeClose(req);
    // The answer is written: Node calls destroySoon, and the linger reads on.
    (req.socket as Socket & { destroySoon(): void }).destroySoon();
    for (let piece = 1; piece <= FREE_PIECES; piece++) req.push(Buffer.of(0x20));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(req.socket.destroyed, false, 'within the rule, the rest is read');
    for (let piece = 0; piece < 10; piece++) req.push(Buffer.of(0x20));
    await new Promise((resolve) => setImmediate(resolve));
    // 1,034 bytes are far below LINGER_MAX_BYTES: the pieces alone closed it.
    assert.equal(req.socket.destroyed, true);
  });
});

describe('an answer given before the body is read', () => {
  /** Writes a chunked POST to `target` whose body is `megabytes` MB of 1-byte chunks, without reading; resolves with the bytes written before the server closed. */
  function tinyChunksTo(target: string, megabytes: number): Promise<{ written: number; total: number; text: string }> {
    const { port, hostname } = new URL(service.url);
    const block = Buffer.from('1\r\n \r\n'.repeat(64 * 1024 / 6));
    const total = megabytes * 2 ** 20;
    return new Promise((resolve) => {
      const socket = connect({ port: Number(port), host: hostname });
      let written = 0;
      let text = '';
      let failed = false;
      socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
      socket.on('error', () => (failed = true));
      socket.on('close', () => resolve({ written, total, text }));
      socket.write(`POST ${target} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      const pump = (): void => {
        while (written < total && !failed) {
          written += block.length;
          if (!socket.write(block)) return void socket.once('drain', pump);
        }
        socket.end();
      };
      pump();
    });
  }

  it('closes the connection within bounds, not after a chunked body that goes on and on', async () => {
    // 404 and 405 never read the body. Left to Node, it was read to its end (7 million chunks here,
    // seconds of the main thread), however long it went on; now the answer closes the connection
    // and the rest is read only within the lingering close's bounds. What the sockets' buffers took
    // before the close (about 4 MB) stays far below half of the 40 MB sent.
    for (const target of ['/v1/no-such/operation', '/healthz']) {
      const { written, total, text } = await tinyChunksTo(target, 40);
      assert.match(text, /^HTTP\/1\.1 40[45] /, target);
      assert.match(text, /\r\nConnection: close\r\n/i, target);
      assert.ok(written < total / 2, `${target}: ${written} of ${total} bytes written before the close`);
    }
  });
});
