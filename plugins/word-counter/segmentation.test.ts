// The fast paths must give exactly what Intl.Segmenter gives, so Intl.Segmenter itself is the
// independent source here: random strings over characters chosen to hit every rule, compared
// segment by segment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CLASS_MASK, CONTROL, EXTEND, graphemeTable, HIGH_LETTER, OTHER } from './grapheme-classes.js';
import { forEachGrapheme } from './graphemes.js';
import { SegmentBudget, segmentRange } from './segmenter.js';
import { forEachSentence } from './sentences.js';
import { forEachWord } from './words.js';

/** Random strings of 1–`maxLength` picks from `pool`, from a seeded linear congruential generator. */
function* randomStrings(pool: readonly string[], count: number, maxLength: number, seed: number): Generator<string> {
  let x = seed;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * n); // the high bits: the low bits of this generator cycle fast
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = 1 + next(maxLength);
    for (let k = 0; k < length; k++) text += pool[next(pool.length)];
    yield text;
  }
}

const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

describe('grapheme clusters', () => {
  it('match Intl.Segmenter on strings built from every kind of rule', () => {
    const pool = [
      'a', 'A', ' ', '\r', '\n', '\t', '\u0301', '\u200d', '\u200c', '👍', '🏽', '👨', '🇩', '🇪', '🇫', '\u1100', '\u1161', '\u11a8',
      '가', '각', 'क', '\u094d', 'ष', '\u093f', '\u0600', '\u0d4e', 'ำ', 'ก', 'ั', '\ud800', '\udc00', '\u2028', '\u00ad', '\ufe0f',
      '©', '\u0000', 'ﾞ', '\u{e0061}', '\u{1f3f4}', '中', '\u0915\u094d\u200d',
    ];
    for (const text of randomStrings(pool, 3000, 30, 7)) {
      const expected = [...graphemeSegmenter.segment(text)].map((g) => [g.index, g.index + g.segment.length]);
      const actual: number[][] = [];
      forEachGrapheme(text, new SegmentBudget(), (start, end) => actual.push([start, end]));
      assert.deepEqual(actual, expected, JSON.stringify(text));
    }
  });

  it('classify every BMP code point the way Intl.Segmenter treats it next to "a"', () => {
    const table = graphemeTable();
    for (let cp = 0; cp < 0x10000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const kind = table[cp]! & CLASS_MASK;
      if (kind !== OTHER && kind !== HIGH_LETTER && kind !== CONTROL && kind !== EXTEND) continue;
      const clusters = [...graphemeSegmenter.segment(`a${String.fromCodePoint(cp)}a`)].length;
      // Extend joins the "a" before it; the others stand alone between two "a".
      assert.equal(clusters, kind === EXTEND ? 2 : 3, `U+${cp.toString(16)}`);
    }
  });
});

describe('words', () => {
  it('match Intl.Segmenter\'s word-like segments, on the fast path and off it', () => {
    const fast = ['a', 'B', 'é', 'б', 'Ω', 'ς', 'ǅ', 'ª', '1', '0', '_', '.', "'", '’', '‘', ':', ',', ';', '-', '“', '”', '«', '»', '—', '–', '…',
      ' ', ' ', '\n', '\r', '\t', '!', '?', '(', ')', '#', '"', '@', '\u00a0', '\u2028', '\ud800', '\udc00', '\u0301', '\u0308', '\u20dd'];
    const slow = [...fast, '\u093f', '\ufeff', '\u00ad', '中', 'あ', 'א', '\u200d', '👍', '🇩', '²', '\u0000', '\u3000', 'ก', 'ｗ', '．', '٣'];
    for (const [pool, seed] of [[fast, 1], [slow, 2]] as const) {
      for (const text of randomStrings(pool, 2500, 30, seed)) {
        const expected = [...wordSegmenter.segment(text)].filter((w) => w.isWordLike).map((w) => w.segment);
        const actual: string[] = [];
        forEachWord(text, new SegmentBudget(), (word) => actual.push(word));
        assert.deepEqual(actual, expected, JSON.stringify(text));
      }
    }
  });

  it('a lone "_" is no word but "__" is, as in ICU', () => {
    const words = (text: string): string[] => {
      const found: string[] = [];
      forEachWord(text, new SegmentBudget(), (word) => found.push(word));
      return found;
    };
    assert.deepEqual(words('a _ __ _b'), ['a', '__', '_b']);
    assert.deepEqual(words("don't e.g. 3,000.50 a:b a-b"), ["don't", 'e.g', '3,000.50', 'a:b', 'a', 'b']);
  });
});

describe('sentences', () => {
  it('match Intl.Segmenter on the fast path and off it', () => {
    const fast = ['\ud800', '\udc00', 'a', 'b', 'B', 'C', 'é', 'É', 'б', 'Б', 'ª', 'ǅ', 'ǀ', '1', '.', '.', '.', '!', '?', ' ', ' ', ' ', '\t',
      '"', "'", '(', ')', ']', '“', '”', '’', '«', '»', ',', ';', ':', '-', '—', '–', '…', '#', '\n', '\r', '\u00a0', '\v', '\f'];
    const slow = [...fast, '👍', '\u2028', '中', '。', '\u0301', '\u00ad', '¿', '\u0085'];
    for (const [pool, seed] of [[fast, 3], [slow, 4]] as const) {
      for (const text of randomStrings(pool, 2500, 30, seed)) {
        const expected = [...sentenceSegmenter.segment(text)].map((s) => [s.index, s.index + s.segment.length]);
        const actual: number[][] = [];
        forEachSentence(text, new SegmentBudget(), (start, end) => actual.push([start, end]));
        assert.deepEqual(actual, expected, JSON.stringify(text));
      }
    }
  });
});

describe('windowed segmentation', () => {
  it('gives the segments of a one-piece run, whatever the window', () => {
    const text = 'Hello world. 👍🏽 e\u0301t\u00e9 🇩🇪🇫🇷! Foo bar? '.repeat(20);
    for (const granularity of ['grapheme', 'word', 'sentence'] as const) {
      const segmenter = new Intl.Segmenter('en', { granularity });
      const expected = [...segmenter.segment(text)].map((s) => [s.index, s.index + s.segment.length]);
      for (const window of [16, 64, 1024]) {
        const actual: number[][] = [];
        segmentRange(segmenter, text, 0, text.length, new SegmentBudget(), (s) => actual.push([s.start, s.end]), { window, margin: 8 });
        assert.deepEqual(actual, expected, `${granularity} window ${window}`);
      }
    }
  });

  it('grows the window past a segment longer than it', () => {
    const text = `a${'\u0301'.repeat(5000)} b`;
    const actual: string[] = [];
    segmentRange(graphemeSegmenter, text, 0, text.length, new SegmentBudget(), (s) => actual.push(s.text), { window: 16, margin: 4 });
    assert.deepEqual(actual.map((s) => s.length), [5001, 1, 1]);
  });

  it('answers text_too_complex past the step budget', () => {
    const budget = new SegmentBudget(10);
    assert.throws(
      () => segmentRange(graphemeSegmenter, 'abcdefghijkl', 0, 12, budget, () => {}),
      { status: 422, code: 'text_too_complex' },
    );
  });
});
