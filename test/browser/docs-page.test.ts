// GET /docs in a real browser: Debian's chromium driven by playwright-core (no browser download).
// For every operation, "Try it out" with the first example must answer 200 and show the answer;
// no request may leave 127.0.0.1 and the page must break none of its Content-Security-Policy.
// One screenshot per group goes to test-artifacts/docs-page/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { closeBrowser, launchChromium, startServiceWithFakeUpstreams } from '../support/browser.js';
import type { TestService } from '../support/service.js';

const artifacts = new URL('../../../test-artifacts/docs-page/', import.meta.url);

let service: TestService;
let browser: Browser;
let page: Page;
const requested = new Set<string>();
const violations: string[] = [];

before(async () => {
  service = await startServiceWithFakeUpstreams();
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('request', (request) => requested.add(new URL(request.url()).origin));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  mkdirSync(artifacts, { recursive: true });
});
after(async () => {
  await closeBrowser(browser);
  await service?.stop();
});

describe('the browser page at /docs', () => {
  it('answers "Try it out" with the first example of every operation, showing the answer', async () => {
    await page.goto(`${service.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    assert.equal(await page.locator('.authorize').count(), 0, 'no field for an API key');
    const operations = [...service.registry.operations.values()];
    // One POST block per operation the executor serves (the plugins' and the recipes'); the 405 every other method gets is stated once in the
    // document's description, not as a GET block that always fails (issue 39).
    assert.equal(await page.locator('.opblock.opblock-post').count(), service.host.executor.operations().length);
    assert.equal(await page.locator('.opblock.opblock-get').count(), 0);
    for (const [index, { path, operation }] of operations.entries()) {
      const block = page.locator('.opblock.opblock-post', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
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
