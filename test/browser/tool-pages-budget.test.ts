// What typing spends, in Debian's chromium, against the service's default anonymous limit (30 a
// minute): a 500-character paragraph typed into word-counter/stats at about 5 characters a second,
// its time simulated (the page's clock is run ahead keystroke by keystroke, and stands still while a
// request is on its way, so the count does not depend on the machine's speed), spends at most 5
// requests and ends with the whole paragraph's answer. Then the budget line: a quiet count, a warning
// near the end that pauses live answers (the answer marked, Run still sending), and at none left no
// promise about Run; there the RateLimit headers are set by the test, so the server's own window
// cannot move under it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { pageSession } from '../support/browser.js';

// The callbacks handed to page.evaluate run in the page; this file is compiled without the DOM library.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const session = pageSession({ config: { rateLimit: { anonymous: { max: 30 }, windowSeconds: 60 } } });

// 500 characters, 95 words (none hyphenated or with digits, so splitting at spaces counts them), 5 sentences.
const PARAGRAPH =
  'The river ran high after the storm, and the bridge creaked under every cart that crossed it at dawn. Farmers waited on the far bank with baskets of apples, ' +
  'talking about the price of grain and the weather to come. A boy with a red scarf counted the boats drifting past and wrote each one down in a small notebook. ' +
  'By noon the water had calmed, the sun was warm, and the market square filled with voices, music and the smell of bread. Nobody noticed the heron standing still in the reeds all day long.';

/**
 * How long after each character the next one comes, in ms: 200 on average (5 a second), between 120
 * and 280 by a fixed pseudo-random sequence; 1.2 s more after a sentence, and 0.8 s more after the
 * 12th, 40th and 70th word, where a person stops to think.
 */
function typingGaps(text: string): number[] {
  let seed = 48;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let words = 0;
  return [...text].map((character, index) => {
    let gap = 120 + Math.round(next() * 160);
    if (character === '.') gap += 1200;
    if (character === ' ' && text[index - 1] !== '.' && [12, 40, 70].includes(++words)) gap += 800;
    return gap;
  });
}

