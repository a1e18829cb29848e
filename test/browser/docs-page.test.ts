// GET /docs in a real browser: Debian's chromium driven by playwright-core (no browser download).
// For every operation, "Try it out" with the first example must answer 200 and show the answer;
// no request may leave 127.0.0.1 and the page must break none of its Content-Security-Policy.
// One screenshot per group goes to test-artifacts/docs-page/.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { zoneAnswering, startResolver, type FakeResolver, type PresentedLookup } from '../../plugins/dns-lookup/fake-resolver.js';
import { startFeed, type FakeFeed } from '../../plugins/currency-converter/fake-feed.js';
import { builtinPluginDir } from '../../kernel/server.js';
import { startTestService, type TestService } from '../support/service.js';

const CHROMIUM = '/usr/bin/chromium';
const artifacts = new URL('../../../test-artifacts/docs-page/', import.meta.url);

let service: TestService;
let resolver: FakeResolver;
let feed: FakeFeed;
let browser: Browser;
let page: Page;
const requested = new Set<string>();
const violations: string[] = [];

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  // The upstream groups get local fakes holding what their first example needs.
  const dns = (await import('../../plugins/dns-lookup/index.js')).default;
  resolver = await startResolver(zoneAnswering(dns.operations.lookup!.examples[0]!.response as PresentedLookup));
  feed = await startFeed();
  service = await startTestService(
    { dns: { resolvers: { cloudflare: resolver.url, google: resolver.url } }, currency: { ratesUrl: feed.url } },
    { builtinDir: builtinPluginDir },
  );
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('request', (request) => requested.add(new URL(request.url()).origin));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  mkdirSync(artifacts, { recursive: true });
});
after(async () => {
  await browser?.close();
  await service?.stop();
  await resolver?.close();
  await feed?.close();
});

describe('the browser page at /docs', () => {
  it('answers "Try it out" with the first example of every operation, showing the answer', async () => {
    await page.goto(`${service.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    assert.equal(await page.locator('.authorize').count(), 0, 'no field for an API key');
    const operations = [...service.registry.operations.values()];
    assert.equal(await page.locator('.opblock').count(), operations.length);
    for (const [index, { path, operation }] of operations.entries()) {
      const block = page.locator('.opblock', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      await block.locator('.opblock-summary').click();
      await block.locator('.try-out__btn').click();
      const example = operation.definition.examples[0]!;
      assert.deepEqual(JSON.parse(await block.locator('textarea.body-param__text').inputValue()), example.body, `${path}: the first example is the body`);
      await block.locator('.execute').click();
      const status = block.locator('.live-responses-table tbody .response-col_status');
      await status.waitFor();
      assert.equal((await status.innerText()).trim(), '200', path);
      const shown = JSON.parse(await block.locator('.live-responses-table tbody .response-col_description pre').first().innerText()) as unknown;
      if (example.exact !== false) assert.deepEqual(shown, example.response, `${path}: the answer shown`);
      // The group's last operation, with its answer, is the group's screenshot.
      if (operations[index + 1]?.operation.group !== operation.group) await block.screenshot({ path: new URL(`${operation.group}.png`, artifacts).pathname });
      await block.locator('.opblock-summary').click();
    }
  });

  it('sent no request beyond this service and broke none of its policy', () => {
    assert.deepEqual([...requested], [service.url]);
    assert.deepEqual(violations, []);
  });
});
