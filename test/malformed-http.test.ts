// What Node's HTTP parser refuses, and framing the body reader refuses, answered as the contract's
// JSON error over a raw socket (fetch and node:http cannot send most of these requests).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { send } from './support/http.js';
import { startTestService, type TestService } from './support/service.js';

let service: TestService;
let port: number;
before(async () => {
  service = await startTestService();
  port = Number(new URL(service.url).port);
});
after(() => service.stop());

/** Writes `raw` to a fresh connection and resolves with everything the server sends before closing. */
function exchange(raw: string | Buffer): Promise<{ status: number; headers: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: body === '' ? undefined : JSON.parse(body) });
    });
  });
}

const codeOf = (body: unknown): string => (body as { error: { code: string } }).error.code;
const echo = '/v1/kernel-probe/echo';

describe('requests Node refuses before the kernel sees them', () => {
  it('answers headers over 16 KiB (one 100 KB Authorization header) with 431 JSON', async () => {
    const answer = await exchange(`POST ${echo} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(100_000)}\r\n\r\n`);
    assert.equal(answer.status, 431);
    assert.match(answer.headers, /Content-Type: application\/json/);
    assert.equal(codeOf(answer.body), 'headers_too_large');
  });

  it('answers 3,000 headers the same way', async () => {
    const headers = Array.from({ length: 3000 }, (_, index) => `X-H${index}: v\r\n`).join('');
    const answer = await exchange(`POST ${echo} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    assert.equal(answer.status, 431);
    assert.equal(codeOf(answer.body), 'headers_too_large');
  });

  it('answers a malformed request line and an unknown method with 400 JSON', async () => {
    for (const line of ['GARBAGE\r\n\r\n', 'POST /v1 HTTP/9.9.9\r\n\r\n', `FOO${'O'.repeat(20)} ${echo} HTTP/1.1\r\nHost: x\r\n\r\n`, '\u0000\u0001\u0002\r\n\r\n']) {
      const answer = await exchange(line);
      assert.equal(answer.status, 400, JSON.stringify(line));
      assert.equal(codeOf(answer.body), 'bad_request');
      // docs/errors.md: every 400 carries error.details; here the request as a whole is wrong.
      assert.deepEqual((answer.body as { error: { details: unknown } }).error.details, [{ path: '', message: 'The request is not valid HTTP/1.1' }]);
    }
  });
});

describe('framing the body reader refuses', () => {
  it('answers 415 for a POST without Content-Type, to an operation and to /mcp alike (issue 47)', async () => {
    // Such a POST is a CORS "simple request": a page on any origin could send it with no preflight.
    const refusal = { error: { code: 'unsupported_media_type', message: 'Content-Type must be application/json' } };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    for (const [path, body, headers] of [
      [echo, { text: 'x' }, {}],
      [echo, undefined, {}],
      ['/mcp', initialize, { Accept: 'application/json, text/event-stream' }],
    ] as const) {
      const answer = await send(service.url, path, { body, headers: { ...headers, 'Content-Type': undefined, Origin: 'https://elsewhere.example' } });
      assert.equal(answer.status, 415, path);
      assert.deepEqual(answer.json, refusal, path);
    }
    // text/plain, the other type a page may send without a preflight, is refused as before.
    assert.equal((await send(service.url, echo, { body: '{"text":"x"}', headers: { 'Content-Type': 'text/plain' } })).status, 415);
    assert.equal((await send(service.url, echo, { body: { text: 'x' } })).status, 200);
  });

  it('answers 415 for a charset other than UTF-8, and accepts utf-8 in any spelling', async () => {
    const body = JSON.stringify({ text: 'x' });
    for (const type of ['application/json; charset=utf-16', 'application/json;charset=ISO-8859-1', 'application/json; charset=']) {
      const answer = await send(service.url, echo, { body, headers: { 'Content-Type': type } });
      assert.equal(answer.status, 415, type);
      assert.equal(codeOf(answer.json), 'unsupported_media_type');
    }
    for (const type of ['application/json; charset=UTF-8', 'application/json; charset="utf-8"', 'application/json;charset=utf8']) {
      assert.equal((await send(service.url, echo, { body, headers: { 'Content-Type': type } })).status, 200, type);
    }
  });

  it('answers 501 for a transfer coding other than chunked, and JSON 400 where Node refuses one', async () => {
    const chunked = `3\r\n{}\n\r\n0\r\n\r\n`;
    const layered = await exchange(`POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunked}`);
    assert.equal(layered.status, 501);
    assert.equal(codeOf(layered.body), 'not_implemented');
    const bare = await exchange(`POST ${echo} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n${chunked}`);
    assert.equal(bare.status, 400);
    assert.equal(codeOf(bare.body), 'bad_request');
  });

  it('answers 400 to a chunked body of 1-byte chunks, and the next client is answered', async () => {
    // 1,500 bytes of JSON in 1-byte chunks, sent at once: cut at the 1,029th (before the rule on
    // pieces, 1 MiB of them held the main thread for minutes, a million buffers moved to a worker
    // one transfer each). The rest is few enough for the lingering close to read to its end, so the
    // answer is not lost to a reset; a longer rest is cut there too (lingering-close.test.ts).
    const json = JSON.stringify({ text: 'a'.repeat(1500 - 11) });
    const chunks = Array.from(json, (character) => `1\r\n${character}\r\n`).join('');
    const cut = await exchange(`POST ${echo} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`);
    assert.equal(cut.status, 400);
    assert.equal(codeOf(cut.body), 'bad_request');
    assert.match((cut.body as { error: { message: string } }).error.message, /too many small pieces/);
    assert.deepEqual((cut.body as { error: { details: unknown } }).error.details, []);
    assert.match(cut.headers, /connection: close/i);
    const next = await send(service.url, echo, { body: { text: 'hi' } });
    assert.deepEqual([next.status, next.json], [200, { text: 'hi', mode: 'a', count: 1, tags: [] }]);
  });
});
