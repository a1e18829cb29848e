import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import wordCounter from './index.js';
import type { TextStats } from './stats.js';

const stats = async (text: string, topWords?: number): Promise<TextStats> =>
  (await invoke(wordCounter, 'stats', topWords === undefined ? { text } : { text, topWords })) as TextStats;

describe('word-counter.stats', () => {
  it('answers its example exactly', async () => {
    const example = wordCounter.operations.stats!.examples[0]!;
    assert.deepEqual(await invoke(wordCounter, 'stats', example.body), example.response);
  });

  it('gives zeros for the empty text', async () => {
    assert.deepEqual(await stats(''), {
      characters: 0, charactersNoSpaces: 0, words: 0, sentences: 0, paragraphs: 0, lines: 0, uniqueWords: 0,
      avgWordLength: 0, readingMinutes: 0, speakingMinutes: 0, bytes: 0, topWords: [],
    });
  });

  it('counts grapheme clusters: 👍🏽, é decomposed, a flag and a family are one character each', async () => {
    const thumbs = await stats('👍🏽');
    // 👍 U+1F44D and 🏽 U+1F3FD are 4 UTF-8 bytes each.
    assert.deepEqual([thumbs.characters, thumbs.charactersNoSpaces, thumbs.bytes, thumbs.words], [1, 1, 8, 0]);
    assert.equal((await stats('e\u0301')).characters, 1);
    assert.equal((await stats('🇩🇪🇫')).characters, 2); // a pair of regional indicators, then a lone one
    assert.equal((await stats('👨\u200d👩\u200d👧')).characters, 1);
    assert.equal((await stats('\r\n')).characters, 1);
  });

  it('leaves whitespace clusters out of charactersNoSpaces (space, tab, CRLF, no-break space)', async () => {
    // a ␣ b ⇥ c CRLF: 6 clusters, 3 of them whitespace.
    const result = await stats('a b\tc\r\n');
    assert.deepEqual([result.characters, result.charactersNoSpaces], [6, 3]);
    const nbsp = await stats('a\u00a0b');
    assert.deepEqual([nbsp.characters, nbsp.charactersNoSpaces], [3, 2]);
  });

  it('counts UTF-8 bytes; a lone surrogate is written as U+FFFD (3 bytes)', async () => {
    assert.equal((await stats('é€😀')).bytes, 2 + 3 + 4);
    assert.equal((await stats('\ud800')).bytes, 3);
  });

  it('counts lines (0 for "", else newlines + 1) and paragraphs (blocks between blank lines)', async () => {
    // Lines: a | "" | b\r | c | " " | "" | d → 6 newlines, 7 lines; blocks [a] [b c] [d].
    const result = await stats('a\n\nb\r\nc\n \n\nd');
    assert.deepEqual([result.lines, result.paragraphs], [7, 3]);
    const trailing = await stats('a\n');
    assert.deepEqual([trailing.lines, trailing.paragraphs], [2, 1]);
    const blank = await stats(' \n\t\n');
    assert.deepEqual([blank.lines, blank.paragraphs, blank.sentences], [3, 0, 0]);
  });

  it('counts sentences as UAX #29 does: "Mr. " ends one, a lowercase word after a period does not', async () => {
    // Mr. | Smith went. | He left!\n | New line (a break after "Mr. " because S is uppercase).
    assert.equal((await stats('Mr. Smith went. He left!\nNew line')).sentences, 4);
    assert.equal((await stats('See the notes etc. and more.')).sentences, 1);
    assert.equal((await stats('中文。中文。')).sentences, 2);
  });

  it('counts words, unique words (lowercase), letters per word and the top words', async () => {
    // Words: Don't stop don't DON'T 3.14 e.g foo_bar (7); unique lowercase: don't stop 3.14 e.g foo_bar (5).
    // Letters: don't 4 ×3, stop 4, 3.14 3, e.g 2, foo_bar 6 → 27 / 7 = 3.857 → 3.86.
    // Reading 7 / 200 = 0.035 → 0.04 (half up); speaking 7 / 130 = 0.0538 → 0.05.
    // Top words need 3 letters (e.g has 2); ties by code point order: "3.14" < "foo_bar" < "stop".
    const result = await stats("Don't stop: don't, DON'T! 3.14 e.g. foo_bar");
    assert.deepEqual(
      [result.words, result.uniqueWords, result.avgWordLength, result.readingMinutes, result.speakingMinutes],
      [7, 5, 3.86, 0.04, 0.05],
    );
    assert.deepEqual(result.topWords, [
      { word: "don't", count: 3 }, { word: '3.14', count: 1 }, { word: 'foo_bar', count: 1 }, { word: 'stop', count: 1 },
    ]);
  });

  it('rounds minutes half up on the exact decimal: 201 words read in 1.005 → 1.01 minutes', async () => {
    const result = await stats('a '.repeat(201));
    // 201 / 130 = 1.546… → 1.55; "a" has 1 letter, so no top word.
    assert.deepEqual([result.words, result.readingMinutes, result.speakingMinutes, result.avgWordLength, result.topWords], [201, 1.01, 1.55, 1, []]);
  });

  it('compares words with toLowerCase: Straße and STRASSE stay apart, final sigma folds', async () => {
    assert.equal((await stats('Straße STRASSE strasse')).uniqueWords, 2);
    assert.equal((await stats('ΟΔΟΣ οδος')).uniqueWords, 1);
  });

  it('defaults topWords to 10 and honours 0 and 100', async () => {
    const text = Array.from({ length: 120 }, (_, i) => `word${String(i).padStart(3, '0')} `.repeat(120 - i)).join('');
    assert.equal((await stats(text)).topWords.length, 10);
    assert.deepEqual((await stats(text)).topWords[0], { word: 'word000', count: 120 });
    assert.deepEqual((await stats(text, 0)).topWords, []);
    const hundred = (await stats(text, 100)).topWords;
    assert.deepEqual([hundred.length, hundred[99]], [100, { word: 'word099', count: 21 }]);
  });

  it('refuses topWords outside 0–100 or not an integer, and a missing text', async () => {
    await rejectsField(invoke(wordCounter, 'stats', { text: 'a', topWords: 101 }), '/topWords');
    await rejectsField(invoke(wordCounter, 'stats', { text: 'a', topWords: -1 }), '/topWords');
    await rejectsField(invoke(wordCounter, 'stats', { text: 'a', topWords: 1.5 }), '/topWords');
    await rejectsField(invoke(wordCounter, 'stats', { text: 'a', topWords: '10' }), '/topWords');
    await rejectsField(invoke(wordCounter, 'stats', {}), '/text');
    await rejectsField(invoke(wordCounter, 'stats', { text: 'a', locale: 'en' }), '/locale');
  });

  it('hostile: 10 MB of words, newlines, lone surrogates or a combining flood answer without stalling', async () => {
    const cases: [string, Partial<TextStats>][] = [
      ['word '.repeat(2_000_000), { words: 2_000_000, uniqueWords: 1, characters: 10_000_000 }],
      ['\n'.repeat(10_000_000), { lines: 10_000_001, paragraphs: 0, words: 0 }],
      // A lone surrogate is a character of its own and separates words (x, x, …).
      ['x\ud800'.repeat(5_000_000), { characters: 10_000_000, words: 5_000_000, uniqueWords: 1, bytes: 20_000_000 }],
      [`a${'\u0301'.repeat(9_999_999)}`, { characters: 1, words: 1 }],
    ];
    for (const [text, expected] of cases) {
      const started = performance.now();
      const result = await stats(text);
      const elapsed = performance.now() - started;
      for (const [key, value] of Object.entries(expected)) assert.equal(result[key as keyof TextStats], value, key);
      assert.ok(elapsed < HANG_GUARD_MS, `${Math.round(elapsed)} ms`);
    }
  });

  it('hostile: a huge text in a script without spaces answers 422 text_too_complex quickly', async () => {
    const started = performance.now();
    await assert.rejects(stats('中文文本'.repeat(2_000_000)), { status: 422, code: 'text_too_complex' });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    // A smaller one is fine, and read window by window it gives what Intl.Segmenter gives in one go
    // (5,000 characters: one go is still affordable there).
    const text = '我们今天去公园散步。'.repeat(500);
    const direct = [...new Intl.Segmenter('en', { granularity: 'word' }).segment(text)].filter((w) => w.isWordLike).length;
    assert.equal((await stats(text)).words, direct);
  });
});
