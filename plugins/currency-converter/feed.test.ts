import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { invoke, rejectsWith, resolvePluginConfig } from '@toolshed/plugin-sdk/testing';
import { ecbDocument, startFeed, type FakeFeed, type FeedBehaviour } from './fake-feed.js';
import { MAX_FEED_BYTES } from './rate-source.js';
import { FAILURE_RETRY_MS, rateStoresIdle } from './rate-store.js';
import currency from './index.js';

const T0 = Date.parse('2024-03-15T17:00:00Z');
const MINUTE = 60_000;
/** Default refreshMinutes is 60. */
const HOUR = 60 * MINUTE;
const firstDay = ecbDocument('2024-03-15', { USD: '1.0892' });
const secondDay = ecbDocument('2024-03-18', { USD: '1.0875' });

let feed: FakeFeed;
let other: FakeFeed;
/** GBP never appears: /rates with base EUR answers { USD } only, so `date` and USD show which set answered. */
const rates = (at: number, config: object = { ratesUrl: feed.url, timeoutMs: 30000 }): Promise<unknown> =>
  invoke(currency, 'rates', {}, { config, now: () => new Date(at) });
const answer = (date: string, usd: number) => ({ base: 'EUR', date, rates: { USD: usd }, source: 'European Central Bank' });
const first = answer('2024-03-15', 1.0892);
const second = answer('2024-03-18', 1.0875);
const unavailable = (promise: Promise<unknown>, reason: RegExp, retryAfter?: string) =>
  assert.rejects(promise, (error: { status: number; code: string; message: string; headers?: Record<string, string> }) => {
    assert.equal(error.status, 503);
    assert.equal(error.code, 'upstream_unavailable');
    assert.match(error.message, reason);
    if (retryAfter !== undefined) assert.deepEqual(error.headers, { 'Retry-After': retryAfter });
    return true;
  });

/** The failures every "feed fails" test goes through, each with the 503 reason it gives. */
const failures: { name: string; behaviour: FeedBehaviour; reason: RegExp; config?: object }[] = [
  { name: 'HTTP 500', behaviour: (_q, res) => res.writeHead(500).end('oops'), reason: /HTTP status 500/ },
  { name: 'no answer (timeout)', behaviour: () => undefined, reason: /within 200 ms/, config: { timeoutMs: 200 } },
  {
    name: 'headers but a body that never ends (timeout)',
    behaviour: (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      res.write('<gesmes:Envelope>');
    },
    reason: /within 200 ms/,
    config: { timeoutMs: 200 },
  },
  { name: 'a redirect', behaviour: (_q, res) => res.writeHead(302, { Location: other.url }).end(), reason: /HTTP status 302/ },
  {
    name: 'a declared oversize body',
    behaviour: (_q, res) => res.writeHead(200, { 'Content-Length': String(MAX_FEED_BYTES + 1) }).end(Buffer.alloc(MAX_FEED_BYTES + 1, 0x20)),
    reason: /larger than 1048576 bytes/,
  },
  {
    name: 'a streamed oversize body',
    behaviour: (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'text/xml' });
      for (let i = 0; i < 80; i += 1) res.write(Buffer.alloc(16 * 1024, 0x20));
      res.end();
    },
    reason: /larger than 1048576 bytes/,
  },
  { name: 'garbage XML', behaviour: (_q, res) => res.writeHead(200).end('<html><p>maintenance</html>'), reason: /not a valid ECB rate document/ },
  { name: 'a feed without rates', behaviour: (_q, res) => res.writeHead(200).end(ecbDocument('2024-03-15', {})), reason: /lists no rates/ },
  { name: 'bytes that are not UTF-8', behaviour: (_q, res) => res.writeHead(200).end(Buffer.from([0x3c, 0xff, 0xfe])), reason: /not UTF-8/ },
  { name: 'a broken connection', behaviour: (_q, res) => res.destroy(), reason: /could not be reached|broke/ },
];

before(async () => {
  feed = await startFeed(firstDay);
  other = await startFeed(secondDay);
});
after(async () => {
  await feed.close();
  await other.close();
});
beforeEach(() => feed.serve(firstDay));
afterEach(async () => {
  await rateStoresIdle();
  await currency.close?.();
});

