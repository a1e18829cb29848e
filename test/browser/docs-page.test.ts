// GET /docs in a real browser: Debian's chromium driven by playwright-core (no browser download).
// For every operation, the body "Try it out" offers must be its first example, and sending it as
// "Try it out" sends it must answer 200 with the example's answer; for one operation of each kind,
// "Try it out" is clicked through and the answer must be shown. No request may leave 127.0.0.1 and
// the page must break none of its Content-Security-Policy. With TEST_SCREENSHOTS=1, the operations
// clicked through are screenshotted to test-artifacts/docs-page/.
//
// Why not click through every operation: Swagger UI resolves an OpenAPI 3.1 operation as it is
// expanded, with the whole document each time (swagger-ui issue #10748), and draws it again with
// each click: about two seconds of Chromium's CPU per operation, four of the run's minutes in all.
// Expanding, filling, sending and drawing are the same code for every operation; what differs is
// each operation's data, and Swagger UI's own functions are asked about it for every operation.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { RegisteredOperation } from '../../kernel/host/registry.js';
import { closeBrowser, launchChromium, SCREENSHOTS, startServiceWithFakeUpstreams } from '../support/browser.js';
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
  if (SCREENSHOTS) mkdirSync(artifacts, { recursive: true });
  await page.goto(`${service.url}/docs`);
  await page.locator('.opblock').first().waitFor();
});
after(async () => {
  await closeBrowser(browser);
  await service?.stop();
});

/** What the page's Swagger UI (window.ui) offers "Try it out" for one operation, and what sending that answers. */
interface Tried {
  readonly path: string;
  /** The request body "Try it out" fills in, as its text box holds it. */
  readonly offered: string;
  readonly status: number;
  readonly answer: string;
}

/**
 * The operation kinds whose "Try it out" is clicked through: one operation of each, the first the
 * registry lists. Between kinds, what Swagger UI draws differs (which of several examples it
 * offers, an answer that is one of many, an answer through an upstream, the length of the answer).
 */
function oneOfEachKind(operations: readonly RegisteredOperation[]): RegisteredOperation[] {
  const first = (kind: (operation: RegisteredOperation['operation']) => boolean): RegisteredOperation => {
    const found = operations.find(({ operation }) => kind(operation));
    assert.ok(found !== undefined, 'every kind has an operation');
    return found;
  };
  const answerLength = ({ operation }: RegisteredOperation): number => JSON.stringify(operation.definition.examples[0]!.response).length;
  const longest = operations.reduce((longest, entry) => (answerLength(entry) > answerLength(longest) ? entry : longest));
  const chosen = [
    first((operation) => operation.definition.examples.length === 1 && operation.definition.examples[0]!.exact !== false),
    first((operation) => operation.definition.examples.length > 1),
    first((operation) => operation.definition.examples[0]!.exact === false),
    first((operation) => operation.definition.upstream === true),
    longest,
  ];
  return [...new Set(chosen)];
}

describe('the browser page at /docs', () => {
  it('shows one POST block per operation and no field for an API key', async () => {
    assert.equal(await page.locator('.authorize').count(), 0, 'no field for an API key');
    // One POST block per operation the executor serves (the plugins' and the recipes'); the 405 every other method gets is stated once in the
    // document's description, not as a GET block that always fails (issue 39).
    assert.equal(await page.locator('.opblock.opblock-post').count(), service.host.executor.operations().length);
    assert.equal(await page.locator('.opblock.opblock-get').count(), 0);
  });

  it('offers the first example of every operation to "Try it out", and answers it as "Try it out" sends it', async () => {
    const operations = [...service.registry.operations.values()];
    // In the page, with the functions Swagger UI's request-body box and Execute button call: the
    // box's text is getSampleSchema of the schema with the example (the first of `examples`, or
    // `example`) given, and Execute hands that text to execute() against the loaded document.
    const tried = await page.evaluate(async (paths: string[]): Promise<Tried[]> => {
      /* eslint-disable @typescript-eslint/no-explicit-any -- Swagger UI's system, untyped in this Node-compiled file */
      const ui = (globalThis as any).ui;
      const location = (globalThis as any).location;
      /* eslint-enable @typescript-eslint/no-explicit-any */
      const spec = ui.specSelectors.specJson().toJS();
      const contextUrl = new URL(ui.specSelectors.url(), location.href).href;
      const results: Tried[] = [];
      for (const path of paths) {
        const operation = spec.paths[path].post;
        const media = operation.requestBody.content['application/json'];
        const example = media.examples === undefined ? media.example : (Object.values(media.examples)[0] as { value: unknown } | undefined)?.value;
        const offered = ui.fn.getSampleSchema(media.schema, 'application/json', { includeWriteOnly: true }, example);
        const text = typeof offered === 'string' ? offered : JSON.stringify(offered, null, 2);
        const response = await ui.fn.execute({ spec, pathName: path, method: 'post', operationId: operation.operationId, requestBody: text, requestContentType: 'application/json', contextUrl });
        results.push({ path, offered: text, status: response.status, answer: response.text });
      }
      return results;
    }, operations.map(({ path }) => path));
    assert.deepEqual(tried.map(({ path }) => path), operations.map(({ path }) => path));
    for (const [index, { path, offered, status, answer }] of tried.entries()) {
      const example = operations[index]!.operation.definition.examples[0]!;
      assert.deepEqual(JSON.parse(offered), example.body, `${path}: the first example is the body`);
      assert.equal(status, 200, path);
      if (example.exact !== false) assert.deepEqual(JSON.parse(answer), example.response, `${path}: the answer`);
    }
  });

  it('clicks Try it out through with the first example for one operation of each kind, and shows the answer', async () => {
    for (const { path, operation } of oneOfEachKind([...service.registry.operations.values()])) {
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
      if (SCREENSHOTS) await block.screenshot({ path: new URL(`${operation.group}-${operation.name}.png`, artifacts).pathname });
      await block.locator('.opblock-summary').click();
    }
  });

  it('sent no request beyond this service and broke none of its policy', () => {
    assert.deepEqual([...requested], [service.url]);
    assert.deepEqual(violations, []);
  });
});
