// Recipes in the tool pages (issues 40, 48), in Debian's chromium: the "What is this?" box on /
// naming a pasted JWT and a Base64-wrapped one and linking to the tool or the recipe; "send this
// answer to…" from base64/decode listing the likely tool first and giving a recipe page whose run
// decodes the token; a recipe built step by step with the search, each step's body in its tool's
// form, its mistakes marked, its answer marked once the recipe changes; a shared recipe link opening
// the recipe filled and running it only on Run; and the pages axe-core clean and inside the window,
// light and dark, at 1280 and 390 px. Every wait is on a condition, never a fixed sleep.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lookProblems, looksAt, pageSession } from '../support/browser.js';

// The callbacks handed to page.evaluate run in the page; this file is compiled without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

// Header {"alg":"HS256"}, payload {"sub":"42","exp":1700000000} (2023-11-14T22:13:20Z), signature "sig".
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6MTcwMDAwMDAwMH0.c2ln';
const WRAPPED = Buffer.from(JWT).toString('base64');
const PAYLOAD = { sub: '42', exp: 1700000000 };

const session = pageSession();
const { posted, thrown } = session;

const sentTo = (path: string): unknown[] => posted.filter((entry) => entry.path === path).map((entry) => JSON.parse(entry.body) as unknown);
/** The answer of the recipe page's last step, as its raw JSON block shows it. */
const lastAnswer = async (target: Page): Promise<unknown> => JSON.parse((await target.locator('.answer > .answer-body > details.raw pre').textContent()) ?? 'null') as unknown;