describe('currency-converter: loading and refreshing', () => {
  it('fetches on the first request only, and again once the set is refreshMinutes old', async () => {
    assert.equal(feed.hits, 0);
    assert.deepEqual(await rates(T0), first);
    const afterFirst = feed.hits;
    assert.deepEqual(await rates(T0 + HOUR - 1), first);
    assert.equal(feed.hits, afterFirst, 'younger than an hour: no fetch');
    feed.serve(secondDay);
    // Stale: answered at once from the old set while the refresh runs in the background.
    assert.deepEqual(await rates(T0 + HOUR), first);
    await rateStoresIdle();
    assert.equal(feed.hits, afterFirst + 1);
    assert.deepEqual(await rates(T0 + HOUR + 1), second);
    assert.equal(feed.hits, afterFirst + 1, 'the new set is fresh again');
  });

  it('honours refreshMinutes from the configuration', async () => {
    const config = { ratesUrl: feed.url, refreshMinutes: 5 };
    await rates(T0, config);
    const hits = feed.hits;
    await rates(T0 + 5 * MINUTE - 1, config);
    assert.equal(feed.hits, hits);
    await rates(T0 + 5 * MINUTE, config);
    await rateStoresIdle();
    assert.equal(feed.hits, hits + 1);
  });

  it('makes one fetch for concurrent first requests (single flight)', async () => {
    const hits = feed.hits;
    const answers = await Promise.all(Array.from({ length: 8 }, () => rates(T0)));
    for (const each of answers) assert.deepEqual(each, first);
    assert.equal(feed.hits, hits + 1);
  });

  it('fetches again when the clock goes backwards', async () => {
    await rates(T0);
    const hits = feed.hits;
    await rates(T0 - 1);
    await rateStoresIdle();
    assert.equal(feed.hits, hits + 1);
  });

  it('aborts a fetch in flight on close(): its waiting request gets 503 at once', async () => {
    feed.behave(() => undefined);
    // The handler starts the fetch before invoke() first yields, so close() finds it in flight.
    const pending = rates(T0, { ratesUrl: feed.url, timeoutMs: 60000 });
    await currency.close?.();
    await unavailable(pending, /plugin is closing/);
  });

  it('forgets the rates on close() and loads them again on the next request', async () => {
    await rates(T0);
    const hits = feed.hits;
    await currency.close?.();
    assert.deepEqual(await rates(T0), first);
    assert.equal(feed.hits, hits + 1);
  });
});

describe('currency-converter: the feed fails with no rates loaded', () => {
  for (const failure of failures) {
    it(`answers 503 upstream_unavailable for ${failure.name}, then recovers`, async () => {
      const config = { ratesUrl: feed.url, timeoutMs: 30000, ...failure.config };
      feed.behave(failure.behaviour);
      const hits = feed.hits;
      const otherHits = other.hits;
      // The failed source rests FAILURE_RETRY_MS (60 s): Retry-After 60, then 1 for the last millisecond.
      await unavailable(rates(T0, config), failure.reason, '60');
      assert.equal(feed.hits, hits + 1);
      await unavailable(rates(T0 + 59_001, config), failure.reason, '1');
      await unavailable(rates(T0 + FAILURE_RETRY_MS - 1, config), failure.reason, '1');
      assert.equal(feed.hits, hits + 1, 'refused at once, not asked again');
      assert.equal(other.hits, otherHits, 'a redirect is never followed');
      feed.serve(firstDay);
      assert.deepEqual(await rates(T0 + FAILURE_RETRY_MS, config), first);
    });
  }

  it('answers 503 when nothing listens at the URL', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    await unavailable(rates(T0, { ratesUrl: `http://127.0.0.1:${port}/x.xml` }), /could not be reached/);
  });

  it('answers 503 on both operations, also for a code the rates might not know, but 400 for a repeated target', async () => {
    feed.behave((_q, res) => res.writeHead(503).end());
    const config = { ratesUrl: feed.url };
    await rejectsWith(invoke(currency, 'convert', { from: 'XYZ', to: 'USD' }, { config, now: () => new Date(T0) }), 503, 'upstream_unavailable');
    await rejectsWith(invoke(currency, 'rates', { base: 'usd' }, { config, now: () => new Date(T0) }), 503, 'upstream_unavailable');
    // A request that is wrong whatever the rates stays a 400.
    await rejectsWith(invoke(currency, 'convert', { from: 'USD', to: ['EUR', 'eur'] }, { config, now: () => new Date(T0) }), 400, 'validation_failed', ['/to/1']);
  });

  it('stops waiting when the client goes away, the fetch going on for the others', async () => {
    feed.behave(() => undefined);
    const controller = new AbortController();
    const pending = invoke(currency, 'rates', {}, { config: { ratesUrl: feed.url, timeoutMs: 60000 }, now: () => new Date(T0), signal: controller.signal });
    controller.abort();
    await unavailable(pending, /cancelled/, '1');
    // close() aborts the hanging fetch, so afterEach's idle wait ends.
    await currency.close?.();
  });
});

