import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import wordCounter from './index.js';
import { MAX_SORT_LINES } from './line-transforms.js';
import { splitWords, TRANSFORMS } from './transforms.js';

const transform = async (text: string, name: string, locale?: string): Promise<string> =>
  ((await invoke(wordCounter, 'transform', locale === undefined ? { text, transform: name } : { text, transform: name, locale })) as { text: string }).text;

describe('word-counter.transform: case', () => {
  it('answers its examples exactly', async () => {
    for (const example of wordCounter.operations.transform!.examples) {
      assert.deepEqual(await invoke(wordCounter, 'transform', example.body), example.response, example.title);
    }
  });

  it('offers exactly the 17 transforms of the contract', () => {
    assert.equal(TRANSFORMS.length, 17);
  });

  it('upper and lower honour the locale: Turkish dotted and dotless i', async () => {
    assert.equal(await transform('istanbul', 'upper'), 'ISTANBUL');
    assert.equal(await transform('istanbul', 'upper', 'tr'), 'İSTANBUL');
    assert.equal(await transform('TITLE', 'lower', 'tr'), 'tıtle');
    assert.equal(await transform('İSTANBUL', 'lower', 'tr'), 'istanbul');
    assert.equal(await transform('İ', 'lower'), 'i\u0307'); // without a locale: i + combining dot above
    assert.equal(await transform('straße', 'upper'), 'STRASSE');
  });

  it('title: first letter of every word upper, the rest lower; an apostrophe inside a word does not start one', async () => {
    assert.equal(await transform("hello wORLD, it's o'neil-smith 3rd", 'title'), "Hello World, It's O'neil-Smith 3rd");
    assert.equal(await transform('ıstanbul izmir', 'title', 'tr'), 'Istanbul İzmir');
  });

  it('sentence: first letter of every sentence upper, the rest lower', async () => {
    // Sentences start the text, follow ". " "! " "? " (closing quotes allowed) and line breaks; a digit takes the capital's place.
    assert.equal(
      await transform('hello world. THIS is GREAT! 3 cats? yes.\nnew line', 'sentence'),
      'Hello world. This is great! 3 cats? Yes.\nNew line',
    );
    assert.equal(await transform('he said "stop." then left. e.g. this', 'sentence'), 'He said "stop." Then left. E.g. This');
    assert.equal(await transform('3.14 is pi', 'sentence'), '3.14 is pi');
  });

  it('camel, pascal, snake, kebab, constant split on non-alphanumerics and case boundaries', async () => {
    assert.equal(await transform('foo bar-baz', 'camel'), 'fooBarBaz');
    assert.equal(await transform('HTTPServer error', 'camel'), 'httpServerError');
    assert.equal(await transform('version2Beta', 'camel'), 'version2Beta');
    assert.equal(await transform('foo bar', 'pascal'), 'FooBar');
    assert.equal(await transform('fooBar HTTPServer', 'snake'), 'foo_bar_http_server');
    assert.equal(await transform('Crème Brûlée', 'kebab'), 'crème-brûlée'); // non-ASCII letters stay
    assert.equal(await transform('foo bar', 'constant'), 'FOO_BAR');
    assert.equal(await transform('straße', 'constant'), 'STRASSE');
    assert.equal(await transform('  --  ', 'snake'), '');
    assert.deepEqual(splitWords('Cafe\u0301Bar XMLHttpRequest'), ['Cafe\u0301', 'Bar', 'XML', 'Http', 'Request']);
  });

  it('converts each line on its own and honours the locale', async () => {
    assert.equal(await transform('first name\r\nlast name\n', 'snake'), 'first_name\nlast_name\n');
    assert.equal(await transform('TITLE case', 'camel', 'tr'), 'tıtleCase');
    assert.equal(await transform('İ i', 'snake'), 'i\u0307_i'); // lowering changes the length: cased word by word
  });
});