/** Identify `text` from the box on /, asked by a paste (the event alone: the clipboard is not the page's) or Ctrl+Enter. */
async function identify(text: string, how: 'paste' | 'keys'): Promise<{ titles: string[]; links: string[] }> {
  await session.page.goto(`${session.service.url}/`);
  const box = session.page.getByLabel(/^Paste anything/);
  await box.fill(text);
  const before = sentTo('/v1/recipes/identify').length;
  if (how === 'paste') await box.dispatchEvent('paste');
  else await box.press('Control+Enter');
  await session.page.locator('#identify-results li').first().waitFor();
  assert.equal(sentTo('/v1/recipes/identify').length, before + 1, 'one request');
  await session.page.locator('#identify-results li').first().waitFor();
  return {
    titles: await session.page.locator('#identify-results .candidate-title strong').allTextContents(),
    links: await session.page.locator('#identify-results a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? '')),
  };
}

describe('recipes in the tool pages', () => {
  it('names a pasted JWT and opens the JWT decoder with it filled and answered', async () => {
    const { titles, links } = await identify(JWT, 'keys');
    assert.equal(titles[0], 'JSON Web Token');
    assert.match(await session.page.locator('#identify-results .confidence').first().innerText(), /^(Almost certainly|Probably) \(\d+ % sure\)$/);
    assert.equal(links[0], `/tools/jwt-decoder/decode#input=${encodeURIComponent(JSON.stringify({ token: JWT }))}`);
    assert.deepEqual(sentTo('/v1/recipes/identify').pop(), { input: JWT });
    await session.page.locator('#identify-results a').first().click();
    await session.page.waitForURL(/\/tools\/jwt-decoder\/decode#input=/);
    await session.page.locator('.answer:not([hidden])').waitFor();
    assert.equal(await session.page.getByRole('textbox', { name: /^Token\b/ }).inputValue(), JWT);
    const answer = JSON.parse((await session.page.locator('.answer details.raw pre').textContent()) ?? 'null') as { payload: unknown };
    assert.deepEqual(answer.payload, PAYLOAD);
  });

  it('names what no tool here reads (an IPv6 address) with identify\'s note, and offers nothing to open', async () => {
    const { titles, links } = await identify('2001:db8::1', 'keys');
    assert.deepEqual(titles, ['IPv6 address']);
    assert.deepEqual(links, []);
    assert.match(await session.page.locator('#identify-results .candidate .preview').innerText(), /^No tool here reads it/);
  });

  it('names a Base64-wrapped JWT as two layers and opens the recipe page, which runs it', async () => {
    const { titles, links } = await identify(WRAPPED, 'paste');
    assert.equal(titles[0], 'Base64 → JSON Web Token');
    assert.ok(links[0]!.startsWith('/tools/recipes/run#recipe='), links[0]);
    await session.page.locator('#identify-results a').first().click();
    await session.page.locator('.answer:not([hidden])').waitFor();
    assert.equal(await session.page.getByRole('textbox', { name: 'Input' }).inputValue(), WRAPPED);
    assert.deepEqual(await session.page.locator('.steps > li > fieldset > legend').allTextContents(), ['Step 1: Base64 encoder: decode', 'Step 2: JWT decoder: decode']);
    assert.deepEqual((await lastAnswer(session.page) as { payload: unknown }).payload, PAYLOAD);
    assert.deepEqual(sentTo('/v1/recipes/run').pop(), { input: WRAPPED, steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }], keep: 'all' });
  });

  it('sends base64/decode\'s answer to jwt-decoder/decode, listed first as identify names the answer: the recipe page runs both and shows each answer', async () => {
    await session.page.goto(`${session.service.url}/tools/base64/decode`);
    await session.page.getByRole('textbox', { name: /^Base64\b/ }).fill(WRAPPED);
    await session.page.locator('button[type=submit]').click();
    await session.page.locator('.answer:not([hidden])').waitFor();
    const choice = session.page.getByLabel('Send this answer to…');
    const identified = sentTo('/v1/recipes/identify').length;
    // Identify is asked only when the person turns to the choice, about the answer (the JWT).
    assert.equal(await choice.locator('optgroup').count(), 0);
    await choice.focus();
    await choice.locator('optgroup[label="Likely next"]').waitFor({ state: 'attached' });
    assert.deepEqual(sentTo('/v1/recipes/identify').slice(identified), [{ input: JWT }]);
    assert.equal(await choice.locator('optgroup[label="Likely next"] option').first().textContent(), 'JWT decoder: decode');
    const offered = await choice.locator('optgroup[label^="All tools"] option').allTextContents();
    assert.ok(offered.includes('JWT decoder: decode') && !offered.some((label) => /recipe/i.test(label)), offered.join());
    assert.deepEqual(offered, [...offered].sort((a, b) => a.localeCompare(b, 'en')), 'all of them A–Z');
    await choice.selectOption('jwt-decoder/decode');
    await session.page.getByRole('button', { name: 'Send', exact: true }).click();
    await session.page.waitForURL(/\/tools\/recipes\/run#recipe=/);
    await session.page.locator('.answer:not([hidden])').waitFor();
    assert.deepEqual(await session.page.locator('.step-answer h3').allTextContents(), ['Step 1: Base64 encoder: decode', 'Step 2: JWT decoder: decode']);
    assert.match(await session.page.locator('.step-answer').first().innerText(), new RegExp(JWT.replace(/\./g, '\\.')));
    assert.deepEqual((await lastAnswer(session.page) as { payload: unknown }).payload, PAYLOAD);
  });

  it('builds a recipe from the search with each step\'s form, marks its mistakes, marks its answer once the recipe changes, and a shared link opens it filled, run only on Run', async () => {
    await session.page.goto(`${session.service.url}/tools/recipes/run`);
    await session.page.getByRole('textbox', { name: 'Input' }).fill('Hello');
    const search = session.page.getByLabel('Add a step: search the operations');
    // A word of the label finds the operation; Enter adds it.
    await search.fill('base64 encode');
    await search.press('Enter');
    await search.fill('hash-generator/hash');
    await session.page.getByRole('button', { name: 'Add step' }).click();
    assert.deepEqual(await session.page.locator('.steps > li > fieldset > legend').allTextContents(), ['Step 1: Base64 encoder: encode', 'Step 2: Hash generator: hash']);
    // A third step, moved up, then removed: the order follows, and the focus stays in the steps.
    await search.fill('jwt decode');
    await search.press('Enter');
    await session.page.getByRole('button', { name: 'Move up: step 3, JWT decoder: decode' }).click();
    assert.deepEqual(await session.page.locator('.steps > li > fieldset > legend').allTextContents(), ['Step 1: Base64 encoder: encode', 'Step 2: JWT decoder: decode', 'Step 3: Hash generator: hash']);
    await session.page.getByRole('button', { name: 'Remove: step 2, JWT decoder: decode' }).click();
    assert.deepEqual(await session.page.locator('.steps > li > fieldset > legend').allTextContents(), ['Step 1: Base64 encoder: encode', 'Step 2: Hash generator: hash']);
    // Step 2 has the hash page's form: the algorithms as boxes, the example's ticked.
    const step2 = session.page.locator('.step').nth(1);
    await step2.getByRole('checkbox', { name: 'MD5' }).uncheck();
    await step2.getByRole('checkbox', { name: 'SHA-256' }).check();
    // Data (Base64) and the text the step before fills: the service refuses both at once, naming the field the page marks.
    const data = step2.getByRole('textbox', { name: /^Data \(Base64\)/ });
    await data.fill('aGk=');
    await data.press('Control+Enter');
    await session.page.locator('.status.problem').waitFor();
    assert.equal(await data.getAttribute('aria-invalid'), 'true');
    assert.match(await step2.locator('.field-error:not([hidden])').innerText(), /exactly one of text and dataBase64/);
    assert.equal(await session.page.getByRole('textbox', { name: 'Input' }).getAttribute('aria-invalid'), null);
    await data.fill('');
    // As JSON: a body that is not JSON is marked before anything is sent.
    await step2.getByRole('checkbox', { name: 'Edit the body of step 2 as JSON' }).check();
    const body = session.page.getByLabel('Body of step 2 (JSON object; may be left empty)');
    assert.deepEqual(JSON.parse(await body.inputValue()), { algorithms: ['SHA-256'] });
    const runs = sentTo('/v1/recipes/run').length;
    await body.fill('{"algorithms": ["SHA-256"');
    await body.press('Control+Enter');
    await session.page.locator('.status.problem').waitFor();
    assert.equal(await body.getAttribute('aria-invalid'), 'true');
    assert.equal(await session.page.evaluate(() => document.activeElement?.tagName), 'TEXTAREA', 'the marked body has the focus');
    assert.equal(sentTo('/v1/recipes/run').length, runs, 'nothing sent');
    await body.fill('{"algorithms": ["SHA-256"]}');
    await step2.getByRole('checkbox', { name: 'Edit the body of step 2 as JSON' }).uncheck();
    assert.equal(await step2.getByRole('checkbox', { name: 'SHA-256' }).isChecked(), true);
    await session.page.getByRole('button', { name: 'Run', exact: true }).click();
    await session.page.locator('.status', { hasText: 'Done.' }).waitFor();
    // base64("Hello") = "SGVsbG8="; SHA-256("SGVsbG8=") by `printf %s SGVsbG8= | sha256sum`.
    assert.deepEqual(await lastAnswer(session.page), { hashes: { 'SHA-256': '50e7ab41c843a6b034d6d1d3bff2bbd7ac3e693e857075f6a2035b39fca88588' } });
    assert.deepEqual(sentTo('/v1/recipes/run').pop(), { input: 'Hello', steps: [{ operation: 'base64/encode' }, { operation: 'hash-generator/hash', body: { algorithms: ['SHA-256'] } }], keep: 'all' });
    // Adding a step marks the answer as an earlier recipe's; removing it again clears the mark.
    assert.equal(await session.page.locator('.answer.stale').count(), 0);
    await search.fill('url encode');
    await search.press('Enter');
    await session.page.locator('.answer.stale .stale-note', { hasText: 'This answer is for an earlier recipe or input: press Run for the new one.' }).waitFor();
    assert.equal(await session.page.locator('.status').innerText(), '', 'no "Done." beside it');
    await session.page.getByRole('button', { name: 'Remove: step 3, URL encoder: encode' }).click();
    assert.equal(await session.page.locator('.answer.stale').count(), 0);
    const link = session.page.url();
    assert.match(link, /#recipe=/);
    // Issue 47, item 16: someone else's link is shown filled; the visitor's Run spends the request.
    const other = await session.context.newPage();
    const runsThere: string[] = [];
    other.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/recipes/run') runsThere.push(request.postData() ?? '');
    });
    try {
      await other.goto(link);
      await other.locator('.status', { hasText: 'Filled from the link' }).waitFor();
      assert.equal(await other.getByRole('textbox', { name: 'Input' }).inputValue(), 'Hello');
      assert.equal(await other.locator('.step').nth(1).getByRole('checkbox', { name: 'SHA-256' }).isChecked(), true);
      assert.equal(await other.locator('.answer').isHidden(), true);
      assert.deepEqual(runsThere, [], 'opening the link sent nothing');
      await other.getByRole('button', { name: 'Run', exact: true }).click();
      await other.locator('.answer:not([hidden])').waitFor();
      assert.equal(runsThere.length, 1);
      assert.deepEqual(await lastAnswer(other), await lastAnswer(session.page));
    } finally {
      await other.close();
    }
  });

  it('stays axe-core clean and inside the window, light and dark, at 1280 and 390 px', async () => {
    const problems: string[] = [];
    const recipe = `/tools/recipes/run#recipe=${encodeURIComponent(JSON.stringify({ input: WRAPPED, steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] }))}`;
    for (const path of ['/', recipe, '/tools/base64/decode']) {
      await session.page.goto(`${session.service.url}${path}`);
      if (path === '/') {
        await session.page.getByLabel(/^Paste anything/).fill(WRAPPED);
        await session.page.getByRole('button', { name: 'Identify' }).click();
        await session.page.locator('#identify-results li').first().waitFor();
      } else if (path === recipe) {
        await session.page.getByRole('button', { name: 'Run', exact: true }).click();
        await session.page.locator('.answer:not([hidden])').waitFor();
      } else {
        await session.page.getByRole('textbox', { name: /^Base64\b/ }).fill(WRAPPED);
        await session.page.locator('button[type=submit]').click();
        await session.page.locator('.send-to').waitFor();
      }
      problems.push(...(await lookProblems(session.page, path.slice(0, 30), looksAt(1280, 390))));
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(thrown, []);
  });
});
