// The jobs of issue 48's trial, in Debian's chromium, with the browser in Asia/Tokyo (UTC+9, no
// summer time): the search ranked (the table of what people type, ↑/↓ and Enter), answers marked
// the moment they belong to an older input, JWT decode, timestamps and cron answering as you type,
// times in the reader's zone, a link opened in a tab already on its page, and the smaller things:
// the first field focused, a Copy button on every value, regex flags errors under Flags, named
// groups readable at 390 px, QR codes as PNG, plain hints, forgetting what the browser keeps, a
// paste replacing a restored input, few landmarks on /. Every wait is on a condition.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import jsqr from 'jsqr';
import type { Page } from 'playwright-core';
import qr from '../../plugins/qr-code-generator/index.js';
import { lookProblems, looksAt, pageSession } from '../support/browser.js';
import { SEARCH_QUERIES } from '../support/search-queries.js';

// The callbacks handed to page.evaluate run in the page; this file is compiled without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const localStorage: any;
declare const DataTransfer: any;
declare const ClipboardEvent: any;
declare const getComputedStyle: any;
declare const Image: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

// jsqr is CommonJS: Node hands its module.exports over as the default import, whose `default` is jsQR.
const jsQR = jsqr.default;
const session = pageSession({ timezoneId: 'Asia/Tokyo' });
const { posted, thrown } = session;
const sentTo = (path: string): string[] => posted.filter((entry) => entry.path === path).map((entry) => entry.body);
const open = (path: string): Promise<unknown> => session.page.goto(`${session.service.url}${path}`);
const answerJson = async (target: Page = session.page): Promise<Record<string, unknown>> => JSON.parse((await target.locator('.answer details.raw pre').textContent()) ?? 'null') as Record<string, unknown>;

/** A tab whose clock the test runs (timers wait until it does), for `use`; its POSTs go to `posted` too. */
async function withClock(use: (tab: Page) => Promise<void>): Promise<void> {
  const tab = await session.context.newPage();
  tab.setDefaultTimeout(60_000);
  tab.on('request', (request) => {
    if (request.method() === 'POST') posted.push({ path: new URL(request.url()).pathname, body: request.postData() ?? '' });
  });
  tab.on('pageerror', (error) => thrown.push(error.message));
  await tab.clock.install();
  try {
    await use(tab);
  } finally {
    await tab.close();
  }
}

// Header {"alg":"HS256","typ":"JWT"}, payload {"sub":"1234567890","name":"John Doe","iat":1516239022}: jwt.io's example token.
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('search that ranks', () => {
  it(`ranks the search: each of ${SEARCH_QUERIES.length} queries highlights the page a person expects, which Enter opens`, async () => {
    await open('/');
    // All the queries in one evaluation in the page: each is put in the box as typing leaves it (the
    // value, then the input event the page ranks on) and the highlighted link read at once, where a
    // fill and a read per query cost Chromium ~45 ms each. ↑, ↓ and Enter below are keys.
    const highlighted = await session.page.evaluate((queries) => {
      const box = document.querySelector('#search');
      return queries.map((query) => {
        box.value = query;
        box.dispatchEvent(new Event('input', { bubbles: true }));
        return (document.querySelector('#search-results li.active a')?.getAttribute('href') ?? null) as string | null;
      });
    }, SEARCH_QUERIES.map(([query]) => query));
    const wrong = SEARCH_QUERIES.flatMap(([query, page], index) => (highlighted[index] === page ? [] : [`${query} → ${highlighted[index]} (expected ${page})`]));
    assert.deepEqual(wrong, []);
    // ↓ moves the highlight (and says so), ↑ back; Enter opens the highlighted one.
    await session.page.locator('#search').fill('base64');
    const second = await session.page.locator('#search-results li').nth(1).locator('a').getAttribute('href');
    const label = await session.page.locator('#search-results li').nth(1).locator('.op').innerText();
    await session.page.locator('#search').press('ArrowDown');
    assert.equal(await session.page.locator('#search-results li.active a').getAttribute('href'), second);
    assert.ok((await session.page.locator('#search-status').innerText()).endsWith(`Enter opens ${label}.`));
    await session.page.locator('#search').press('ArrowUp');
    await session.page.locator('#search').press('ArrowDown');
    await session.page.locator('#search').press('Enter');
    await session.page.waitForURL(`${session.service.url}${second!}`);
  });

  it('has a few landmarks on /, not one per tool group', async () => {
    await open('/');
    const landmarks = await session.page.evaluate(() => document.querySelectorAll('header, nav, main, [role=search], section[aria-label]:not([hidden]), section[aria-labelledby]:not([hidden]), aside, footer').length);
    // The bar, its navigation, main, the search and "What is this?"; the kept tools when there are some.
    assert.ok(landmarks <= 6, `${landmarks} landmarks`);
  });
});

