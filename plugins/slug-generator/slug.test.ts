import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import slugGenerator from './index.js';
import { cutSlug, MAX_TEXT_LENGTH } from './slug.js';

const slug = async (body: Record<string, unknown>): Promise<string> =>
  ((await invoke(slugGenerator, 'slugify', body)) as { slug: string }).slug;

describe('slug-generator.slugify: defaults and transliteration', () => {
  it('defaults to "-", lowercase, German, no limit', async () => {
    assert.deepEqual(await invoke(slugGenerator, 'slugify', { text: 'Grüße aus Köln & München!' }), {
      slug: 'gruesse-aus-koeln-and-muenchen',
    });
  });

  it('german: ä→ae, ö→oe, ü→ue, ß→ss, and Ä→Ae, Ö→Oe, Ü→Ue when lowercase is false', async () => {
    assert.equal(await slug({ text: 'ä ö ü ß' }), 'ae-oe-ue-ss');
    assert.equal(await slug({ text: 'Äpfel Öl Übel Straße', lowercase: false }), 'Aepfel-Oel-Uebel-Strasse');
    assert.equal(await slug({ text: 'ÄRGER', lowercase: false }), 'AeRGER'); // letter by letter, as the issue says
    assert.equal(await slug({ text: 'GROẞE', lowercase: false }), 'GROSsE'); // capital sharp s → "Ss", like Ä → "Ae"
  });

  it('german: false drops the accents: ä→a, Ä→A; ß stays ss (it has no accent)', async () => {
    assert.equal(await slug({ text: 'Ärger über Öl', german: false }), 'arger-uber-ol');
    assert.equal(await slug({ text: 'Ärger über Öl', german: false, lowercase: false }), 'Arger-uber-Ol');
    assert.equal(await slug({ text: 'Straße', german: false }), 'strasse');
  });

  it('drops other accents in both modes and transliterates other scripts', async () => {
    for (const german of [true, false]) {
      assert.equal(await slug({ text: 'Crème brûlée à la façon', german }), 'creme-brulee-a-la-facon');
    }
    assert.equal(await slug({ text: 'Привет мир' }), 'privet-mir');
  });

  it('reads decomposed umlauts (a + U+0308) like composed ones', async () => {
    assert.equal(await slug({ text: 'Ka\u0308se' }), 'kaese');
    assert.equal(await slug({ text: 'Ka\u0308se', german: false }), 'kase');
  });

  it('does not split camel case (decamelize: false)', async () => {
    assert.equal(await slug({ text: 'fooBar HTTPServer' }), 'foobar-httpserver');
    assert.equal(await slug({ text: 'fooBar', lowercase: false }), 'fooBar');
  });

  it('keeps the library\'s word rules: & → and, ♥ → love, possessive \'s joined', async () => {
    assert.equal(await slug({ text: "Conway's Law ♥ R&D" }), 'conways-law-love-r-and-d');
  });
});

describe('slug-generator.slugify: separators and empty results', () => {
  it('uses each of the three separators, also replacing the other two', async () => {
    assert.equal(await slug({ text: 'a_b-c.d e' }), 'a-b-c-d-e');
    assert.equal(await slug({ text: 'a_b-c.d e', separator: '_' }), 'a_b_c_d_e');
    assert.equal(await slug({ text: 'a_b-c.d e', separator: '.' }), 'a.b.c.d.e');
  });

  it('collapses runs of anything unsluggable into one separator and trims both ends', async () => {
    assert.equal(await slug({ text: '  --Hello,,,   World!!  ' }), 'hello-world');
  });

  it('gives "" for text with nothing sluggable', async () => {
    for (const text of ['', '   ', '!!!', '日本語', '👍🏽', '\u0301\u0301', '\ud800\udfff\ud800']) {
      assert.equal(await slug({ text }), '', JSON.stringify(text));
    }
  });

  it('answers 400 with details for a bad separator, non-booleans, a missing text, an extra field', async () => {
    await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', separator: '+' }), '/separator');
    await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', separator: '' }), '/separator');
    await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', lowercase: 'no' }), '/lowercase');
    await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', german: 1 }), '/german');
    await rejectsField(invoke(slugGenerator, 'slugify', {}), '/text');
    await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', locale: 'de' }), '/locale');
  });
});

