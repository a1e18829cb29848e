/**
 * What the browser tests share: Debian's chromium driven by playwright-core (no browser download),
 * and a service whose DNS and currency upstreams are local fakes holding what those groups' first
 * examples need.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { zoneAnswering, startResolver, type PresentedLookup } from '../../plugins/dns-lookup/fake-resolver.js';
import { startFeed } from '../../plugins/currency-converter/fake-feed.js';
import { builtinPluginDir } from '../../kernel/host/index.js';
import { startTestService, type TestService } from './service.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless chromium that reaches nothing by itself (no sync, updates or QUIC probes). */
export function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Every built-in plugin, with `config` merged over the fakes' addresses; `stop` ends the fakes too. */
export async function startServiceWithFakeUpstreams(config: Record<string, unknown> = {}): Promise<TestService> {
  const dns = (await import('../../plugins/dns-lookup/index.js')).default;
  const resolver = await startResolver(zoneAnswering(dns.operations.lookup!.examples[0]!.response as PresentedLookup));
  const feed = await startFeed();
  const service = await startTestService(
    { dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } }, currency: { ratesUrl: feed.url }, ...config },
    { builtinDir: builtinPluginDir },
  );
  const stop = service.stop.bind(service);
  return Object.assign(service, {
    stop: async () => {
      await stop();
      await resolver.close();
      await feed.close();
    },
  });
}

/** One test file's browser on the service with fake upstreams (startServiceWithFakeUpstreams). */
export interface PageSession {
  service: TestService;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Every POST body the page sent, by API path. */
  readonly posted: { path: string; body: string }[];
  /** Every error the page's script threw. */
  readonly thrown: string[];
}

/** What a test file's session may change: the service's configuration, the browser's time zone. */
export interface SessionOptions {
  readonly config?: Record<string, unknown>;
  /** An IANA zone for the browser (the pages read it as the reader's); the machine's when left out. */
  readonly timezoneId?: string;
}

/**
 * A page at 1280 × 900 for one test file: opened before its tests, closed after them. The fields
 * are filled by the time the first test runs.
 */
export function pageSession(options: SessionOptions = {}): PageSession {
  const session = { posted: [], thrown: [] } as unknown as PageSession;
  before(async () => {
    session.service = await startServiceWithFakeUpstreams(options.config);
    session.browser = await launchChromium();
    session.context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) });
    const page = (session.page = await session.context.newPage());
    page.setDefaultTimeout(60_000);
    page.on('request', (request) => {
      if (request.method() === 'POST') session.posted.push({ path: new URL(request.url()).pathname, body: request.postData() ?? '' });
    });
    page.on('pageerror', (error) => session.thrown.push(error.message));
  });
  after(async () => {
    await session.browser?.close();
    await session.service?.stop();
  });
  return session;
}
