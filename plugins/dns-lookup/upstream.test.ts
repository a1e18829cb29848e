import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { invoke, resolvePluginConfig } from '@toolshed/plugin-sdk/testing';
import { MAX_MESSAGE_BYTES, queryUrl } from './doh-client.js';
import { encodeResponse, startResolver, type FakeResolver } from './fake-resolver.js';
import dnsLookup from './index.js';

const DNS_TYPE = { 'Content-Type': 'application/dns-message' };
const zone = { 'example.com/1': { answers: [{ name: 'example.com', type: 'A' as const, ttl: 1, data: '192.0.2.1' }] } };

let resolver: FakeResolver;
let other: FakeResolver;
const run = (options: { url?: string; timeoutMs?: number; body?: object; signal?: AbortSignal } = {}): Promise<unknown> =>
  invoke(dnsLookup, 'lookup', options.body ?? { name: 'example.com', types: ['A'] }, {
    config: { resolvers: { cloudflare: options.url ?? resolver.url, google: other.url }, timeoutMs: options.timeoutMs ?? 30000 },
    signal: options.signal,
  });
const badGateway = { status: 502, code: 'upstream_error' };
const timedOut = { status: 504, code: 'upstream_timeout' };

before(async () => {
  resolver = await startResolver(zone);
  other = await startResolver(zone);
});
after(async () => {
  await resolver.close();
  await other.close();
});
beforeEach(() => {
  resolver.behave(undefined);
  other.queries.length = 0;
});

describe('dns-lookup: a resolver that fails', () => {
  it('answers 504 within about timeoutMs when the resolver never answers', async () => {
    resolver.behave(() => true);
    const started = performance.now();
    await assert.rejects(run({ timeoutMs: 300 }), timedOut);
    const elapsed = performance.now() - started;
    // timeoutMs is 300: the 504 must come at the budget, not whenever the silent resolver gives up.
    assert.ok(elapsed >= 280 && elapsed < 3000, `took ${elapsed} ms`);
  });

  it('answers 504 when headers come in time but the body never ends', async () => {
    resolver.behave((_query, response) => {
      response.writeHead(200, DNS_TYPE);
      response.write(Buffer.from([0, 0]));
    });
    await assert.rejects(run({ timeoutMs: 200 }), timedOut);
  });

  it('answers 502 when nothing listens on the port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    await assert.rejects(run({ url: `http://127.0.0.1:${port}/dns-query` }), badGateway);
  });

  it('answers 502 for HTTP 500, 404 and 204', async () => {
    for (const status of [500, 404, 204]) {
      resolver.behave((_query, response) => {
        response.writeHead(status, DNS_TYPE).end();
      });
      await assert.rejects(run(), badGateway, String(status));
    }
  });

  it('does not follow a redirect: 502, and the target is never asked', async () => {
    resolver.behave((query, response) => {
      response.writeHead(302, { Location: `${other.url}?dns=${query.param}` }).end();
    });
    await assert.rejects(run(), badGateway);
    assert.equal(other.queries.length, 0);
  });

  it('answers 502 for a wrong or missing content type', async () => {
    for (const type of ['application/json', 'text/html', undefined]) {
      resolver.behave((query, response) => {
        response.writeHead(200, type === undefined ? {} : { 'Content-Type': type }).end(encodeResponse(query.wire, {}));
      });
      await assert.rejects(run(), badGateway, String(type));
    }
  });

  it('accepts the content type with parameters and in another case', async () => {
    resolver.behave((query, response) => {
      response.writeHead(200, { 'Content-Type': 'Application/DNS-Message; charset=binary' }).end(encodeResponse(query.wire, {}));
    });
    assert.deepEqual(await run(), { name: 'example.com', results: [{ type: 'A', status: 'NOERROR', authenticated: false, records: [] }] });
  });

  it('answers 502 for an answer larger than 65,535 bytes, declared or streamed', async () => {
    resolver.behave((_query, response) => {
      response.writeHead(200, { ...DNS_TYPE, 'Content-Length': String(MAX_MESSAGE_BYTES + 1) }).end(Buffer.alloc(MAX_MESSAGE_BYTES + 1));
    });
    await assert.rejects(run(), badGateway);
    // Chunked, without a length, and far larger: reading stops at the cap.
    resolver.behave((_query, response) => {
      response.writeHead(200, DNS_TYPE);
      for (let i = 0; i < 64; i += 1) response.write(Buffer.alloc(16 * 1024));
      response.end();
    });
    await assert.rejects(run({ timeoutMs: 2000 }), badGateway);
  });

  it('answers 502 for garbage, an empty body and a truncated message', async () => {
    const bodies: ((wire: Buffer) => Buffer)[] = [
      () => Buffer.from('<html>not dns</html>'),
      () => Buffer.alloc(0),
      (wire) => encodeResponse(wire, { answers: [{ name: 'example.com', type: 'A', ttl: 1, data: '192.0.2.1' }] }).subarray(0, 40),
    ];
    for (const body of bodies) {
      resolver.behave((query, response) => {
        response.writeHead(200, DNS_TYPE).end(body(query.wire));
      });
      await assert.rejects(run(), badGateway);
    }
  });

  it('answers 502 when the connection breaks in the middle of the answer', async () => {
    resolver.behave((query, response) => {
      response.writeHead(200, DNS_TYPE);
      response.write(encodeResponse(query.wire, {}).subarray(0, 10), () => response.destroy());
    });
    await assert.rejects(run({ timeoutMs: 2000 }), badGateway);
  });

  it('fails the whole lookup when one of several queries fails', async () => {
    resolver.behave((query, response) => {
      if (query.type !== 15) return false;
      response.writeHead(503).end();
      return true;
    });
    await assert.rejects(run({ body: { name: 'example.com', types: ['A', 'MX', 'TXT'] } }), badGateway);
  });

  it('answers 502 when the request is cancelled (the client went away)', async () => {
    resolver.behave(() => true);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(run({ timeoutMs: 5000, signal: controller.signal }), badGateway);
  });
});

