// The README's rate-limit claim, exactly: which answers carry RateLimit-* headers and which do not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { send, type Answer } from './support/http.js';
import { startTestService, type TestService } from './support/service.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

let service: TestService;
before(async () => {
  service = await startTestService({ rateLimit: { anonymous: { max: 1000 } }, metrics: { enabled: true }, docs: { enabled: true } });
});
after(() => service.stop());

/** The raw answer to `raw` on a fresh connection. */
function rawAnswer(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(service.url).port), '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const limited = (answer: Answer): boolean =>
  ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].every((name) => typeof answer.headers[name] === 'string');
const untouched = (answer: Answer): boolean => Object.keys(answer.headers).every((name) => !name.startsWith('ratelimit-'));

describe('RateLimit headers', () => {
  it('the README claims them for /v1/ and names what carries none', () => {
    assert.match(readme, /Every answer to a request under `\/v1\/` carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`/);
    assert.doesNotMatch(readme, /Every answer carries `RateLimit/, 'the unbounded claim is gone');
    for (const exempt of ['`/healthz`', '`/metrics`', '`/docs`', 'CORS preflights', '(400, 408, 431)']) assert.ok(readme.includes(exempt), exempt);
  });

  it('are on every answer under /v1/: 200, 400, 401, 404, 405, 415 and the OpenAPI document', async () => {
    const answers = {
      ok: await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' } }),
      invalid: await send(service.url, '/v1/kernel-probe/echo', { body: { text: 1 } }),
      unauthorized: await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' }, headers: { Authorization: 'Bearer nope' } }),
      unknown: await send(service.url, '/v1/no-such/operation', { body: {} }),
      wrongMethod: await send(service.url, '/v1/kernel-probe/echo', { method: 'GET' }),
      wrongType: await send(service.url, '/v1/kernel-probe/echo', { body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      document: await send(service.url, '/v1/openapi.json', { method: 'GET' }),
    };
    assert.deepEqual(Object.values(answers).map((answer) => answer.status), [200, 400, 401, 404, 405, 415, 200]);
    for (const [name, answer] of Object.entries(answers)) assert.ok(limited(answer), name);
  });

  it('are on the 429 itself', async () => {
    const strict = await startTestService({ rateLimit: { anonymous: { max: 1 } } });
    try {
      await send(strict.url, '/v1/kernel-probe/echo', { body: { text: 'x' } });
      const refused = await send(strict.url, '/v1/kernel-probe/echo', { body: { text: 'x' } });
      assert.equal(refused.status, 429);
      assert.ok(limited(refused));
      assert.equal(refused.headers['ratelimit-remaining'], '0');
    } finally {
      await strict.stop();
    }
  });

  it('are on none of /healthz, /metrics, /docs, / (the tool list), a tool page, a CORS preflight', async () => {
    const answers = {
      health: await send(service.url, '/healthz', { method: 'GET' }),
      metrics: await send(service.url, '/metrics', { method: 'GET' }),
      docs: await send(service.url, '/docs', { method: 'GET' }),
      root: await send(service.url, '/', { method: 'GET' }),
      tool: await send(service.url, '/tools/kernel-probe/echo', { method: 'GET' }),
      preflight: await send(service.url, '/v1/kernel-probe/echo', { method: 'OPTIONS', headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST' } }),
    };
    assert.deepEqual(Object.values(answers).map((answer) => answer.status), [200, 200, 200, 200, 200, 204]);
    for (const [name, answer] of Object.entries(answers)) assert.ok(untouched(answer), name);
  });

  it('are on none of the answers to requests Node refuses before a path is read (400, 431)', async () => {
    for (const raw of ['GARBAGE\r\n\r\n', `GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]) {
      const answer = await rawAnswer(raw);
      assert.match(answer, /^HTTP\/1\.1 4(00|31) /);
      assert.doesNotMatch(answer, /ratelimit-/i);
    }
  });

  it('are on the 408 of a request whose body stopped after its path was read', async () => {
    const slow = await startTestService({ server: { headersTimeoutMs: 100, requestTimeoutMs: 300 } });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(slow.url).port), '127.0.0.1', () => {
          // The headers and 1 of 10 body bytes; the rest never comes.
          socket.write('POST /v1/kernel-probe/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{');
        });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      assert.match(answer, /^HTTP\/1\.1 408 /);
      for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) assert.match(answer, new RegExp(`\r\n${name}: \\d+\r\n`), name);
    } finally {
      await slow.stop();
    }
  });
});
