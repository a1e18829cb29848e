/**
 * What the browser tests share: Debian's chromium driven by playwright-core (no browser download),
 * and a service whose DNS and currency upstreams are local fakes holding what those groups' first
 * examples need.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { zoneAnswering, startResolver, type PresentedLookup } from '../../plugins/dns-lookup/fake-resolver.js';
import { startFeed } from '../../plugins/currency-converter/fake-feed.js';
import { builtinPluginDir } from '../../kernel/host/index.js';
import { childrenOf } from './process-tree.js';
import { startTestService, type TestService } from './service.js';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Whether the browser tests save screenshots of what they looked at (to test-artifacts/): for a
 * person reviewing the pages, `TEST_SCREENSHOTS=1 node scripts/run-tests.mjs test/browser`. They
 * check nothing, and a full-page PNG costs Chromium about as much CPU as loading the page, so a
 * plain run takes none.
 */
export const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1';

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

// The callbacks handed to page.evaluate run in the page; this file is compiled without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A window the pages are looked at in: its width in CSS pixels (900 high) and its colour scheme. */
export interface Look {
  readonly width: number;
  readonly scheme: 'light' | 'dark';
}

/** Every width of `widths` in light and in dark. */
export const looksAt = (...widths: number[]): Look[] => widths.flatMap((width) => [{ width, scheme: 'light' as const }, { width, scheme: 'dark' as const }]);

/**
 * The pages' script reads neither the window's size nor its colour scheme (their stylesheet alone
 * follows both): what lets one page state be looked at in every Look. Asked of the bundle the
 * service serves, so a script that starts reading either fails here instead of being looked at
 * only as it was drawn for the first window.
 */
function assertStyleAloneFollowsTheWindow(): void {
  const script = readFileSync(new URL('../../tool-pages/tool-pages.js', import.meta.url), 'utf8');
  assert.doesNotMatch(script, /matchMedia|prefers-color-scheme|innerWidth|outerWidth|clientWidth|offsetWidth|getBoundingClientRect|ResizeObserver|devicePixelRatio|['"]resize['"]/, 'the tool pages\' script reads the window: look at each Look on a page loaded in it');
}

/**
 * What is wrong with the page as it stands, in each of `looks`: every serious or critical axe-core
 * violation and, unless `overflow` is false, any width beyond the window's; each problem starts
 * with the look and `where`. The page is resized and its scheme switched in place, not reloaded
 * and brought back to the state again for each look: the state costs a navigation, its clicks
 * and axe-core's 0.5 MB of script each time, and the look changes what the stylesheet draws only
 * (assertStyleAloneFollowsTheWindow). The window and scheme are put back as they were (light) after.
 */
export async function lookProblems(page: Page, where: string, looks: readonly Look[], { overflow = true } = {}): Promise<string[]> {
  assertStyleAloneFollowsTheWindow();
  const size = page.viewportSize();
  const problems: string[] = [];
  // Evaluated, not added as a script element: the page's policy allows only its own script.
  await page.evaluate(axeSource);
  try {
    for (const { width, scheme } of looks) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      const at = `${width} ${scheme} ${where}`;
      const results = await page.evaluate(() => (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] }));
      for (const entry of results.violations) {
        if (entry.impact === 'serious' || entry.impact === 'critical') problems.push(`${at}: ${entry.id} (${entry.impact}): ${entry.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
      if (!overflow) continue;
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (wider > 0) problems.push(`${at}: ${wider} px wider than the window`);
    }
  } finally {
    if (size !== null) await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: 'light' });
  }
  return problems;
}