describe('dns-lookup: configuration', () => {
  it('defaults to the Cloudflare and Google endpoints and 5000 ms', () => {
    assert.deepEqual(resolvePluginConfig(dnsLookup, {}), {
      resolvers: { cloudflare: 'https://cloudflare-dns.com/dns-query', google: 'https://dns.google/dns-query' },
      timeoutMs: 5000,
    });
    assert.deepEqual(resolvePluginConfig(dnsLookup, { timeoutMs: 1 }), {
      resolvers: { cloudflare: 'https://cloudflare-dns.com/dns-query', google: 'https://dns.google/dns-query' },
      timeoutMs: 1,
    });
    assert.equal((resolvePluginConfig(dnsLookup, { timeoutMs: 60000 }) as { timeoutMs: number }).timeoutMs, 60000);
  });

  it('refuses a timeout outside 1–60000, a non-http(s) URL and unknown keys', () => {
    const refused = (section: unknown, path: string): void => {
      assert.throws(
        () => resolvePluginConfig(dnsLookup, section),
        (error: { status?: number; details?: { path: string }[] }) => error.status === 400 && error.details!.some((detail) => detail.path === path),
        path,
      );
    };
    refused({ timeoutMs: 0 }, '/timeoutMs');
    refused({ timeoutMs: 60001 }, '/timeoutMs');
    refused({ timeoutMs: 1.5 }, '/timeoutMs');
    refused({ resolvers: { cloudflare: 'ftp://example.com/dns' } }, '/resolvers/cloudflare');
    refused({ resolvers: { google: 'dns.google' } }, '/resolvers/google');
    refused({ resolvers: { quad9: 'https://dns.quad9.net/dns-query' } }, '/resolvers/quad9');
    refused({ retries: 2 }, '/retries');
  });

  it('builds the query URL with the dns parameter, keeping an existing query string', () => {
    const url = queryUrl('https://resolver.example/dns-query?ct=1', Buffer.from([0xfb, 0xff]));
    // FB FF → 111110 111111 1111(00) → base64url "-_8" (standard Base64 would be "+/8=").
    assert.equal(url.href, 'https://resolver.example/dns-query?ct=1&dns=-_8');
    assert.throws(() => queryUrl('not a url', Buffer.alloc(1)), badGateway);
    assert.throws(() => queryUrl('file:///etc/hosts', Buffer.alloc(1)), badGateway);
  });
});
