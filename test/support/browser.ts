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
import { childrenOf } from './process-tree.js';
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

/**
 * How long closing a browser may take before its processes are killed: a hang guard, not a speed
 * target. Chromium's close can wait forever on its side (playwright#22185 is one such case); the
 * file would then never end and hold the whole run.
 */
const CLOSE_GUARD_MS = 30_000;

/** Closes the browser's contexts and then the browser; kills Chromium's processes if that does not end. */
export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  if (browser === undefined) return;
  const closing = (async () => {
    for (const context of browser.contexts()) await context.close();
    await browser.close();
  })();
  let guard: NodeJS.Timeout | undefined;
  const ended = await Promise.race([closing.then(() => true), new Promise<false>((resolve) => (guard = setTimeout(() => resolve(false), CLOSE_GUARD_MS)))]);
  clearTimeout(guard);
  if (ended) return;
  const killed = killChromiumChildren();
  process.stderr.write(`closing the browser did not end within ${CLOSE_GUARD_MS} ms: killed chromium ${killed.join(', ') || '(none found)'}\n`);
}

/** SIGKILLs the process group of every chromium this process started (playwright starts it in a group of its own); returns their ids. */
function killChromiumChildren(): number[] {
  const killed: number[] = [];
  for (const { pid, command } of childrenOf(process.pid)) {
    if (!command.startsWith('chromium')) continue;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        continue; // ended meanwhile
      }
    }
    killed.push(pid);
  }
  return killed;
}

/** Every built-in plugin, with `config` merged over the fakes' addresses; `stop` ends the fakes too. */
export async function startServiceWithFakeUpstreams(config: Record<string, unknown> = {}): Promise<TestService> {
  const dns = (await import('../../plugins/dns-lookup/index.js')).default;
  const resolver = await startResolver(zoneAnswering(dns.operations.lookup!.examples[0]!.response as PresentedLookup));
  const feed = await startFeed();
  let service: TestService;
  try {
    service = await startTestService(
      { dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } }, currency: { ratesUrl: feed.url }, ...config },
      { builtinDir: builtinPluginDir },
    );
  } catch (error) {
    // Left listening, the fakes would hold the file's process open after its failure (a CI run hung so).
    await resolver.close();
    await feed.close();
    throw error;
  }
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
    await closeBrowser(session.browser);
    await session.service?.stop();
  });
  return session;
}