describe('answers that never go stale', () => {
  it('marks an answer the moment its input changes, says what brings the new one, and clears the mark when it is current again', async () => {
    // Random, so it answers on Run only.
    await open('/tools/uuid-generator/generate');
    const count = session.page.getByRole('spinbutton', { name: /^Count\b/ });
    await count.fill('2');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    await count.fill('3');
    await session.page.locator('.answer.stale .stale-note', { hasText: 'This answer is for an earlier input: press Run for the new input.' }).waitFor();
    assert.equal(await session.page.locator('.status').innerText(), '', 'no "Done." beside an old answer');
    await count.fill('2');
    assert.equal(await session.page.locator('.answer.stale').count(), 0);
    assert.equal(await session.page.locator('.stale-note').isHidden(), true);
  });

  it('answers JWT decode, timestamps and cron as you type (they read the clock, and nothing else), marking the old answer until the new one comes', () =>
    withClock(async (tab) => {
      await tab.goto(`${session.service.url}/tools/jwt-decoder/decode`);
      const token = tab.getByRole('textbox', { name: /^Token\b/ });
      await token.fill(JWT);
      await tab.clock.runFor(600);
      await tab.locator('.answer:not([hidden])').waitFor();
      assert.deepEqual((await answerJson(tab)).payload, { sub: '1234567890', name: 'John Doe', iat: 1516239022 });
      // The signature loses a character: the answer is marked at once, and stays so while the page waits for a pause.
      await token.press('End');
      await token.press('Backspace');
      assert.equal(await tab.locator('.answer.stale .stale-note').innerText(), 'This answer is for an earlier input: the new one follows when you pause typing (or press Run).');
      await tab.clock.runFor(600);
      await tab.locator('.answer:not(.stale)').waitFor();
      assert.equal(JSON.parse(sentTo('/v1/jwt-decoder/decode').pop()!).token, JWT.slice(0, -1));
      await tab.goto(`${session.service.url}/tools/cron-expression/explain`);
      await tab.getByRole('textbox', { name: /^Expression\b/ }).fill('0 9 * * 1');
      await tab.clock.runFor(600);
      await tab.locator('.answer:not([hidden])').waitFor();
      assert.equal((await answerJson(tab)).description, 'At 09:00 AM, only on Monday');
      await tab.goto(`${session.service.url}/tools/timestamp-converter/convert`);
      await tab.getByRole('textbox', { name: /^Input\b/ }).fill('2024-03-15T12:00:00Z');
      await tab.clock.runFor(600);
      await tab.locator('.answer:not([hidden])').waitFor();
      assert.equal((await answerJson(tab)).iso, '2024-03-15T12:00:00.000Z');
    }));

  it('marks a cron answer once the first run it lists has passed (the page\'s clock, run ahead)', () =>
    withClock(async (tab) => {
      await tab.goto(`${session.service.url}/tools/cron-expression/explain`);
      await tab.getByRole('textbox', { name: /^Expression\b/ }).fill('* * * * *');
      await tab.clock.runFor(600);
      await tab.locator('.answer:not([hidden])').waitFor();
      assert.equal(await tab.locator('.answer.stale').count(), 0);
      // Every minute: the first run is within a minute of now.
      await tab.clock.runFor(61_000);
      await tab.locator('.stale-note', { hasText: 'A time in this answer has passed: press Run for an answer from now.' }).waitFor();
    }));
});

describe('times in the reader\'s zone', () => {
  it('fills the timestamp page\'s time zone with the browser\'s and shows local times there', async () => {
    await open('/tools/timestamp-converter/convert');
    assert.equal(await session.page.getByRole('textbox', { name: /^Time zone\b/ }).inputValue(), 'Asia/Tokyo');
    await session.page.getByRole('textbox', { name: /^Input\b/ }).fill('1700000000');
    await session.page.locator('.answer:not([hidden])').waitFor();
    const sent = JSON.parse(sentTo('/v1/timestamp-converter/convert').pop()!) as Record<string, unknown>;
    // The digits go as typed; the form showed the zone it sends.
    assert.deepEqual([sent.input, sent.timeZone], [1700000000, 'Asia/Tokyo']);
    // 1700000000 s is 2023-11-14T22:13:20Z, 07:13:20 the next day in Tokyo.
    assert.equal((await answerJson()).local, '2023-11-15T07:13:20.000+09:00');
  });

  it('shows cron\'s runs in UTC and in the browser\'s zone, named, from one request', async () => {
    await open('/tools/cron-expression/explain');
    const before = sentTo('/v1/cron-expression/explain').length;
    await session.page.getByRole('textbox', { name: /^From\b/ }).fill('2024-01-01T00:00:00Z');
    await session.page.getByRole('textbox', { name: /^Expression\b/ }).fill('0 9 * * *');
    await session.page.locator('.answer:not([hidden])').waitFor();
    const runs = session.page.locator('.answer .view li');
    assert.equal(await runs.first().locator('.value').innerText(), '2024-01-01T09:00:00.000Z');
    // 09:00 UTC is 18:00 in Tokyo.
    assert.match(await runs.first().locator('.instant time').innerText(), /^Jan 1, 2024, 6:00:00\sPM in your time zone, Asia\/Tokyo$/);
    assert.equal(sentTo('/v1/cron-expression/explain').length - before, 1, 'one request');
  });
});