describe('slug-generator.slugify: maxLength', () => {
  // "hello-big-world": h0 e1 l2 l3 o4 -5 b6 i7 g8 -9 w10 … d14, 15 characters.
  const text = 'Hello big world';

  it('cuts at the last separator within the limit', async () => {
    assert.equal(await slug({ text, maxLength: 15 }), 'hello-big-world'); // fits exactly
    assert.equal(await slug({ text, maxLength: 14 }), 'hello-big'); // "-" at 9 is the last one ≤ 14
    assert.equal(await slug({ text, maxLength: 9 }), 'hello-big'); // index 9 is "-": 9 characters fit
    assert.equal(await slug({ text, maxLength: 8 }), 'hello'); // "-" at 5
    assert.equal(await slug({ text, maxLength: 5 }), 'hello');
  });

  it('cuts a first word longer than the limit hard', async () => {
    assert.equal(await slug({ text, maxLength: 3 }), 'hel');
    assert.equal(await slug({ text, maxLength: 1 }), 'h');
    assert.equal(await slug({ text: 'Donaudampfschifffahrt ist lang', maxLength: 10 }), 'donaudampf');
  });

  it('cuts at the chosen separator', async () => {
    assert.equal(await slug({ text, separator: '.', maxLength: 12 }), 'hello.big');
    assert.equal(cutSlug('a_b_c', 4, '_'), 'a_b');
  });

  it('accepts 0 (no limit) and 1000; refuses -1, 1001, 2.5 and "5" with 400 details on /maxLength', async () => {
    assert.equal((await slug({ text: 'ab '.repeat(2000), maxLength: 0 })).length, 5999); // 2000 × "ab" + 1999 "-"
    // "ab-" repeats: index 1000 = 3·333 + 1 is a "b"; the last "-" ≤ 1000 is at 3·332 + 2 = 998.
    assert.equal((await slug({ text: 'ab '.repeat(2000), maxLength: 1000 })).length, 998);
    for (const maxLength of [-1, 1001, 2.5, '5']) {
      await rejectsField(invoke(slugGenerator, 'slugify', { text: 'a', maxLength }), '/maxLength');
    }
  });
});

describe('slug-generator.slugify: hostile input', () => {
  it(`slugifies ${MAX_TEXT_LENGTH} characters and refuses one more with 422 text_too_long`, async () => {
    assert.equal(await slug({ text: 'a'.repeat(MAX_TEXT_LENGTH) }), 'a'.repeat(MAX_TEXT_LENGTH));
    await rejectsWith(invoke(slugGenerator, 'slugify', { text: 'a'.repeat(MAX_TEXT_LENGTH + 1) }), 422, 'text_too_long');
  });

  it('refuses 10 MB at once and answers the slowest 100,000-character texts without stalling', async () => {
    let start = performance.now();
    await rejectsWith(invoke(slugGenerator, 'slugify', { text: 'x'.repeat(10_000_000) }), 422, 'text_too_long');
    assert.ok(performance.now() - start < HANG_GUARD_MS);
    // The worst inputs found: every "&" becomes " and ", every "a's " a contraction and a separator.
    start = performance.now();
    assert.equal(await slug({ text: '&'.repeat(MAX_TEXT_LENGTH) }), `${'and-'.repeat(MAX_TEXT_LENGTH - 1)}and`);
    assert.equal(await slug({ text: "a's ".repeat(MAX_TEXT_LENGTH / 4), separator: '_' }), `${'as_'.repeat(MAX_TEXT_LENGTH / 4 - 1)}as`);
    assert.equal(await slug({ text: 'äöüß'.repeat(MAX_TEXT_LENGTH / 4), german: false }), 'aouss'.repeat(MAX_TEXT_LENGTH / 4));
    const ms = performance.now() - start;
    assert.ok(ms < HANG_GUARD_MS, `three worst cases took ${ms} ms`);
  });

  it('treats lone surrogates and control characters like any other unsluggable character', async () => {
    assert.equal(await slug({ text: 'x\ud800y\udc00z\u0000w\u202ev' }), 'x-y-z-w-v');
  });
});
