// The tool pages used as tools, in Debian's chromium: answers while typing, Ctrl+Enter, the old
// answer gone after an error with the field marked, a link that reopens the filled tool with its
// answer, the input kept in the browser, colour pickers and swatches, match highlighting, the list
// in categories with human titles and its search, and every page axe-core clean and inside the
// window, light and dark, at 1280 and 390 px. Every wait is on a condition, never a fixed sleep.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lookProblems, looksAt, pageSession } from '../support/browser.js';

// The callbacks handed to page.evaluate run in the page; this file is compiled without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const session = pageSession();
const { posted, thrown } = session;

const sentTo = (path: string): string[] => posted.filter((entry) => entry.path === path).map((entry) => entry.body);
const focused = (): Promise<string> => session.page.evaluate(() => `${document.activeElement?.tagName ?? ''}#${document.activeElement?.id ?? ''}`);

describe('the tool pages used as tools', () => {
  it('answers as you type, after a pause, with one request for a quickly typed word', async () => {
    await session.page.goto(`${session.service.url}/tools/base64/encode`);
    const before = sentTo('/v1/base64/encode').length;
    await session.page.getByRole('textbox', { name: /^Text\b/ }).pressSequentially('hello');
    // RFC 4648 §10: BASE64("hello") is not listed; "hel" → "aGVs", "lo" → "bG8=": aGVsbG8=.
    await session.page.locator('.answer .view', { hasText: 'aGVsbG8=' }).waitFor();
    const sent = sentTo('/v1/base64/encode').slice(before);
    assert.ok(sent.length >= 1 && sent.length <= 5, `${sent.length} requests for 5 keystrokes`);
    assert.equal(JSON.parse(sent[sent.length - 1]!).text, 'hello');
    assert.equal(await session.page.locator('button[type=submit]').count(), 1);
    assert.match(await session.page.locator('.budget').innerText(), /^\d[\d,]* of \d[\d,]* requests left for this address/);
  });

  it('runs on Ctrl+Enter from a field and keeps the focus there; Run keeps it on the button', async () => {
    // uuid-generator generate is random, so it answers on request only: typing sends nothing.
    await session.page.goto(`${session.service.url}/tools/uuid-generator/generate`);
    const field = session.page.getByRole('spinbutton', { name: /^Count\b/ });
    await field.fill('3');
    const id = await field.getAttribute('id');
    await field.press('Control+Enter');
    await session.page.locator('.answer:not([hidden])').waitFor();
    assert.equal(sentTo('/v1/uuid-generator/generate').length, 1, 'one request, from Ctrl+Enter');
    assert.deepEqual(JSON.parse(sentTo('/v1/uuid-generator/generate')[0]!).count, 3);
    assert.equal((await session.page.locator('.answer .view li').allTextContents()).filter((text) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/.test(text)).length, 3);
    assert.ok((await focused()).endsWith(`#${id}`), 'the field keeps the focus');
    await session.page.locator('button[type=submit]').click();
    await session.page.waitForFunction(() => document.querySelectorAll('.answer .view li').length === 3 && document.querySelector('.status')?.textContent === 'Done.');
    assert.equal(sentTo('/v1/uuid-generator/generate').length, 2);
    assert.equal(await session.page.evaluate(() => document.activeElement?.getAttribute('type')), 'submit');
  });

  it('clears the old answer after an error and marks the main field in plain words', async () => {
    await session.page.goto(`${session.service.url}/tools/base64/decode`);
    const text = session.page.getByRole('textbox', { name: /^Base64\b/ });
    await text.fill('aGk=');
    await text.press('Control+Enter');
    await session.page.locator('.answer .view', { hasText: 'hi' }).waitFor();
    await text.fill('a');
    await text.press('Control+Enter');
    await session.page.locator('.status.problem').waitFor();
    assert.equal(await session.page.locator('.answer').isHidden(), true, 'the old answer is gone');
    assert.equal(await text.getAttribute('aria-invalid'), 'true');
    const message = await session.page.locator('.field-error:not([hidden])').innerText();
    assert.ok(message.length > 10 && !/must not|schema|\/text/.test(message), message);
  });

  it('puts the filled form in a link that reopens the tool filled and answered, and keeps it for the next visit', async () => {
    await session.page.goto(`${session.service.url}/tools/number-base-converter/convert`);
    await session.page.locator('button.example').first().click();
    await session.page.locator('.answer:not([hidden])').waitFor();
    await session.page.waitForFunction(() => window.location.hash.startsWith('#input='));
    const link = session.page.url();
    const answer = await session.page.locator('.answer details.raw pre').textContent();
    const other = await session.context.newPage();
    try {
      await other.goto(link);
      await other.locator('.answer:not([hidden])').waitFor();
      assert.equal(await other.locator('.answer details.raw pre').textContent(), answer);
      // The same input, kept in this browser, fills the page opened without the link.
      await other.goto(`${session.service.url}/tools/number-base-converter/convert`);
      await other.locator('.status', { hasText: 'Your last input is back; pasting into a field replaces it.' }).waitFor();
      assert.equal(await other.evaluate(() => window.location.hash), '');
    } finally {
      await other.close();
    }
    await session.page.locator('button.favourite').click();
    await session.page.goto(`${session.service.url}/`);
    const kept = await session.page.locator('#kept a').evaluateAll((links) => links.map((link) => (link as { textContent: string }).textContent));
    assert.ok(kept.includes('Number bases: convert'), JSON.stringify(kept));
  });

  it('gives colour fields a picker that writes the text, and colour answers swatches', async () => {
    await session.page.goto(`${session.service.url}/tools/color-converter/contrast`);
    assert.equal(await session.page.locator('input[type=color]').count(), 2);
    await session.page.getByLabel('Pick foreground').fill('#00ff00');
    assert.equal(await session.page.getByRole('textbox', { name: /^Foreground\b/ }).inputValue(), '#00ff00');
    await session.page.goto(`${session.service.url}/tools/color-converter/convert`);
    await session.page.getByRole('textbox', { name: /^Color\b/ }).fill('rebeccapurple');
    // CSS Color 4: rebeccapurple is #663399; the picker follows the typed name.
    assert.equal(await session.page.getByLabel('Pick color').inputValue(), '#663399');
    await session.page.getByRole('checkbox', { name: 'Scale' }).check();
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.answer:not([hidden])').waitFor();
    // Each answer the browser reads as a CSS colour (hex, rgb, hsl, oklch; not hsv or cmyk), and the 12 tints and shades.
    assert.equal(await session.page.locator('.answer .swatch').count(), 4 + 12);
  });

  it('highlights the matches of a pattern in the text', async () => {
    await session.page.goto(`${session.service.url}/tools/regex-tester/test`);
    await session.page.getByRole('textbox', { name: /^Pattern\b/ }).fill('o+');
    await session.page.getByRole('textbox', { name: /^Text\b/ }).fill('foo boo bar');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.highlight mark').first().waitFor();
    assert.deepEqual(await session.page.locator('.highlight mark').allTextContents(), ['oo', 'oo']);
  });

  it('lists the tools in categories with human titles; search finds sha256, epoch, cidr, hex; Enter opens the best match', async () => {
    await session.page.goto(`${session.service.url}/`);
    assert.equal(await session.page.evaluate(() => document.activeElement?.id), 'search', 'the search box has the focus');
    const categories = await session.page.locator('.category > h2').allTextContents();
    // The service's own recipes group after the plugins' categories.
    assert.deepEqual(categories, ['Encoding', 'Text', 'Developer', 'Security', 'Network', 'Dates and time', 'Numbers and money', 'Images and colour', 'Recipes']);
    assert.equal(await session.page.locator('#group-jwt-decoder h3').innerText(), 'JWT decoder');
    const found = async (query: string): Promise<string[]> => {
      await session.page.locator('#search').fill(query);
      return session.page.locator('#search-results a:visible').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    };
    assert.deepEqual(await found('sha256'), ['/tools/hash-generator/hash']);
    assert.deepEqual(await found('epoch'), ['/tools/timestamp-converter/convert']);
    assert.deepEqual(await found('cidr'), ['/tools/subnet-calculator/calculate']);
    assert.ok((await found('hex')).includes('/tools/number-base-converter/convert'));
    await found('epoch');
    await session.page.locator('#search').press('Enter');
    await session.page.waitForURL(`${session.service.url}/tools/timestamp-converter/convert`);
  });

  it('stays axe-core clean and inside the window, light and dark, at 1280 and 390 px', async () => {
    const problems: string[] = [];
    for (const path of ['/', '/tools/color-converter/convert', '/tools/regex-tester/test', '/tools/jwt-decoder/decode', '/tools/no-such-tool']) {
      await session.page.goto(`${session.service.url}${path}`);
      if (path !== '/' && path !== '/tools/no-such-tool') {
        await session.page.locator('button.example').first().click();
        await session.page.locator('button[type=submit]').click();
        await session.page.locator('.answer:not([hidden])').waitFor();
      }
      problems.push(...(await lookProblems(session.page, path, looksAt(1280, 390))));
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(thrown, []);
  });
});