/** Counts a tab's POSTs to `path` and lets a test wait until none is on its way and the page has taken the last answer. */
function requests(tab: Page, path: string): { readonly sent: string[]; settled(): Promise<void> } {
  const sent: string[] = [];
  let open = 0;
  tab.on('request', (request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== path) return;
    sent.push(request.postData() ?? '');
    open++;
  });
  const done = (request: { method(): string; url(): string }): void => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) open--;
  };
  tab.on('requestfinished', done);
  tab.on('requestfailed', done);
  return {
    sent,
    async settled() {
      // The page marks Run busy from the request until it has shown the answer.
      while (open > 0 || (await tab.evaluate(() => document.querySelector('button[aria-busy]') !== null))) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

describe('what typing spends', () => {
  it('spends at most 5 requests on a 500-character paragraph typed at 5 characters a second, and answers the whole paragraph', async (t) => {
    assert.equal(PARAGRAPH.length, 500);
    const gaps = typingGaps(PARAGRAPH);
    const seconds = gaps.reduce((sum, gap) => sum + gap, 0) / 1000;
    assert.ok(seconds > 95 && seconds < 115, `${seconds} s of typing: about 5 characters a second`);
    // The session's page, alone in its context: the clock is the context's, and each runFor
    // evaluates in every page there and adds a script for each; a tab beside it made each of the
    // 500 keystrokes' runFor reach two pages (about a third of this test's CPU).
    const tab = session.page;
    const stats = requests(tab, '/v1/word-counter/stats');
    await tab.clock.install();
    await tab.goto(`${session.service.url}/tools/word-counter/stats`);
    await tab.getByRole('textbox', { name: /^Text\b/ }).focus();
    for (const [index, character] of [...PARAGRAPH].entries()) {
      await tab.keyboard.type(character);
      await tab.clock.runFor(gaps[index]!);
      await stats.settled();
    }
    // The person stops: the page has the pause it waits for at most, and answers.
    await tab.clock.runFor(3000);
    await stats.settled();
    t.diagnostic(`${stats.sent.length} requests for ${PARAGRAPH.length} characters typed in ${seconds} s`);
    assert.ok(stats.sent.length >= 1 && stats.sent.length <= 5, `${stats.sent.length} requests`);
    assert.equal(JSON.parse(stats.sent[stats.sent.length - 1]!).text, PARAGRAPH);
    const answer = JSON.parse((await tab.locator('.answer details.raw pre').textContent()) ?? 'null') as { characters: number; words: number; sentences: number };
    assert.deepEqual([answer.characters, answer.words, answer.sentences], [500, PARAGRAPH.split(' ').length, 5]);
    assert.equal(await tab.locator('.answer.stale').count(), 0, 'the answer shown is the paragraph\'s');
  });

  it('shows the count quietly, speaks up near the end and pauses live answers there, and at none left promises nothing of Run', async () => {
    const tab = await session.context.newPage();
    // The answers' RateLimit headers as the test sets them: what is left after each request.
    const left = [27, 5, 4, 0];
    await tab.route('**/v1/base64/encode', async (route) => {
      const remaining = left.shift() ?? 0;
      const limits = { 'ratelimit-limit': '30', 'ratelimit-remaining': String(remaining), 'ratelimit-reset': '46' };
      if (remaining === 0) {
        return route.fulfill({ status: 429, contentType: 'application/json', headers: { ...limits, 'retry-after': '46' }, body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' } }) });
      }
      const response = await route.fetch();
      return route.fulfill({ response, headers: { ...response.headers(), ...limits } });
    });
    try {
      const encode = requests(tab, '/v1/base64/encode');
      await tab.clock.install();
      await tab.goto(`${session.service.url}/tools/base64/encode`);
      const text = tab.getByRole('textbox', { name: /^Text\b/ });
      const budget = tab.locator('.budget');
      // Typing, then the long pause (2 s), which asks even after the short pause's one request a minute.
      const typeAndPause = async (characters: string): Promise<void> => {
        await text.pressSequentially(characters);
        await tab.clock.runFor(2100);
        await encode.settled();
      };
      await typeAndPause('a');
      assert.equal(await budget.innerText(), '27 of 30 requests left for this address.');
      assert.deepEqual(await budget.evaluate((line) => [line.className, line.getAttribute('aria-live')]), ['budget', null]);
      await typeAndPause('b');
      assert.equal(await budget.innerText(), 'Only 5 of 30 requests left for this address; the count starts again in 46 s. Live answers wait until then; Run still works.');
      assert.deepEqual(await budget.evaluate((line) => [line.className, line.getAttribute('aria-live')]), ['budget low', 'polite']);
      // It counts down with the clock.
      await tab.clock.runFor(10_000);
      assert.match(await budget.innerText(), /the count starts again in 36 s\./);
      // Live answers wait: the old answer is marked, and nothing is sent until Run.
      await typeAndPause('c');
      assert.equal(encode.sent.length, 2);
      assert.equal(await tab.locator('.stale-note').innerText(), 'This answer is for an earlier input: live answers are paused to keep this address\'s last requests, so press Run for the new input.');
      await tab.locator('button[type=submit]').click();
      await encode.settled();
      assert.deepEqual(encode.sent.map((body) => JSON.parse(body).text), ['a', 'ab', 'abc']);
      assert.equal(await tab.locator('.answer.stale').count(), 0);
      await tab.locator('button[type=submit]').click();
      await encode.settled();
      assert.equal(await tab.locator('.status').innerText(), 'Too many requests from this address for now: try again in 46 seconds.');
      assert.equal(await budget.innerText(), 'No requests left for this address: the count starts again in 46 s.');
    } finally {
      await tab.close();
    }
  });
});