describe('currency-converter: the feed fails with a previous good set', () => {
  for (const failure of failures) {
    it(`keeps answering with the last good set on ${failure.name}, then takes the new one`, async () => {
      const config = { ratesUrl: feed.url, timeoutMs: 30000, ...failure.config };
      assert.deepEqual(await rates(T0, config), first);
      feed.behave(failure.behaviour);
      const hits = feed.hits;
      // Stale and failing: the answer comes from the old set, the failed refresh keeps it.
      assert.deepEqual(await rates(T0 + HOUR, config), first);
      await rateStoresIdle();
      assert.equal(feed.hits, hits + 1);
      assert.deepEqual(await rates(T0 + HOUR + FAILURE_RETRY_MS - 1, config), first);
      assert.equal(feed.hits, hits + 1, 'resting after the failure');
      feed.serve(secondDay);
      assert.deepEqual(await rates(T0 + HOUR + FAILURE_RETRY_MS, config), first);
      await rateStoresIdle();
      assert.deepEqual(await rates(T0 + HOUR + FAILURE_RETRY_MS + 1, config), second);
    });
  }
});

describe('currency-converter: ratesFile', () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'currency-'));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads the file instead of the URL, and again once refreshMinutes old', async () => {
    const file = join(folder, 'rates.xml');
    await writeFile(file, firstDay);
    const hits = feed.hits;
    const config = { ratesFile: file, ratesUrl: feed.url };
    assert.deepEqual(await rates(T0, config), first);
    await writeFile(file, secondDay);
    assert.deepEqual(await rates(T0 + HOUR - 1, config), first);
    assert.deepEqual(await rates(T0 + HOUR, config), first);
    await rateStoresIdle();
    assert.deepEqual(await rates(T0 + HOUR + 1, config), second);
    assert.equal(feed.hits, hits, 'the URL is never asked');
  });

  it('answers 503 for a missing, oversize, invalid file or a folder, and keeps a good set', async () => {
    const missing = join(folder, 'missing.xml');
    await unavailable(rates(T0, { ratesFile: missing }), /could not be read \(ENOENT\)/);
    await unavailable(rates(T0, { ratesFile: folder }), /not a regular file/);
    const big = join(folder, 'big.xml');
    await writeFile(big, Buffer.alloc(MAX_FEED_BYTES + 1, 0x20));
    await unavailable(rates(T0, { ratesFile: big }), /larger than/);
    const bad = join(folder, 'bad.xml');
    await writeFile(bad, firstDay.replace("rate='1.0892'", "rate='1,0892'"));
    await unavailable(rates(T0, { ratesFile: bad }), /rate of USD/);
    // A good file that later breaks: the good set stays.
    await writeFile(bad, firstDay);
    assert.deepEqual(await rates(T0 + FAILURE_RETRY_MS, { ratesFile: bad }), first);
    await writeFile(bad, 'broken');
    assert.deepEqual(await rates(T0 + FAILURE_RETRY_MS + HOUR, { ratesFile: bad }), first);
    await rateStoresIdle();
    assert.deepEqual(await rates(T0 + FAILURE_RETRY_MS + HOUR + 1, { ratesFile: bad }), first);
  });
});

describe('currency-converter: configuration', () => {
  it('defaults to the ECB daily file, 60 minutes, no file, 10 s', () => {
    assert.deepEqual(resolvePluginConfig(currency, {}), {
      ratesUrl: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml',
      refreshMinutes: 60,
      ratesFile: '',
      timeoutMs: 10000,
    });
  });

  it('refuses out-of-range numbers, a non-http(s) URL and unknown keys', () => {
    const refused = (section: unknown, path: string): void => {
      assert.throws(
        () => resolvePluginConfig(currency, section),
        (error: { status?: number; details?: { path: string }[] }) => error.status === 400 && error.details!.some((detail) => detail.path === path),
        path,
      );
    };
    refused({ refreshMinutes: 0 }, '/refreshMinutes');
    refused({ refreshMinutes: 10081 }, '/refreshMinutes');
    refused({ refreshMinutes: 1.5 }, '/refreshMinutes');
    refused({ timeoutMs: 0 }, '/timeoutMs');
    refused({ timeoutMs: 60001 }, '/timeoutMs');
    refused({ ratesUrl: 'ftp://example.com/rates.xml' }, '/ratesUrl');
    refused({ ratesUrl: 'www.ecb.europa.eu' }, '/ratesUrl');
    refused({ ratesFile: 5 }, '/ratesFile');
    refused({ url: 'https://example.com' }, '/url');
  });
});
