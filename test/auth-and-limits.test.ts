// Authentication (401) and rate limiting (429) over real HTTP.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digestApiKey, generateApiKey, KEY_PREFIX } from '../kernel/http/api-keys.js';
import { send } from './support/http.js';
import { inProcessStarter } from './support/service.js';

const key = generateApiKey();
const revoked = generateApiKey();
const start = inProcessStarter();

const echo = '/v1/kernel-probe/echo';
const body = { text: 'x' };

describe('API keys', () => {
  it('generates tsk_ keys of 32 base62 characters and stores only their SHA-256', () => {
    assert.match(key, new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{32}$`));
    assert.notEqual(generateApiKey(), generateApiKey());
    // SHA-256("abc"), FIPS 180-2 Appendix B.1.
    assert.equal(digestApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('admits anonymous requests and requests with a configured key; refuses unknown, revoked and malformed ones', async () => {
    const service = await start({ auth: { apiKeys: [{ name: 'ci', sha256: digestApiKey(key).toUpperCase() }] } });
    assert.equal((await send(service.url, echo, { body })).status, 200);
    assert.equal((await send(service.url, echo, { body, headers: { Authorization: `Bearer ${key}` } })).status, 200);
    assert.equal((await send(service.url, echo, { body, headers: { Authorization: `bearer ${key}` } })).status, 200);
    for (const header of [`Bearer ${revoked}`, `Basic ${key}`, 'Bearer', 'Bearer ', key, '']) {
      const answer = await send(service.url, echo, { body, headers: { Authorization: header } });
      assert.equal(answer.status, 401, JSON.stringify(header));
      assert.equal(answer.headers['www-authenticate'], 'Bearer error="invalid_token"');
      assert.equal((answer.json as { error: { code: string } }).error.code, 'unauthorized');
      assert.ok(!answer.text.includes(revoked), 'the key is never echoed');
      assert.ok(answer.headers['ratelimit-remaining'] !== undefined, 'a 401 carries the RateLimit headers');
    }
    const line = service.logs.find((entry) => entry.includes('"key":"ci"'));
    assert.ok(line, 'the access log names the key');
    assert.equal(service.logs.filter((entry) => entry.includes(key) || entry.includes(revoked)).length, 0, 'keys are never logged');
  });
});

describe('rate limits', () => {
  it('allows max requests per window, then answers 429 with an integer Retry-After ≥ 1', async () => {
    const service = await start({ rateLimit: { anonymous: { max: 3 }, windowSeconds: 60 } });
    const remaining: string[] = [];
    for (let index = 0; index < 3; index++) {
      const answer = await send(service.url, echo, { body });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['ratelimit-limit'], '3');
      const reset = Number(answer.headers['ratelimit-reset']);
      assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `reset ${reset}`);
      remaining.push(String(answer.headers['ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const limited = await send(service.url, echo, { body });
    assert.equal(limited.status, 429);
    assert.equal((limited.json as { error: { code: string } }).error.code, 'rate_limited');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${limited.headers['retry-after']}`);
    assert.equal(limited.headers['content-type'], 'application/json; charset=utf-8');
    // Unknown paths count too, and are limited like the rest.
    assert.equal((await send(service.url, '/v1/unknown/op', { body })).status, 429);
    // Health checks are never limited.
    assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
  });

  it('gives a key its own, higher limit, counted per key', async () => {
    const service = await start({
      auth: { apiKeys: [{ name: 'ci', sha256: digestApiKey(key) }] },
      rateLimit: { anonymous: { max: 1 }, apiKey: { max: 3 } },
    });
    assert.equal((await send(service.url, echo, { body })).status, 200);
    assert.equal((await send(service.url, echo, { body })).status, 429);
    const headers = { Authorization: `Bearer ${key}` };
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await send(service.url, echo, { body, headers })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  it('counts requests with a bad key against the IP, so keys cannot be guessed without limit', async () => {
    const service = await start({ rateLimit: { anonymous: { max: 2 } } });
    const headers = { Authorization: `Bearer ${revoked}` };
    const statuses = [];
    for (let index = 0; index < 2; index++) statuses.push((await send(service.url, echo, { body, headers })).status);
    // The two bad keys spent the address's budget: the next anonymous request is refused.
    statuses.push((await send(service.url, echo, { body })).status);
    assert.deepEqual(statuses, [401, 401, 429]);
  });

  it('answers a wrong key 401 even once the address has spent its anonymous budget (issue 39)', async () => {
    const service = await start({ rateLimit: { anonymous: { max: 1 } } });
    assert.equal((await send(service.url, echo, { body })).status, 200);
    assert.equal((await send(service.url, echo, { body })).status, 429);
    for (const header of [`Bearer ${revoked}`, 'Basic abc']) {
      const answer = await send(service.url, echo, { body, headers: { Authorization: header } });
      assert.equal(answer.status, 401, header);
      assert.equal((answer.json as { error: { code: string } }).error.code, 'unauthorized');
      assert.equal(answer.headers['ratelimit-remaining'], '0', 'still counted against the address');
      assert.equal(answer.headers['retry-after'], undefined);
    }
  });

  it('resets after the window; Retry-After never says 0', async () => {
    const service = await start({ rateLimit: { anonymous: { max: 1 }, windowSeconds: 1 } });
    assert.equal((await send(service.url, echo, { body })).status, 200);
    const limited = await send(service.url, echo, { body });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['retry-after'], '1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await send(service.url, echo, { body })).status, 200);
  });

  it('ignores X-Forwarded-For with trustProxy 0, so the header cannot dodge the limit', async () => {
    const service = await start({ rateLimit: { anonymous: { max: 1 } } });
    assert.equal((await send(service.url, echo, { body, headers: { 'X-Forwarded-For': '203.0.113.1' } })).status, 200);
    assert.equal((await send(service.url, echo, { body, headers: { 'X-Forwarded-For': '203.0.113.2' } })).status, 429);
  });

  it('reads the client address from X-Forwarded-For with trustProxy 1', async () => {
    const service = await start({ server: { trustProxy: 1 }, rateLimit: { anonymous: { max: 1 } } });
    const from = (address: string) => send(service.url, echo, { body, headers: { 'X-Forwarded-For': `198.51.100.9, ${address}` } });
    assert.equal((await from('203.0.113.1')).status, 200);
    assert.equal((await from('203.0.113.2')).status, 200);
    assert.equal((await from('203.0.113.1')).status, 429);
    assert.ok(service.logs.some((line) => line.includes('"ip":"203.0.113.2"')));
  });
});

describe('server.trustProxy as a list of proxies (issue 47)', () => {
  // Two clients on one machine: 127.0.0.1 is the listed proxy, 127.0.0.2 reaches the service directly.
  const proxy = '127.0.0.1';
  const stranger = '127.0.0.2';
  // The last access-log line: on a busy machine the watchdog may log a blocked loop after it.
  const ipOf = (service: { logs: string[] }): string | undefined => /"ip":"([^"]+)"/.exec(service.logs.findLast((line) => line.includes('"msg":"request"')) ?? '')?.[1];

  it('reads X-Forwarded-For only on a connection from a listed proxy: a direct client cannot rotate it', async () => {
    const service = await start({ server: { trustProxy: [`${proxy}/32`] }, rateLimit: { anonymous: { max: 1 } } });
    const via = (localAddress: string, forwarded: string) => send(service.url, echo, { body, localAddress, headers: { 'X-Forwarded-For': forwarded } });
    // Through the proxy: each client its own limit, whatever the client wrote to the left of the proxy's entry.
    assert.equal((await via(proxy, '198.51.100.9, 203.0.113.1')).status, 200);
    assert.equal(ipOf(service), '203.0.113.1');
    assert.equal((await via(proxy, '198.51.100.9, 203.0.113.2')).status, 200);
    assert.equal((await via(proxy, '203.0.113.1')).status, 429);
    // Directly: the header is ignored, so a new address in it is no new budget.
    assert.equal((await via(stranger, '203.0.113.3')).status, 200);
    assert.equal(ipOf(service), stranger);
    const rotated = await via(stranger, '203.0.113.4');
    assert.equal(rotated.status, 429);
    assert.equal(ipOf(service), stranger);
  });

  it('walks the header from the right past every listed proxy, ranges included, to the first address that is not one', async () => {
    const service = await start({ server: { trustProxy: ['127.0.0.0/8', '10.0.0.0/8', '2001:db8::/32'] } });
    const cases: [string, string][] = [
      ['198.51.100.7, 203.0.113.5, 10.1.2.3', '203.0.113.5'],
      ['203.0.113.6, 2001:db8::1, 10.0.0.1', '203.0.113.6'],
      // Every entry a proxy: the leftmost is the farthest the chain can tell.
      ['10.9.9.9, 10.1.1.1', '10.9.9.9'],
      // Empty entries are skipped; no header at all is the peer.
      ['203.0.113.7, , 10.0.0.2', '203.0.113.7'],
    ];
    for (const [forwarded, client] of cases) {
      assert.equal((await send(service.url, echo, { body, localAddress: stranger, headers: { 'X-Forwarded-For': forwarded } })).status, 200);
      assert.equal(ipOf(service), client, forwarded);
    }
    await send(service.url, echo, { body, localAddress: stranger });
    assert.equal(ipOf(service), stranger);
  });
});