describe('word-counter.transform: lines', () => {
  it('sortAsc and sortDesc use Intl.Collator: a < A < b < B, not code points', async () => {
    assert.equal(await transform('b\nA\na\nB', 'sortAsc'), 'a\nA\nb\nB');
    assert.equal(await transform('b\nA\na\nB', 'sortDesc'), 'B\nb\nA\na');
    assert.equal(await transform('10\n9\n1', 'sortAsc'), '1\n10\n9');
  });

  it('sorts in the locale: Swedish puts ä after z', async () => {
    assert.equal(await transform('z\nä\na', 'sortAsc'), 'a\nä\nz');
    assert.equal(await transform('z\nä\na', 'sortAsc', 'sv'), 'a\nz\nä');
  });

  it('keeps equal lines in input order, also lines the collator finds equal (NFC é, NFD é)', async () => {
    assert.equal(await transform('\u00e9\ne\u0301\n\u00e9\nd', 'sortAsc'), 'd\n\u00e9\ne\u0301\n\u00e9');
    assert.equal(await transform('\u00e9\ne\u0301\n\u00e9\nd', 'sortDesc'), '\u00e9\ne\u0301\n\u00e9\nd');
  });

  it('keeps a final line break final instead of sorting an empty line to the top', async () => {
    assert.equal(await transform('b\na\n', 'sortAsc'), 'a\nb\n');
    assert.equal(await transform('1\n2\n', 'reverseLines'), '2\n1\n');
    assert.equal(await transform('1\n2\n3', 'reverseLines'), '3\n2\n1');
    assert.equal(await transform('', 'sortAsc'), '');
    assert.equal(await transform('\n', 'sortAsc'), '\n');
  });

  it('dedupe keeps the first of equal lines (exact, case-sensitive)', async () => {
    assert.equal(await transform('a\nb\na\nA\r\nb', 'dedupe'), 'a\nb\nA');
  });

  it('removeEmpty drops empty and whitespace-only lines', async () => {
    assert.equal(await transform('a\n\n  \n\tb\n', 'removeEmpty'), 'a\n\tb\n');
    assert.equal(await transform('\n \n', 'removeEmpty'), '');
  });

  it('trimLines trims each line; collapseSpaces turns runs of spaces and tabs into one space', async () => {
    assert.equal(await transform('  a  \n\tb\t\r\nc\u00a0', 'trimLines'), 'a\nb\nc');
    assert.equal(await transform('a  \t b\n\n  c\u00a0\u00a0d', 'collapseSpaces'), 'a b\n\n c\u00a0\u00a0d');
  });

  it('reverse reverses by grapheme cluster: emoji, flags and combined letters survive', async () => {
    assert.equal(await transform('ab👍🏽c\u0301🇩🇪', 'reverse'), '🇩🇪c\u0301👍🏽ba');
    assert.equal(await transform('a\r\nb', 'reverse'), 'b\na');
    assert.equal(await transform('👨\u200d👩\u200d👧!', 'reverse'), '!👨\u200d👩\u200d👧');
  });

  it('answers every transform with \\n line endings', async () => {
    for (const name of TRANSFORMS) assert.doesNotMatch(await transform('b\r\na\r\n', name), /\r/, name);
  });

  it(`sorts up to ${MAX_SORT_LINES} different lines; one more is 422 too_many_lines`, async () => {
    const lines = Array.from({ length: MAX_SORT_LINES }, (_, i) => String(i));
    const sorted = (await transform(lines.join('\n'), 'sortAsc')).split('\n');
    assert.deepEqual([sorted.length, sorted[0], sorted[1], sorted[2]], [MAX_SORT_LINES, '0', '1', '10']);
    await assert.rejects(transform([...lines, 'x'].join('\n'), 'sortDesc'), { status: 422, code: 'too_many_lines' });
    // Repeats do not count: 1,000,000 lines of 10 different ones sort fine.
    assert.equal((await transform('b\na\n'.repeat(500_000), 'sortAsc')).length, 2_000_000);
  });
});

describe('word-counter.transform: validation and hostile input', () => {
  it('refuses an invalid locale tag with 400 details on /locale, and accepts valid ones', async () => {
    for (const locale of ['en_US', '', 'x'.repeat(200), 'tr--', '123']) {
      await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', locale }), '/locale');
    }
    // The tag is checked whatever the transform, even one that ignores it.
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'reverse', locale: 'en_US' }), '/locale');
    assert.equal(await transform('a', 'upper', 'de-CH'), 'A');
    assert.equal(await transform('a', 'upper', 'xx'), 'A'); // well-formed, unknown: the root rules
    // Repeated variants and singletons are the one part the schema's pattern leaves to the handler.
    for (const locale of ['de-1996-1996', 'en-u-ca-gregory-u-nu-latn']) {
      await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', locale }), '/locale');
    }
    assert.equal(await transform('i', 'upper', 'tr-u-co-trad-t-en-a1-abc-x-priv'), 'İ');
  });

  it('refuses a tag over 255 characters, and a 10 MB tag of repeated subtags, with 400', async () => {
    // Matched by V8's own engine, `(?:-variant)*` overflowed its backtrack stack on these (a 500).
    const longest = `de-x${'-abcdefgh'.repeat(27)}-abcdefg`; // 255 characters, which Intl takes, as it does one more
    assert.equal(await transform('a', 'upper', longest), 'A');
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', locale: `${longest}h` }), '/locale');
    for (const locale of [`aa${'-bbbbb'.repeat(1_500_000)}`, `aa${'-u-ab'.repeat(2_000_000)}`]) {
      await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', locale }), '/locale');
    }
  });

  it('refuses unknown transforms, a missing transform or text, and unknown fields', async () => {
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upperCase' }), '/transform');
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a' }), '/transform');
    await rejectsField(invoke(wordCounter, 'transform', { transform: 'upper' }), '/text');
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', topWords: 1 }), '/topWords');
  });

  it('hostile: 10 MB through the slowest transforms answers without stalling', async () => {
    const text = 'The quick brown Fox jumps over the lazy dog. '.repeat(222_222);
    for (const name of ['title', 'camel', 'reverse']) {
      const started = performance.now();
      const result = await transform(text, name);
      const elapsed = performance.now() - started;
      assert.ok(result.length > 0 && elapsed < HANG_GUARD_MS, `${name}: ${Math.round(elapsed)} ms`);
    }
  });

  it('hostile: lone surrogates, a 10 MB locale string, 10 MB of line breaks', async () => {
    assert.equal(await transform('a\ud800b\udc00', 'reverse'), '\udc00b\ud800a');
    assert.equal(await transform('\ud800x', 'upper'), '\ud800X');
    const started = performance.now();
    await rejectsField(invoke(wordCounter, 'transform', { text: 'a', transform: 'upper', locale: 'a'.repeat(10_000_000) }), '/locale');
    assert.equal(await transform('\n'.repeat(10_000_000), 'dedupe'), '\n');
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