describe('links that work without a reload', () => {
  it('fills a tool page and the recipe page from a link opened in a tab already on them', async () => {
    await open('/tools/base64/decode');
    await session.page.evaluate(() => (window.location.hash = `#input=${encodeURIComponent(JSON.stringify({ base64: 'aGk=' }))}`));
    await session.page.locator('.answer .view', { hasText: 'hi' }).waitFor();
    assert.equal(await session.page.getByRole('textbox', { name: /^Base64\b/ }).inputValue(), 'aGk=');
    await open('/tools/recipes/run');
    const recipe = { input: 'aGk=', steps: [{ operation: 'base64/decode' }] };
    await session.page.evaluate((fragment) => (window.location.hash = fragment), `#recipe=${encodeURIComponent(JSON.stringify(recipe))}`);
    await session.page.locator('.status', { hasText: 'Filled from the link' }).waitFor();
    assert.equal(await session.page.getByRole('textbox', { name: 'Input' }).inputValue(), 'aGk=');
    assert.deepEqual(await session.page.locator('.steps > li > fieldset > legend').allTextContents(), ['Step 1: Base64 encoder: decode']);
  });
});

describe('the smaller things', () => {
  it('focuses the first field of a tool page', async () => {
    await open('/tools/base64/encode');
    assert.equal(await session.page.evaluate(() => document.activeElement?.labels?.[0]?.textContent), 'Text (required)');
  });

  it('gives every value of an answer its own Copy button: SHA-256 as much as SHA-512', async () => {
    await open('/tools/hash-generator/hash');
    await session.page.getByRole('textbox', { name: /^Text\b/ }).fill('abc');
    for (const name of ['SHA-256', 'SHA-512']) await session.page.getByRole('checkbox', { name }).check();
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.answer:not([hidden])').waitFor();
    for (const name of ['MD5', 'SHA-256', 'SHA-512']) assert.equal(await session.page.getByRole('button', { name: `Copy ${name}`, exact: true }).count(), 1, name);
  });

  it('puts an error about the regex flags under Flags, not Pattern', async () => {
    await open('/tools/regex-tester/test');
    await session.page.getByRole('textbox', { name: /^Pattern\b/ }).fill('a');
    await session.page.getByRole('textbox', { name: /^Flags\b/ }).fill('gg');
    await session.page.getByRole('textbox', { name: /^Text\b/ }).fill('banana');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.status.problem').waitFor();
    assert.equal(await session.page.getByRole('textbox', { name: /^Flags\b/ }).getAttribute('aria-invalid'), 'true');
    assert.equal(await session.page.getByRole('textbox', { name: /^Pattern\b/ }).getAttribute('aria-invalid'), null);
  });

  it('keeps named groups on a line each at 390 px', async () => {
    await session.page.setViewportSize({ width: 390, height: 900 });
    try {
      await open('/tools/regex-tester/test');
      await session.page.getByRole('textbox', { name: /^Pattern\b/ }).fill('(?<year>\\d{4})-(?<month>\\d{2})');
      await session.page.getByRole('textbox', { name: /^Text\b/ }).fill('on 2024-05 and 2025-11');
      await session.page.locator('button[type=submit]').click();
      await session.page.locator('.answer table').waitFor();
      // Each named group's name and value fit on one line: no cell narrower than its word.
      const lines = await session.page.locator('.answer td dl.record > *').evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight))));
      assert.ok(lines.length === 8 && lines.every((count) => count === 1), JSON.stringify(lines));
    } finally {
      await session.page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('downloads a QR code as PNG too, which decodes to the text', async () => {
    const example = qr.operations.text!.examples[0]!;
    await open('/tools/qr-code-generator/text');
    await session.page.locator('button.example').first().click();
    await session.page.locator('button[type=submit]').click();
    const [download] = await Promise.all([session.page.waitForEvent('download'), session.page.getByRole('button', { name: 'Download PNG' }).click()]);
    assert.equal(download.suggestedFilename(), 'qr-code-generator-text.png');
    const png = readFileSync((await download.path())!);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
    const side = png.readUInt32BE(16);
    assert.ok(side >= 512 && png.readUInt32BE(20) === side, `${side} px square`);
    // Drawn in the page from the downloaded bytes, read back as RGBA, decoded in Node.
    const rgba = await session.page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const bytes = context.getImageData(0, 0, canvas.width, canvas.height).data as number[];
      let text = '';
      for (let start = 0; start < bytes.length; start += 8192) text += String.fromCharCode(...bytes.slice(start, start + 8192));
      return text;
    }, png.toString('base64'));
    assert.equal(jsQR(new Uint8ClampedArray(Buffer.from(rgba, 'latin1')), side, side)?.data, example.body.text);
  });

  it('says hints in plain words, not status codes and pointers', async () => {
    await open('/tools/timestamp-converter/convert');
    const hint = await session.page.locator(`#${(await session.page.getByRole('textbox', { name: /^Time zone\b/ }).getAttribute('aria-describedby'))!.split(' ')[0]!}`).innerText();
    assert.match(hint, /an unknown one is refused\./);
    assert.doesNotMatch(hint, /400|\/timeZone|schema/);
  });

  it('forgets what the browser keeps: Clear on a tool page, and everything from /', async () => {
    const kept = (): Promise<string[]> => session.page.evaluate(() => Object.keys(localStorage).filter((key: string) => key.startsWith('toolshed.')).sort());
    await open('/tools/base64/encode');
    await session.page.getByRole('textbox', { name: /^Text\b/ }).fill('keep me');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    assert.ok((await kept()).includes('toolshed.input:/tools/base64/encode'));
    await session.page.getByRole('button', { name: 'Clear', exact: true }).click();
    assert.equal(await session.page.getByRole('textbox', { name: /^Text\b/ }).inputValue(), '');
    assert.ok(!(await kept()).includes('toolshed.input:/tools/base64/encode'));
    assert.equal(await session.page.evaluate(() => window.location.hash), '');
    await session.page.getByRole('button', { name: 'Favourite' }).click();
    await open('/');
    assert.notDeepEqual(await kept(), []);
    await session.page.getByRole('button', { name: 'Forget what this browser keeps' }).click();
    assert.deepEqual(await kept(), []);
    assert.equal(await session.page.locator('#kept').isHidden(), true);
  });

  it('replaces a restored input with what is pasted into it, rather than adding to it', async () => {
    await open('/tools/url-encoder/encode');
    const text = session.page.getByRole('textbox', { name: /^Text\b/ });
    await text.fill('old text');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    await open('/tools/url-encoder/encode');
    await session.page.locator('.status', { hasText: 'Your last input is back' }).waitFor();
    // A click puts the caret after the old text; the paste then replaces it all.
    await text.click();
    await text.press('End');
    await text.evaluate((field, pasted) => {
      const data = new DataTransfer();
      data.setData('text/plain', pasted);
      field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, 'a b&c');
    assert.equal(await text.inputValue(), 'a b&c');
    await session.page.locator('.answer .view', { hasText: 'a%20b%26c' }).waitFor();
  });

  it('stays axe-core clean and inside the window in the new states, light and dark, at 1280 and 390 px: ranked results, a marked answer, a recipe of forms', async () => {
    const problems: string[] = [];
    const recipe = `/tools/recipes/run#recipe=${encodeURIComponent(JSON.stringify({ input: 'Hello', steps: [{ operation: 'base64/encode' }, { operation: 'hash-generator/hash', body: { algorithms: ['SHA-256'] } }] }))}`;
    const looks = looksAt(1280, 390);
    await open('/');
    await session.page.locator('#search').fill('base64');
    await session.page.locator('#search').press('ArrowDown');
    problems.push(...(await lookProblems(session.page, '/ searched', looks)));
    // A random tool answers on Run only, so its marked answer stays marked while axe looks.
    await open('/tools/uuid-generator/generate');
    await session.page.getByRole('spinbutton', { name: /^Count\b/ }).fill('3');
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    await session.page.getByRole('spinbutton', { name: /^Count\b/ }).fill('4');
    await session.page.locator('.answer.stale').waitFor();
    problems.push(...(await lookProblems(session.page, 'uuid, marked', looks)));
    await open(recipe);
    await session.page.getByRole('button', { name: 'Run', exact: true }).click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    await session.page.getByRole('textbox', { name: 'Input' }).fill('Hello!');
    await session.page.locator('.answer.stale').waitFor();
    problems.push(...(await lookProblems(session.page, 'recipe, marked', looks)));
    assert.deepEqual(problems, []);
  });

  it('threw nothing', () => {
    assert.deepEqual(thrown, []);
  });
});
