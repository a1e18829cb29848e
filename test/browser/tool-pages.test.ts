// The tool pages in a real browser: Debian's chromium driven by playwright-core, one page reused.
// Every operation's first example is loaded with one click, run, and its answer found drawn; the
// search, the QR image (decoded back with jsQR), a JPEG dropped on exif-viewer, a file answer
// downloaded, a 400 marking its field, a 422 in words, a folder plugin's page used by keyboard
// alone, and axe-core on the list and three tool pages (light and dark). No request may leave
// 127.0.0.1, the page may break none of its policy and its script may throw nothing.
// With TEST_SCREENSHOTS=1, screenshots of every tool page with its answer go to test-artifacts/tool-pages/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import jsqr from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import exif from '../../plugins/exif-viewer/index.js';
import qr from '../../plugins/qr-code-generator/index.js';
import { closeBrowser, launchChromium, lookProblems, looksAt, SCREENSHOTS, startServiceWithFakeUpstreams } from '../support/browser.js';
import { externalPlugins, type TestService } from '../support/service.js';

// The callbacks handed to page.evaluate run in the page, but this file is compiled without the DOM
// library (it is Node code): the page globals they use are declared here, untyped.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const DataTransfer: any;
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const artifacts = new URL('../../../test-artifacts/tool-pages/', import.meta.url);
const exifFixtures = new URL('../../../plugins/exif-viewer/fixtures/', import.meta.url);
// jsqr is CommonJS: Node hands its module.exports over as the default import, whose `default` is jsQR.
const jsQR = jsqr.default;

let service: TestService;
let browser: Browser;
let page: Page;
const requested = new Set<string>();
const violations: string[] = [];
const thrown: string[] = [];

before(async () => {
  // greeting comes from a plugin folder, the way a third party's plugin is loaded.
  service = await startServiceWithFakeUpstreams({ plugins: { dirs: [externalPlugins], disabled: ['kernel-probe'] } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.setDefaultTimeout(60_000);
  page.on('request', (request) => requested.add(new URL(request.url()).origin));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => thrown.push(error.message));
  if (SCREENSHOTS) mkdirSync(artifacts, { recursive: true });
});
after(async () => {
  await closeBrowser(browser);
  await service?.stop();
});

/** Runs the form and resolves with the JSON body the page sent, anonymous (the pages never ask for a key). */
async function run(path: string): Promise<unknown> {
  const sent = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === path);
  await page.locator('button[type=submit]').click();
  const request = await sent;
  assert.equal(request.headers().authorization, undefined, `${path} went out without a key`);
  return JSON.parse(request.postData() ?? 'null') as unknown;
}

/** Every member of `expected`, at any depth, is in `actual` with the same value (the form may add defaults). */
function assertContains(actual: unknown, expected: unknown, where: string): void {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected)) return assert.deepEqual(actual, expected, where);
  assert.ok(actual !== null && typeof actual === 'object', where);
  for (const [name, value] of Object.entries(expected)) assertContains((actual as Record<string, unknown>)[name], value, `${where}/${name}`);
}

/** The strings, numbers and booleans of an answer: what its drawing must show as text. SVG markup is drawn as an image, Base64 files as a download. */
function shownLeaves(value: unknown, name = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => shownLeaves(item, name));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => shownLeaves(inner, key));
  if (typeof value === 'string' && (value.startsWith('<svg') || name === 'dataBase64')) return [];
  // A diff row's or part's type is its colour (and <ins>/<del>), not text.
  if (name === 'type' && ['same', 'add', 'del', 'mod'].includes(value as string)) return [];
  return value === null ? [] : [String(value)];
}

const answerShown = (): Promise<string> => page.locator('.answer .view').innerText();
const rawAnswer = async (): Promise<unknown> => JSON.parse((await page.locator('.answer details.raw pre').textContent()) ?? 'null') as unknown;

