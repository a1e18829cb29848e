/** The numbers of /stats. */
import { countGraphemes } from './graphemes.js';
import type { SegmentBudget } from './segmenter.js';
import { forEachSentence } from './sentences.js';
import { forEachWord } from './words.js';

/** One entry of `topWords`. */
export interface TopWord {
  word: string;
  count: number;
}

/** The answer of /stats. */
export interface TextStats {
  characters: number;
  charactersNoSpaces: number;
  words: number;
  sentences: number;
  paragraphs: number;
  lines: number;
  uniqueWords: number;
  avgWordLength: number;
  readingMinutes: number;
  speakingMinutes: number;
  bytes: number;
  topWords: TopWord[];
}

/** Words per minute, read silently and spoken. */
export const READING_WPM = 200;
export const SPEAKING_WPM = 130;
/** topWords lists words of at least this many letters. */
export const TOP_WORD_MIN_LETTERS = 3;

/** White_Space, by code unit (all of it lies in the BMP). */
export function isWhiteSpace(c: number): boolean {
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWhiteSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Paragraphs: runs of lines that are not blank (empty or whitespace only). */
export function countParagraphs(text: string): number {
  let paragraphs = 0;
  let inParagraph = false;
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const blank = isBlank(text, start, end);
    if (!blank && !inParagraph) paragraphs++;
    inParagraph = !blank;
    start = end + 1;
  }
  return paragraphs;
}

/** Lines: 0 for the empty text, else the number of `\n` plus one (`\r\n` counts once). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;

/** Letters and digits of a word (apostrophes, periods and combining marks do not count). */
export function letterCount(word: string): number {
  let count = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a)) count++;
    else if (c >= 0x80) return count + (word.slice(i).match(LETTER_OR_DIGIT)?.length ?? 0);
  }
  return count;
}

/** x rounded to 2 decimals, half up, for x = numerator / denominator (integers). */
function ratio2(numerator: number, denominator: number): number {
  return denominator === 0 ? 0 : Math.round((numerator * 100) / denominator) / 100;
}

/** Orders top words: more frequent first, then by code point order of the folded word. */
function before(a: TopWord, b: TopWord): boolean {
  return a.count > b.count || (a.count === b.count && a.word < b.word);
}

/**
 * The letters of every word (each counted as often as it occurs) and the `limit` first words by
 * {@link before}, without sorting them all: one pass over the counts, reading each word's letters
 * once.
 */
function lettersAndTop(counts: Map<string, number>, limit: number): { letters: number; top: TopWord[] } {
  const top: TopWord[] = [];
  let letters = 0;
  for (const [word, count] of counts) {
    const wordLetters = letterCount(word);
    letters += count * wordLetters;
    if (limit === 0 || wordLetters < TOP_WORD_MIN_LETTERS) continue;
    const candidate = { word, count };
    if (top.length === limit && !before(candidate, top[limit - 1]!)) continue;
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (before(top[middle]!, candidate)) low = middle + 1;
      else high = middle;
    }
    top.splice(low, 0, candidate);
    if (top.length > limit) top.pop();
  }
  return { letters, top };
}

/**
 * Counts everything /stats reports. Words are Intl.Segmenter's word-like segments, compared in
 * lowercase (toLowerCase, no locale) for uniqueWords and topWords.
 */
export function textStats(text: string, topWords: number, budget: SegmentBudget): TextStats {
  const { characters, charactersNoSpaces } = countGraphemes(text, budget);
  // Counts only, no record per word: with a { count, letters } object per word, the 2 million
  // distinct words a 10 MiB text holds took 240 MB of heap at the peak instead of 152, within a
  // few MB of a worker's default heap cap (workers.memoryMb, 256).
  const counts = new Map<string, number>();
  let words = 0;
  forEachWord(text, budget, (word) => {
    words++;
    const key = word.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const { letters, top } = lettersAndTop(counts, topWords);
  let sentences = 0;
  forEachSentence(text, budget, (start, end) => {
    if (!isBlank(text, start, end)) sentences++;
  });
  return {
    characters,
    charactersNoSpaces,
    words,
    sentences,
    paragraphs: countParagraphs(text),
    lines: countLines(text),
    uniqueWords: counts.size,
    avgWordLength: ratio2(letters, words),
    readingMinutes: ratio2(words, READING_WPM),
    speakingMinutes: ratio2(words, SPEAKING_WPM),
    bytes: Buffer.byteLength(text, 'utf8'),
    topWords: top,
  };
}
