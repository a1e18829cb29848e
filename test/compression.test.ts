// Answers of 1 KiB and more are compressed for clients that accept br or gzip; smaller ones, and
// every answer to a client that accepts neither, go out as they are.
import assert from 'node:assert/strict';
import { request, type IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES } from '../kernel/http/middleware/compress.js';
import { send } from './support/http.js';
import { startTestService, type TestService } from './support/service.js';

let service: TestService;
before(async () => {
  service = await startTestService({ workers: { offloadBytes: 1024 } });
});
after(() => service.stop());

const get = (path: string, acceptEncoding?: string) =>
  send(service.url, path, { method: 'GET', headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } });

/** An answer as raw bytes: send() decodes them as UTF-8 text, which would spoil compressed ones. */
function rawBytes(path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('answer compression', () => {
  it('compresses the OpenAPI document with br or gzip as accepted, to the very bytes sent uncompressed', async () => {
    const plain = await get('/v1/openapi.json');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(Buffer.byteLength(plain.text) >= COMPRESS_THRESHOLD_BYTES, 'the document is over the threshold');
    const gzip = await rawBytes('/v1/openapi.json', { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gzip.headers.vary, 'Accept-Encoding');
    assert.equal(gunzipSync(gzip.bytes).toString('utf8'), plain.text);
    assert.ok(gzip.bytes.length < Buffer.byteLength(plain.text) / 3, 'JSON shrinks to under a third');
    // A browser's header: br is preferred when both are accepted.
    const br = await rawBytes('/v1/openapi.json', { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.bytes).toString('utf8'), plain.text);
  });

  it('compresses the public /docs files too, the same bytes on every request', async () => {
    const plain = await rawBytes('/docs/swagger-ui-bundle.js', {});
    assert.equal(plain.headers['content-encoding'], undefined);
    const first = await rawBytes('/docs/swagger-ui-bundle.js', { 'Accept-Encoding': 'br' });
    const second = await rawBytes('/docs/swagger-ui-bundle.js', { 'Accept-Encoding': 'br' });
    assert.equal(first.headers['content-encoding'], 'br');
    assert.equal(first.headers['content-length'], String(first.bytes.length), 'a GET answer is compressed whole, with its length');
    assert.ok(brotliDecompressSync(first.bytes).equals(plain.bytes));
    assert.ok(second.bytes.equals(first.bytes));
  });

  it('sends as it is what the client does not accept compressed: identity, q=0, deflate only', async () => {
    for (const accepted of ['identity', 'gzip;q=0, br;q=0', 'deflate']) {
      const answer = await get('/v1/openapi.json', accepted);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['content-encoding'], undefined, accepted);
      assert.doesNotThrow(() => JSON.parse(answer.text) as unknown);
    }
  });

  it('sends answers under 1 KiB as they are', async () => {
    const health = await get('/healthz', 'gzip, br');
    assert.equal(health.headers['content-encoding'], undefined);
    assert.deepEqual(health.json, { status: 'ok' });
    const error = await send(service.url, '/v1/kernel-probe/echo', { body: { text: 1 }, headers: { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' } });
    assert.equal(error.status, 400);
    assert.equal(error.headers['content-encoding'], undefined);
  });

  it('leaves an answer of 342 to 1,023 bytes to itself: not compressed, no Vary', async () => {
    // 600 characters of text make an answer of about 650 bytes: over the cheap bound (342 code units
    // × 3 bytes) but under 1 KiB, so koa-compress must not even see it (it would add Vary).
    const answer = await rawBytes('/v1/kernel-probe/echo', { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, JSON.stringify({ text: 'a'.repeat(600) }));
    assert.equal(answer.status, 200);
    assert.ok(answer.bytes.length > 342 && answer.bytes.length < COMPRESS_THRESHOLD_BYTES, String(answer.bytes.length));
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(answer.headers.vary, undefined);
  });

  it('compresses an answer made on the worker pool the same way', async () => {
    const text = 'compressible '.repeat(10_000);
    const body = JSON.stringify({ text });
    const answer = await rawBytes('/v1/kernel-probe/echo', { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, body);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(answer.bytes).toString('utf8')), { text, count: 1, mode: 'a', tags: [] });
  });
});