describe('the tool pages in a browser', () => {
  it('loads every operation\'s first example with one click, runs it and draws the answer', async () => {
    const operations = [...service.registry.operations.values()];
    assert.equal(operations.length, 58 + 1, 'every built-in operation and the folder plugin\'s');
    for (const { path, operation } of operations) {
      await page.goto(`${service.url}/tools/${operation.group}/${operation.name}`);
      const example = operation.definition.examples[0]!;
      await page.locator('button.example').first().click();
      assertContains(await run(path), example.body, `${path}: the example is what the form sends`);
      await page.locator('.answer:not([hidden])').waitFor();
      // Waited for, not read once: a busy CI machine once read "Running…" the moment sql-formatter's
      // answer was drawn (not reproduced alone: one request, then "Done."). The page must end at Done.
      await page.locator('.status', { hasText: /^Done\.$/ }).waitFor();
      const answer = await rawAnswer();
      if (example.exact !== false) assert.deepEqual(answer, example.response, `${path}: the answer`);
      const shown = await answerShown();
      for (const leaf of shownLeaves(answer)) assert.ok(shown.includes(leaf), `${path}: the drawn answer shows ${JSON.stringify(leaf)}`);
      if (SCREENSHOTS) await page.screenshot({ path: new URL(`${operation.group}-${operation.name}.png`, artifacts).pathname, fullPage: true });
    }
  });

  it('finds the tools by search: "jwt" the two JWT tools, "cron" and "hex" theirs; an empty search shows every tool', async () => {
    await page.goto(`${service.url}/`);
    const found = async (query: string): Promise<string[]> => {
      await page.locator('#search').fill(query);
      return page.locator('#search-results a:visible').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    };
    // The two JWT tools first; identify, which names tokens, after them.
    assert.deepEqual((await found('jwt')).slice(0, 2), ['/tools/jwt-decoder/decode', '/tools/jwt-decoder/verify']);
    assert.match(await page.locator('#search-status').innerText(), /^\d+ tools match\. Enter opens JWT decoder: decode\.$/);
    assert.equal(await page.locator('#all-tools').isHidden(), true, 'the matches replace the categories');
    assert.ok((await found('cron')).includes('/tools/cron-expression/explain'));
    // "hex" is a keyword of color-converter and of number-base-converter.
    assert.ok((await found('hex')).includes('/tools/color-converter/convert'));
    assert.ok((await found('hex')).includes('/tools/number-base-converter/convert'));
    assert.deepEqual(await found('no such tool'), []);
    assert.equal(await page.locator('#search-status').innerText(), 'No tool matches.');
    await found('');
    const listed = await page.locator('#all-tools a:visible').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    assert.equal(listed.length, service.host.executor.operations().length, 'every operation the executor serves, recipes included');
  });

  it('shows a QR answer as an image that decodes to the text', async () => {
    const example = qr.operations.text!.examples[0]!;
    await page.goto(`${service.url}/tools/qr-code-generator/text`);
    await page.locator('button.example').first().click();
    await run('/v1/qr-code-generator/text');
    const image = page.locator('.answer figure.image img');
    await image.waitFor();
    assert.match((await image.getAttribute('src')) ?? '', /^data:image\/svg\+xml;/);
    // Drawn from the <img> on white at 8 px per module (the code is 33 modules wide with its margin),
    // read back as RGBA bytes (one character each), decoded in Node.
    const size = 33 * 8;
    const rgba = await image.evaluate((element, side) => {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = side;
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, side, side);
      context.imageSmoothingEnabled = false;
      context.drawImage(element, 0, 0, side, side);
      const bytes = context.getImageData(0, 0, side, side).data as number[];
      let text = '';
      for (let start = 0; start < bytes.length; start += 8192) text += String.fromCharCode(...bytes.slice(start, start + 8192));
      return text;
    }, size);
    const code = jsQR(new Uint8ClampedArray(Buffer.from(rgba, 'latin1')), size, size);
    assert.equal(code?.data, example.body.text);
  });

  it('reads a JPEG dropped on exif-viewer read and shows its tags', async () => {
    const jpeg = readFileSync(new URL('camera.jpg', exifFixtures));
    await page.goto(`${service.url}/tools/exif-viewer/read`);
    const transfer = await page.evaluateHandle((base64) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))], 'camera.jpg', { type: 'image/jpeg' }));
      return data;
    }, jpeg.toString('base64'));
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByText('camera.jpg, 4,845 bytes.').waitFor();
    const sent = (await run('/v1/exif-viewer/read')) as { dataBase64: string };
    assert.equal(sent.dataBase64, jpeg.toString('base64'));
    await page.locator('.answer:not([hidden])').waitFor();
    // exiftool -a -G1 -s camera.jpg (plugins/exif-viewer/fixtures/README.md): Make Canon, LensModel
    // EF24-105mm f/4L IS USM, Artist Jane Doe, shown as rows of the tags table.
    const rows = await page.locator('.answer table tr').evaluateAll((cells) => cells.map((row) => (row as { innerText: string }).innerText.split('\t').map((cell) => cell.trim())));
    for (const tag of [['Make', 'camera', 'Canon'], ['LensModel', 'camera', 'EF24-105mm f/4L IS USM'], ['Artist', 'author', 'Jane Doe']]) assert.ok(rows.some((row) => row.join('|') === tag.join('|')), `${tag.join(' ')} in ${JSON.stringify(rows)}`);
  });

  it('offers a Base64 file answer (exif-viewer strip) as a download of its bytes', async () => {
    const stripped = exif.operations.strip!.examples[0]!.response as { dataBase64: string };
    await page.goto(`${service.url}/tools/exif-viewer/strip`);
    await page.locator('button.example').first().click();
    await run('/v1/exif-viewer/strip');
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.answer button.download').click()]);
    assert.equal(download.suggestedFilename(), 'exif-viewer-strip.png');
    assert.deepEqual(readFileSync((await download.path())!), Buffer.from(stripped.dataBase64, 'base64'));
  });

  it('marks the field a 400 names with its message, nested ones too, and says a 422 in words', async () => {
    await page.goto(`${service.url}/tools/qr-code-generator/text`);
    await page.getByLabel('Text').fill('hi');
    await page.getByLabel('Margin').fill('99');
    await run('/v1/qr-code-generator/text');
    const margin = page.getByLabel('Margin');
    await page.locator('[aria-invalid="true"]').waitFor();
    assert.equal(await margin.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('[aria-invalid="true"]').count(), 1);
    const message = page.locator(`#${(await margin.getAttribute('aria-describedby'))!.split(' ').pop()!}`);
    assert.equal(await message.innerText(), 'Margin must be at most 16.');
    assert.equal(await page.locator('.status').innerText(), 'Check the marked field: Margin must be at most 16.');
    assert.ok(await margin.evaluate((element) => element === document.activeElement), 'the marked field has the focus');

    await page.getByLabel('Margin').fill('2');
    await page.getByLabel('Text').fill('a'.repeat(3000));
    await page.getByLabel('Error correction').selectOption('H');
    await run('/v1/qr-code-generator/text');
    await page.locator('.status.problem').waitFor();
    assert.match(await page.locator('.status').innerText(), /^The tool cannot process this input: /);
    // A 422 names no field: the main one (Text) carries it.
    assert.equal(await page.locator('[aria-invalid="true"]').count(), 1);
    assert.equal(await page.getByRole('textbox', { name: /^Text\b/ }).getAttribute('aria-invalid'), 'true');

    // An empty SSID inside the `content` union: the value picks its branch by `type`, so the 400
    // names /content/ssid and the page marks that input itself, not the whole fieldset.
    // The page would bring back the last input kept in this browser (the first test's Wi-Fi example, SSID filled): forget it.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${service.url}/tools/qr-code-generator/create`);
    await page.getByRole('radio', { name: 'wifi' }).check();
    await run('/v1/qr-code-generator/create');
    const marked = page.locator('[aria-invalid="true"]');
    await marked.waitFor();
    assert.equal(await marked.count(), 1);
    assert.match(await marked.evaluate((element) => (element as unknown as { labels: { textContent: string | null }[] | null }).labels?.[0]?.textContent ?? ''), /ssid/i);
    const ssidMessage = page.locator(`#${(await marked.getAttribute('aria-describedby'))!.split(' ').pop()!}`);
    assert.equal(await ssidMessage.innerText(), 'Fill in SSID.');
  });

  it('colours a side-by-side diff and says each changed row in words too', async () => {
    // The example: line 1 changed (brown → red), line 2 the same, line 3 added on the right.
    await page.goto(`${service.url}/tools/text-diff/lines`);
    await page.locator('button.example').first().click();
    await run('/v1/text-diff/lines');
    const rows = page.locator('.answer table.diff tbody tr');
    await rows.first().waitFor();
    assert.deepEqual(await rows.evaluateAll((found) => found.map((row) => (row as { className: string }).className)), ['diff-mod', 'diff-same', 'diff-add']);
    assert.deepEqual(await page.locator('.answer table.diff td .offscreen').allTextContents(), ['changed: ', 'changed: ', 'added: ']);
    assert.deepEqual(await page.locator('.answer table.diff del').allTextContents(), ['brown']);
    assert.deepEqual(await page.locator('.answer table.diff ins').allTextContents(), ['red']);
  });

  it('gives a folder plugin its own page, usable by keyboard alone', async () => {
    await page.goto(`${service.url}/`);
    assert.equal(await page.locator('#group-greeting a[href="/tools/greeting/hello"]').count(), 1);
    await page.goto(`${service.url}/tools/greeting/hello`);
    // The page opens with its first field focused; the examples are just before it.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-required')), 'true', 'the first field, required, has the focus');
    const tabTo = async (selector: string, key: 'Tab' | 'Shift+Tab'): Promise<void> => {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press(key);
        if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
      }
      assert.fail(`${key} never reached ${selector}`);
    };
    await tabTo('button.example', 'Shift+Tab');
    await page.keyboard.press('Enter');
    await tabTo('button[type=submit]', 'Tab');
    await page.keyboard.press('Enter');
    await page.locator('.answer:not([hidden])').waitFor();
    assert.equal((await answerShown()).replace(/\s+/g, ' ').trim(), 'Greeting Hello, Ada!');
  });

  it('has no serious or critical accessibility problem (axe-core) on the list and three tool pages, light and dark', async () => {
    const problems: string[] = [];
    const looks = looksAt(1100);
    await page.goto(`${service.url}/`);
    problems.push(...(await lookProblems(page, '/', looks, { overflow: false })));
    for (const tool of ['qr-code-generator/create', 'exif-viewer/read', 'text-diff/lines']) {
      await page.goto(`${service.url}/tools/${tool}`);
      await page.locator('button.example').first().click();
      await run(`/v1/${tool}`);
      await page.locator('.answer:not([hidden])').waitFor();
      problems.push(...(await lookProblems(page, tool, looks, { overflow: false })));
    }
    assert.deepEqual(problems, []);
  });

  it('sent no request beyond this service, broke none of its policy and threw nothing', () => {
    assert.deepEqual([...requested], [service.url]);
    assert.deepEqual(violations, []);
    assert.deepEqual(thrown, []);
  });
});
