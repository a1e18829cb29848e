/**
 * Sentence segments of a whole text, fast. Every line break ends a sentence (SB4), so the text is
 * read line by line. A line of ASCII, Latin, Greek and Cyrillic letters and common punctuation is
 * cut here by the UAX #29 sentence rules; any other line goes to Intl.Segmenter.
 */
import { segmenters, segmentRange, type SegmentBudget } from './segmenter.js';

// Sentence-break classes of the characters this file handles itself.
const OTHER = 0;
const SP = 1;
const LOWER = 2;
const UPPER = 3;
const OLETTER = 4;
const NUMERIC = 5;
const ATERM = 6;
const STERM = 7;
const CLOSE = 8;
const SCONTINUE = 9;
const PARASEP = 10;
/** Not handled here: the line goes to Intl.Segmenter. */
const SLOW = 11;

const FAST_LETTER = new RegExp('[\\p{L}&&[\\p{sc=Latin}\\p{sc=Greek}\\p{sc=Cyrillic}]&&[\\0-\\uFFFF]]', 'v');

let classes: Uint8Array | undefined;

/** The class of every BMP code unit; SLOW for all this file does not handle. */
function classTable(): Uint8Array {
  if (classes !== undefined) return classes;
  const table = new Uint8Array(0x10000).fill(SLOW);
  for (let c = 0; c < 0x80; c++) table[c] = OTHER;
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const character = String.fromCharCode(c);
    if (!FAST_LETTER.test(character)) continue;
    table[c] = /\p{Lowercase}/u.test(character) ? LOWER : /[\p{Uppercase}\p{Lt}]/u.test(character) ? UPPER : OLETTER;
  }
  for (const c of [0x09, 0x0b, 0x0c, 0x20, 0xa0]) table[c] = SP;
  for (let c = 0x61; c <= 0x7a; c++) table[c] = LOWER;
  for (let c = 0x41; c <= 0x5a; c++) table[c] = UPPER;
  for (let c = 0x30; c <= 0x39; c++) table[c] = NUMERIC;
  table[0x2e] = ATERM;
  table[0x21] = STERM;
  table[0x3f] = STERM;
  for (const c of '"\'()[]{}“”‘’«»') table[c.charCodeAt(0)] = CLOSE;
  for (const c of ',-:;–—') table[c.charCodeAt(0)] = SCONTINUE;
  table[0x0a] = PARASEP;
  table[0x0d] = PARASEP;
  for (let c = 0xd800; c <= 0xdfff; c++) table[c] = OTHER; // a lone surrogate; a pair is found and handled as slow below
  classes = table;
  return table;
}

/**
 * The sentence ends inside line[from, to), a line without SLOW characters whose only paragraph
 * separator is its last character(s), by SB6–SB11 (SB3–SB5 cannot apply inside it).
 */
function fastSentences(text: string, from: number, to: number, visit: (start: number, end: number) => void): void {
  const table = classTable();
  const at = (i: number): number => (i < to ? table[text.charCodeAt(i)]! : PARASEP);
  let start = from;
  for (let i = from; i < to; i++) {
    const term = at(i);
    if (term !== ATERM && term !== STERM) continue;
    let j = i + 1;
    while (j < to && at(j) === CLOSE) j++;
    const afterClose = j;
    while (j < to && at(j) === SP) j++;
    if (j >= to || at(j) === PARASEP) break; // the rest of the line is this sentence (SB9–SB11)
    const next = at(j);
    let joined = next === SCONTINUE || next === ATERM || next === STERM; // SB8a
    if (term === ATERM && !joined) {
      if (j === i + 1 && next === NUMERIC) joined = true; // SB6
      else if (j === i + 1 && next === UPPER && i > from && (at(i - 1) === UPPER || at(i - 1) === LOWER)) joined = true; // SB7
      else {
        let k = j; // SB8: skip what is neither a letter nor a separator nor a terminator; a lowercase letter joins
        for (let c = at(k); c !== OLETTER && c !== UPPER && c !== LOWER && c !== PARASEP && c !== ATERM && c !== STERM; c = at(++k));
        joined = at(k) === LOWER;
      }
    }
    if (!joined) {
      visit(start, j);
      start = j;
    }
    i = Math.max(i, afterClose - 1);
  }
  visit(start, to);
}

/** A character after which a sentence may end: a terminator (SB11) or a separator (SB4). */
const MAY_END = /[\p{Sentence_Terminal}.\u2024\uFE52\uFF0E\u0085\u2028\u2029]/u;

/** What one Intl.Segmenter call costs against the budget, besides its steps. */
const CALL_COST = 4;
/** Neighbouring slow lines are segmented together up to this length. */
const BATCH = 4096;

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Calls `visit(start, end)` for every sentence segment of `text`, in order. */
export function forEachSentence(text: string, budget: SegmentBudget, visit: (start: number, end: number) => void): void {
  const table = classTable();
  let pending = -1; // start of slow lines [pending, lineStart) waiting for Intl.Segmenter
  let lineStart = 0;
  const flush = (): void => {
    if (pending === -1) return;
    budget.spend(CALL_COST);
    segmentRange(segmenters.sentence, text, pending, lineStart, budget, (segment) => visit(segment.start, segment.end), {
      window: 2048,
      margin: 256,
    });
    pending = -1;
  };
  while (lineStart < text.length) {
    let lineEnd = lineStart;
    let fast = true;
    for (; lineEnd < text.length; lineEnd++) {
      const c = text.charCodeAt(lineEnd);
      if (c === 0x0a || (c === 0x0d && text.charCodeAt(lineEnd + 1) !== 0x0a)) {
        lineEnd++;
        break;
      }
      // A surrogate pair (an emoji, say) is slow; a lone surrogate is an ordinary character.
      if (table[c] === SLOW || (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(lineEnd + 1)))) fast = false;
    }
    if (fast) {
      flush();
      fastSentences(text, lineStart, lineEnd, visit);
    } else if (!MAY_END.test(text.slice(lineStart, lineEnd - 1))) {
      // Nothing in the line can end a sentence before its end: it is one sentence.
      flush();
      visit(lineStart, lineEnd);
    } else if (pending === -1) pending = lineStart;
    lineStart = lineEnd;
    if (pending !== -1 && lineStart - pending >= BATCH) flush();
  }
  flush();
}