describe('auth.required', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
  };
  const mcpHeaders = { Accept: 'application/json, text/event-stream' };

  it('answers every /v1/ and /mcp request without a valid key 401, and serves those with one', async () => {
    const service = await start({ auth: { required: true, apiKeys: [{ name: 'ci', sha256: digestApiKey(key) }] }, rateLimit: { anonymous: { max: 2 } } });
    const refusals = [
      await send(service.url, echo, { body }),
      await send(service.url, '/v1/openapi.json', { method: 'GET' }),
      await send(service.url, '/v1/no-such/operation', { body }),
      await send(service.url, '/mcp', { body: initialize, headers: mcpHeaders }),
      // Past the anonymous budget (2), still 401: the answer says what is missing.
      await send(service.url, echo, { body }),
      await send(service.url, '/mcp', { body: initialize, headers: { ...mcpHeaders, Authorization: `Bearer ${revoked}` } }),
    ];
    for (const answer of refusals) {
      assert.equal(answer.status, 401, answer.text);
      assert.equal((answer.json as { error: { code: string } }).error.code, 'unauthorized');
    }
    assert.equal(refusals[0]!.headers['www-authenticate'], 'Bearer');
    assert.match((refusals[0]!.json as { error: { message: string } }).error.message, /requires an API key/);
    const authorization = { Authorization: `Bearer ${key}` };
    assert.equal((await send(service.url, echo, { body, headers: authorization })).status, 200);
    const mcp = await send(service.url, '/mcp', { body: initialize, headers: { ...mcpHeaders, ...authorization } });
    assert.equal(mcp.status, 200, mcp.text);
    // Outside the API: health checks and unknown paths elsewhere answer as before.
    assert.equal((await send(service.url, '/healthz', { method: 'GET' })).status, 200);
  });

  it('answers a 404 without a valid key plainly, however the path is spelled: no operation named, no group said to be off (issue 47)', async () => {
    const service = await start({ auth: { required: true, apiKeys: [{ name: 'ci', sha256: digestApiKey(key) }] }, plugins: { disabled: ['greeting'] } });
    const plain = { error: { code: 'not_found', message: 'There is no operation at this path. Every operation is listed at /v1/openapi.json.' } };
    const paths = ['/V1/kernel-probe/ech', '//v1/kernel-probe/echo', '/kernel-probe/echo', '/v1x/kernel-probe/echo', '/V1/greeting/hello', '//v1/greeting/hello', '/greeting/hello'];
    for (const path of paths) {
      const answer = await send(service.url, path, { body });
      assert.equal(answer.status, 404, path);
      assert.deepEqual(answer.json, plain, path);
    }
    // With the key the same paths get their hints: the plain answer is for strangers only.
    const authorization = { Authorization: `Bearer ${key}` };
    assert.match((await send(service.url, '/V1/kernel-probe/ech', { body, headers: authorization })).text, /did you mean POST \/v1\/kernel-probe\/echo\?/);
    assert.match((await send(service.url, '//v1/greeting/hello', { body, headers: authorization })).text, /The group greeting exists but is switched off/);
  });

  it('is off by default: a request without a key is anonymous', async () => {
    const service = await start({});
    assert.equal((await send(service.url, echo, { body })).status, 200);
  });
});
