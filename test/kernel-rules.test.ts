// Every rule of the kernel, over real HTTP against the real service (fixture plugins only).
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { send } from './support/http.js';
import { startTestService, type TestService } from './support/service.js';

let service: TestService;
before(async () => {
  service = await startTestService({ probe: { delayMs: 50 } }, { bodyLimit: 1024 * 1024 });
});
after(() => service.stop());

const post = (path: string, body?: unknown, headers: Record<string, string | undefined> = {}) => send(service.url, path, { body: body as object, headers });
const echo = '/v1/kernel-probe/echo';

describe('answers every request with the common headers', () => {
  it('sets JSON content type, nosniff, no-store, CORS and a request id', async () => {
    const answer = await post(echo, { text: 'x' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(answer.headers['x-content-type-options'], 'nosniff');
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.match(String(answer.headers['access-control-expose-headers']), /RateLimit-Remaining.*Retry-After.*X-Request-Id/);
    assert.match(String(answer.headers['x-request-id']), /^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('echoes a safe client request id and replaces an unsafe one', async () => {
    assert.equal((await post(echo, { text: 'x' }, { 'X-Request-Id': 'abc.DEF_1-2' })).headers['x-request-id'], 'abc.DEF_1-2');
    assert.match(String((await post(echo, { text: 'x' }, { 'X-Request-Id': 'a b<script>' })).headers['x-request-id']), /^[0-9A-Z]{26}$/);
    assert.match(String((await post(echo, { text: 'x' }, { 'X-Request-Id': 'x'.repeat(129) })).headers['x-request-id']), /^[0-9A-Z]{26}$/);
  });

  it('fills defaults without coercing (the handler sees exactly the filled body)', async () => {
    const answer = await post(echo, { text: 'x' });
    assert.deepEqual(answer.json, { text: 'x', count: 1, mode: 'a', tags: [] });
  });
});

describe('404 and 405', () => {
  it('answers 404 not_found for unknown paths, wrong case and trailing slashes', async () => {
    const hint = 'There is no operation at this path; did you mean POST /v1/kernel-probe/echo? Every operation is listed at /v1/openapi.json.';
    const far = 'There is no operation at this path. Every operation is listed at /v1/openapi.json.';
    const cases: [string, string][] = [
      ['/v1/nope/echo', far],
      ['/v1/kernel-probe/Echo', hint],
      ['/v1/kernel-probe/echo/', hint],
      ['/V1/kernel-probe/echo', hint],
      ['/kernel-probe/echo', hint],
      ['/v1/kernel-probe/ecko', hint],
      ['/', far],
    ];
    for (const [path, message] of cases) {
      const answer = await post(path, { text: 'x' });
      assert.equal(answer.status, 404, path);
      assert.deepEqual(answer.json, { error: { code: 'not_found', message } }, path);
    }
  });

  it('answers 405 with Allow: POST for other methods on an operation path', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await send(service.url, echo, { method });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.allow, 'POST');
      assert.equal((answer.json as { error: { code: string } }).error.code, 'method_not_allowed');
    }
  });

  it('answers GET /healthz without auth or rate limit, and refuses POST there', async () => {
    const answer = await send(service.url, '/healthz', { method: 'GET', headers: { Authorization: 'Bearer nonsense' } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, { status: 'ok' });
    assert.equal(answer.headers['ratelimit-limit'], undefined);
    assert.equal((await send(service.url, '/healthz', { method: 'POST' })).status, 405);
  });
});

describe('400 invalid_json and 415', () => {
  it('says where the JSON breaks (line and column) without quoting the body', async () => {
    const answer = await post(echo, '{\n  "text": "SECRET-MARKER",\n  oops\n}', { 'Content-Type': 'application/json' });
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, {
      error: {
        code: 'invalid_json',
        message: 'The request body is not valid JSON: unexpected character at line 3, column 3',
        // No field is at fault when the body is not JSON: the list is empty, not the message again.
        details: [],
      },
    });
    assert.doesNotMatch(answer.text, /SECRET-MARKER/);
  });

  it('reports a truncated body as unexpected end of input', async () => {
    const answer = await post(echo, '{"text": "x"', { 'Content-Type': 'application/json' });
    assert.match((answer.json as { error: { message: string } }).error.message, /unexpected end of input at line 1, column 13$/);
  });

  it('refuses JSON that is not an object', async () => {
    for (const body of ['[1]', '"text"', '42', 'null']) {
      const answer = await post(echo, body, { 'Content-Type': 'application/json' });
      assert.equal(answer.status, 400, body);
      assert.equal((answer.json as { error: { message: string } }).error.message, 'The request body must be a JSON object');
    }
  });

  it('refuses nesting deeper than 64 levels before parsing, with the position', async () => {
    const answer = await post(echo, `{"text":${'['.repeat(500_000)}`, { 'Content-Type': 'application/json' });
    assert.equal(answer.status, 400);
    const error = (answer.json as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'invalid_json');
    // "{" is level 1 at column 1; the 64th "[" (column 8 + 64 = 72) opens level 65.
    assert.equal(error.message, 'The request body nests deeper than 64 levels at line 1, column 72');
    const fine = `{"text":"x","tags":${'['.repeat(10)}${']'.repeat(10)}}`;
    assert.equal((await post(echo, fine, { 'Content-Type': 'application/json' })).status, 400, 'valid JSON, wrong type: a 400 from validation');
  });

  it('refuses a body of more than 100,000 object members before parsing, with the position', async () => {
    // Members are counted, not keys: a key named again is a member again (JSON.parse keeps the last).
    const body = (extra: number): string => `{"text":"x"${',"a":0'.repeat(extra)}}`;
    const answer = await post(echo, body(100_000), { 'Content-Type': 'application/json' });
    assert.equal(answer.status, 400);
    const error = (answer.json as { error: { code: string; message: string } }).error;
    assert.equal(error.code, 'invalid_json');
    // `{"text":"x"` is 11 characters; extra member i's colon is at offset 11 + 6 × i + 4, so member
    // 100,001 (extra 99,999) is at offset 600,009: column 600,010.
    assert.equal(error.message, 'The request body has more than 100,000 object members; member 100,001 is at line 1, column 600010');
    // Exactly 100,000 are parsed, then refused by the schema ("a" is not a field of echo).
    const atBound = await post(echo, body(99_999), { 'Content-Type': 'application/json' });
    assert.equal((atBound.json as { error: { code: string } }).error.code, 'validation_failed');
  });

  it('refuses bytes that are not UTF-8', async () => {
    const answer = await post(echo, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), { 'Content-Type': 'application/json' });
    assert.equal(answer.status, 400);
    assert.equal((answer.json as { error: { code: string } }).error.code, 'invalid_json');
  });

  it('answers 415 for a non-JSON or a missing Content-Type (issue 47)', async () => {
    const form = await post(echo, 'text=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    assert.equal((form.json as { error: { code: string } }).error.code, 'unsupported_media_type');
    assert.equal((await post(echo, '{"text":"x"}')).status, 200);
    assert.equal((await post(echo, '{"text":"x"}', { 'Content-Type': undefined })).status, 415);
    assert.equal((await post(echo, '{"text":"x"}', { 'Content-Type': 'application/merge-patch+json; charset=utf-8' })).status, 200);
    assert.equal((await post(echo, '{"text":"x"}', { 'Content-Type': 'text/plain' })).status, 415);
  });

  it('refuses an empty or blank body as invalid_json, saying to send {}', async () => {
    const message = 'The request body is empty; send a JSON object, {} when the operation needs no field';
    for (const body of [undefined, '', ' \r\n\t ']) {
      const answer = await send(service.url, echo, { method: 'POST', body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(answer.json, { error: { code: 'invalid_json', message, details: [] } }, JSON.stringify(body));
    }
  });
});

describe('400 validation_failed', () => {
  it('lists every offending field: missing, wrong type, out of range, not in the enumeration, unknown', async () => {
    const answer = await post(echo, { count: '5', mode: 'c', tags: [1, 'ok', true], extra: 1, 'we/ird~': 2 });
    assert.equal(answer.status, 400);
    const error = (answer.json as { error: { code: string; details: { path: string; message: string }[] } }).error;
    assert.equal(error.code, 'validation_failed');
    const byPath = Object.fromEntries(error.details.map((detail) => [detail.path, detail.message]));
    assert.deepEqual(byPath, {
      '/text': 'is required',
      '/count': 'must be an integer',
      '/mode': 'must be one of "a", "b"',
      '/tags/0': 'must be a string',
      '/tags/2': 'must be a string',
      // No allowed name is a typo away, so the message lists them.
      '/extra': 'is not an allowed property; allowed: text, count, mode, tags',
      '/we~1ird~0': 'is not an allowed property; allowed: text, count, mode, tags',
    });
    assert.equal((await post(echo, { text: 'x', count: 11 })).status, 400);
    assert.equal((await post(echo, { text: 'x', count: 10 })).status, 200);
  });

  it('does not coerce: "5" is not a number and 1.5 is not an integer', async () => {
    assert.equal((await post(echo, { text: 'x', count: 1.5 })).status, 400);
    assert.equal((await post(echo, { text: 5 })).status, 400);
  });

  it('lists more than eight errors (TypeBox stops at 8 by default) and caps a hostile body at 100', async () => {
    const twenty = await post(echo, { text: 'x', tags: Array.from({ length: 20 }, (_, index) => index) });
    assert.equal((twenty.json as { error: { details: unknown[] } }).error.details.length, 20);
    const many = await post(echo, { text: 'x', tags: Array.from({ length: 5000 }, (_, index) => index) });
    assert.equal((many.json as { error: { details: unknown[] } }).error.details.length, 100);
  });

  it('names the first offending paths of a body with 60,000 unknown keys, or a string sent as a long array', async () => {
    const keys: Record<string, number> = { text: 0 };
    for (let index = 0; index < 60_000; index++) keys[`k${index}`] = index;
    const flood = await post(echo, keys);
    const details = (flood.json as { error: { details: { path: string; message: string }[] } }).error.details;
    assert.equal(details.length, 100);
    assert.deepEqual(details[0], { path: '/k0', message: 'is not an allowed property; allowed: text, count, mode, tags' });
    assert.deepEqual(details[99], { path: '/k99', message: 'is not an allowed property; allowed: text, count, mode, tags' });
    // 450 unknown keys: past TypeBox's own error cap, which used to leave details empty.
    const some = await post(echo, { text: 'x', ...Object.fromEntries(Array.from({ length: 450 }, (_, index) => [`u${index}`, 1])) });
    assert.equal((some.json as { error: { details: unknown[] } }).error.details.length, 100);
    const array = await post(echo, { text: Array.from({ length: 5000 }, () => 'a') });
    assert.deepEqual((array.json as { error: { details: unknown } }).error.details, [{ path: '/text', message: 'must be a string' }]);
  });
});

describe('413 payload_too_large (this service is started with a 1 MiB cap)', () => {
  const big = JSON.stringify({ text: 'a'.repeat(1024 * 1024) });

  it('refuses a declared Content-Length over the cap', async () => {
    const answer = await post(echo, big, { 'Content-Type': 'application/json' });
    assert.equal(answer.status, 413);
    assert.equal((answer.json as { error: { code: string } }).error.code, 'payload_too_large');
  });

  it('refuses a chunked body once it passes the cap', async () => {
    const answer = await send(service.url, echo, { body: big, chunked: true, headers: { 'Content-Type': 'application/json' } });
    assert.equal(answer.status, 413);
  });

  it('refuses a small gzip body that inflates past the cap, and accepts one under it', async () => {
    const bomb = gzipSync(Buffer.from(big));
    assert.ok(bomb.length < 10_000);
    const answer = await post(echo, bomb, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    assert.equal(answer.status, 413);
    const fine = await post(echo, gzipSync(Buffer.from('{"text":"zipped"}')), { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    assert.deepEqual(fine.json, { text: 'zipped', count: 1, mode: 'a', tags: [] });
  });

  it('refuses an unknown Content-Encoding with 415 and a corrupt gzip body with 400', async () => {
    assert.equal((await post(echo, '{}', { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' })).status, 415);
    assert.equal((await post(echo, 'not gzip', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })).status, 400);
  });

  it('accepts a body just under the cap', async () => {
    const body = JSON.stringify({ text: 'a'.repeat(1024 * 1024 - 20) });
    assert.ok(body.length < 1024 * 1024);
    assert.equal((await post(echo, body, { 'Content-Type': 'application/json' })).status, 200);
  });
});

describe('plugin errors', () => {
  it('answers a declared 422 code', async () => {
    assert.deepEqual((await post('/v1/kernel-probe/declared', {})).json, { error: { code: 'declared_problem', message: 'declared' } });
  });

  it('answers 500 internal_error for a bug or an undeclared 422 code, logging the stack but not the input', async () => {
    for (const path of ['/v1/kernel-probe/crash', '/v1/kernel-probe/undeclared']) {
      const answer = await post(path, { text: 'LOG-MARKER-7f3a' }, { 'X-Request-Id': `req-${path.length}` });
      assert.equal(answer.status, 500);
      const error = (answer.json as { error: { code: string; message: string } }).error;
      assert.equal(error.code, 'internal_error');
      assert.doesNotMatch(error.message, /LOG-MARKER|surprise|cannot handle/);
      const line = service.logs.find((entry) => entry.includes('request failed') && entry.includes(`req-${path.length}`));
      assert.ok(line, 'the failure is logged with the request id');
      assert.match(line, /"stack":\["at /);
    }
    assert.equal(service.logs.filter((line) => line.includes('LOG-MARKER')).length, 0);
  });

  it('answers 502 upstream_error and 504 upstream_timeout', async () => {
    assert.deepEqual((await post('/v1/kernel-probe/upstream', {})).json, { error: { code: 'upstream_error', message: 'the resolver answered 500' } });
    const timeout = await post('/v1/kernel-probe/upstream-timeout', {});
    assert.equal(timeout.status, 504);
    assert.equal((timeout.json as { error: { code: string } }).error.code, 'upstream_timeout');
  });
});

describe('the handler context', () => {
  it('aborts the signal when the client goes away before the answer', async () => {
    const { request } = await import('node:http');
    const req = request(`${service.url}/v1/kernel-probe/wait-for-abort`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    req.on('error', () => undefined);
    req.end('{}');
    // The client goes away once the handler waits, however long the request took to get there.
    const probe = globalThis as { kernelProbeWaiting?: number; kernelProbeAborts?: number };
    for (let turn = 0; (probe.kernelProbeWaiting ?? 0) === 0 && turn < 3000; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(probe.kernelProbeWaiting, 1, 'the handler started');
    req.destroy();
    for (let turn = 0; (probe.kernelProbeAborts ?? 0) === 0 && turn < 3000; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(probe.kernelProbeAborts, 1);
  });

  it('starts no later step of a recipe once its client has gone away', async () => {
    const { request } = await import('node:http');
    const probe = globalThis as { kernelProbeWaiting?: number; kernelProbeAborts?: number };
    const [waiting, aborts] = [probe.kernelProbeWaiting ?? 0, probe.kernelProbeAborts ?? 0];
    const req = request(`${service.url}/v1/recipes/run`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'recipe-left' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ steps: [{ operation: 'kernel-probe/wait-for-abort' }, { operation: 'kernel-probe/wait-for-abort' }] }));
    for (let turn = 0; probe.kernelProbeWaiting === waiting && turn < 3000; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(probe.kernelProbeWaiting, waiting + 1, 'the first step started');
    req.destroy();
    // The recipe's access line is written when it ends; a second step, started for nobody, would
    // wait its whole minute (its signal aborted before it listened).
    const ended = (): boolean => service.logs.some((line) => line.includes('"msg":"request"') && line.includes('recipe-left'));
    for (let turn = 0; !ended() && turn < 3000; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(probe.kernelProbeAborts, aborts + 1, 'the first step saw its client leave');
    assert.equal(probe.kernelProbeWaiting, waiting + 1, 'the second step never started');
    assert.ok(ended(), 'the recipe ended');
  });
});

describe('CORS', () => {
  it('answers a preflight with 204 and allows Content-Type, Authorization and MCP\'s headers', async () => {
    const answer = await send(service.url, echo, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.equal(answer.headers['access-control-allow-headers'], 'Content-Type, Authorization, Mcp-Protocol-Version, Mcp-Session-Id');
    assert.match(String(answer.headers['access-control-allow-methods']), /POST/);
    assert.equal(answer.headers['ratelimit-limit'], undefined, 'preflights are not rate limited');
  });
});
