/**
 * Placeholder text from a fixed vocabulary. The randomness is injected so tests can be exact: the
 * generator draws numbers in a documented order, and a test can feed it a known sequence.
 */
import { CLASSIC_WORDS, WORDS } from './lorem.data.js';

/** What to count. */
export type LoremUnit = 'paragraphs' | 'sentences' | 'words';

/** A source of numbers in [0, 1), like `Math.random`. */
export type RandomSource = () => number;

/** The options of one generation (the request, with defaults filled in). */
export interface LoremOptions {
  readonly unit: LoremUnit;
  readonly count: number;
  readonly startClassic: boolean;
  readonly html: boolean;
}

/** Words per random sentence, inclusive. */
export const SENTENCE_WORDS = { min: 6, max: 14 } as const;
/** Sentences per paragraph, inclusive. */
export const PARAGRAPH_SENTENCES = { min: 4, max: 7 } as const;
/** Random sentences of at least this many words get one comma. */
export const COMMA_FROM_WORDS = 8;

/** The classic opening as a sentence. */
export const CLASSIC_SENTENCE = `${CLASSIC_WORDS.join(' ')}.`;

/** An integer in [min, max] from one draw; a draw of exactly 1 still lands on max. */
function between(random: RandomSource, min: number, max: number): number {
  return min + Math.min(max - min, Math.floor(random() * (max - min + 1)));
}

/** Draws words, never the same word twice in a row (it reads like a stutter). */
class WordPicker {
  private previous = '';

  constructor(private readonly random: RandomSource) {}

  /** Remembers a word written without a draw (the classic opening), so the next draw does not repeat it. */
  follow(word: string): void {
    this.previous = word.replace(/,$/, '').toLowerCase();
  }

  /** One draw: WORDS[floor(r × 63)], or the word after it when that repeats the previous word. */
  next(): string {
    let index = between(this.random, 0, WORDS.length - 1);
    if (WORDS[index] === this.previous) index = (index + 1) % WORDS.length;
    this.previous = WORDS[index]!;
    return this.previous;
  }
}

/**
 * One random sentence. Draws, in order: the length (6–14 words), one draw per word, then for
 * sentences of 8 or more words the position of the comma (after word 3 up to the fourth-last word).
 */
function randomSentence(random: RandomSource, picker: WordPicker): string {
  const length = between(random, SENTENCE_WORDS.min, SENTENCE_WORDS.max);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(picker.next());
  if (length >= COMMA_FROM_WORDS) {
    const index = between(random, 2, length - 4);
    words[index] = `${words[index]!},`;
  }
  const first = words[0]!;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(' ')}.`;
}

/** `count` sentences, the first the classic one when asked. */
function sentences(count: number, classic: boolean, random: RandomSource, picker: WordPicker): string[] {
  const list: string[] = [];
  if (classic) {
    list.push(CLASSIC_SENTENCE);
    picker.follow(CLASSIC_WORDS[CLASSIC_WORDS.length - 1]!);
  }
  while (list.length < count) list.push(randomSentence(random, picker));
  return list;
}

/** `count` words separated by single spaces; no sentence punctuation, no trailing comma. */
function words(count: number, classic: boolean, picker: WordPicker): string {
  const list = classic ? CLASSIC_WORDS.slice(0, count) : [];
  if (list.length > 0) picker.follow(list[list.length - 1]!);
  while (list.length < count) list.push(picker.next());
  return list.join(' ').replace(/,$/, '');
}

/**
 * Generates exactly `count` units of lorem ipsum. Paragraphs are separated by a blank line, or
 * each wrapped in `<p>…</p>` (one per line) with `html`; with `html`, sentences and words come as
 * one `<p>` element. Each paragraph first draws its number of sentences (4–7), then its sentences.
 */
export function generateLorem(options: LoremOptions, random: RandomSource): string {
  const picker = new WordPicker(random);
  const { unit, count, startClassic, html } = options;
  if (unit === 'paragraphs') {
    const paragraphs: string[] = [];
    for (let i = 0; i < count; i++) {
      const size = between(random, PARAGRAPH_SENTENCES.min, PARAGRAPH_SENTENCES.max);
      paragraphs.push(sentences(size, startClassic && i === 0, random, picker).join(' '));
    }
    return html ? paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n') : paragraphs.join('\n\n');
  }
  const text = unit === 'sentences' ? sentences(count, startClassic, random, picker).join(' ') : words(count, startClassic, picker);
  return html ? `<p>${text}</p>` : text;
}
