/**
 * Word-like segments (Intl.Segmenter's `isWordLike`) of a whole text, fast. Whitespace always
 * separates words and no rule reaches across it, so the text is read piece by piece (a piece is
 * a run without whitespace). A piece made only of ASCII, Latin, Greek and Cyrillic letters and a
 * few common punctuation marks is cut here by the same UAX #29 rules; a piece of emoji only has
 * no word; any other piece goes to Intl.Segmenter, together with its neighbours when they are close.
 */
import { segmenters, segmentRange, type SegmentBudget } from './segmenter.js';

// JavaScript's \s without U+FEFF, which is a format character that joins the word before it.
const SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const LETTER = '[\\p{L}&&[\\p{sc=Latin}\\p{sc=Greek}\\p{sc=Cyrillic}]&&[\\0-\\uFFFF]]';
// Punctuation outside ASCII whose word-break class is Other, or MidNumLet (’ ‘, handled below).
const PUNCTUATION = '’‘“”«»—–…';
// Combining diacritical marks (and their extensions): Extend, which WB4 makes invisible.
const MARKS = '\\u0300-\\u036F\\u0483-\\u0489\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F';

/**
 * A character that makes its piece slow: not ASCII, not a fast letter or mark, not fast
 * punctuation, not a lone surrogate (in `v` mode a surrogate pair is one code point and does not
 * match \uD800-\uDFFF). Also "_" before a mark, which ICU does not count as a word.
 */
// The classes list combining marks as single code points on purpose; nothing in them is meant to combine.
// eslint-disable-next-line no-misleading-character-class
const SLOW_CHARACTER = new RegExp(`[[^\\0-\\x7F${PUNCTUATION}${SPACE}${MARKS}\\uD800-\\uDFFF]--${LETTER}]|_[${MARKS}]`, 'gv');
/**
 * A character that is not part of an emoji (pictographs, modifiers, flags, tags, ZWJ, VS16): a
 * piece without one has no word. One negated class, because a repeated group overflows the
 * regular-expression stack on a long piece.
 */
// The class is a set of single code points on purpose; nothing in it is meant to combine.
// eslint-disable-next-line no-misleading-character-class
const NOT_EMOJI = /[^\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{E0020}-\u{E007F}\u200D\uFE0F]/u;

/** Slow pieces closer together than this go to Intl.Segmenter in one call. */
const BATCH = 64;
/** What one Intl.Segmenter call costs against the budget, besides its steps. */
const CALL_COST = 4;

const OTHER = 0;
const LETTER_KIND = 1;
const DIGIT = 2;
const CONNECTOR = 3;
const MARK = 4;

let letters: Uint8Array | undefined;

/** The kind of each BMP code unit in a fast piece: LETTER_KIND, DIGIT, CONNECTOR, MARK or OTHER. */
function kindTable(): Uint8Array {
  if (letters !== undefined) return letters;
  const table = new Uint8Array(0x10000);
  const all: string[] = [];
  for (let c = 0; c < 0x10000; c += 4096) {
    all.push(String.fromCharCode(...Array.from({ length: 4096 }, (_, i) => c + i).filter((unit) => unit < 0xd800 || unit > 0xdfff)));
  }
  const text = all.join('');
  for (const match of text.matchAll(new RegExp(LETTER, 'gv'))) table[match[0].charCodeAt(0)] = LETTER_KIND;
  // eslint-disable-next-line no-misleading-character-class -- single code points, as above
  for (const match of text.matchAll(new RegExp(`[${MARKS}]`, 'gv'))) table[match[0].charCodeAt(0)] = MARK;
  for (let c = 0x30; c <= 0x39; c++) table[c] = DIGIT;
  table[0x5f] = CONNECTOR;
  letters = table;
  return table;
}

function isSpace(c: number): boolean {
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** ' . ’ ‘ : join two letters (MidLetter, MidNumLetQ: WB6, WB7). */
const joinsLetters = (c: number): boolean => c === 0x27 || c === 0x2e || c === 0x2019 || c === 0x2018 || c === 0x3a;
/** , ; . ' ’ ‘ join two digits (MidNum, MidNumLetQ: WB11, WB12). */
const joinsDigits = (c: number): boolean => c === 0x2c || c === 0x3b || c === 0x2e || c === 0x27 || c === 0x2019 || c === 0x2018;

/**
 * The words of text[from, to), a stretch of fast pieces, by WB4–WB13b: combining marks are
 * invisible (they go with the character before them), letters, digits and "_" join, and a
 * joiner between two letters or two digits joins them.
 */
function fastWords(text: string, from: number, to: number, visit: (word: string) => void): void {
  const table = kindTable();
  /** The kind of the first character at or after `i` that is not a mark, and where it is. */
  const nextKind = (i: number): [number, number] => {
    while (i < to && table[text.charCodeAt(i)] === MARK) i++;
    return [i < to ? table[text.charCodeAt(i)]! : OTHER, i];
  };
  let i = from;
  while (i < to) {
    let previous = table[text.charCodeAt(i)]!;
    if (previous === OTHER || previous === MARK) {
      i++;
      continue;
    }
    const start = i++;
    let end = i; // the word ends after its last letter, digit or connector and their marks
    let connectorsOnly = previous === CONNECTOR;
    let characters = 1; // letters, digits and connectors, marks not counted
    while (i < to) {
      const c = text.charCodeAt(i);
      const current = table[c]!;
      if (current === MARK) {
        end = ++i;
        continue;
      }
      if (current !== OTHER) {
        previous = current;
        connectorsOnly &&= current === CONNECTOR;
        characters++;
        end = ++i;
        continue;
      }
      const [next, at] = nextKind(i + 1);
      if ((previous === LETTER_KIND && next === LETTER_KIND && joinsLetters(c)) || (previous === DIGIT && next === DIGIT && joinsDigits(c))) {
        i = at;
        continue;
      }
      break;
    }
    // A lone "_" is not word-like for ICU, though "__" is (its rules give two ExtendNumLet a status).
    if (!(connectorsOnly && characters === 1)) visit(text.slice(start, end));
    i = Math.max(i, end);
  }
}

/** Calls `visit(word)` for every word-like segment of `text`, in order. */
export function forEachWord(text: string, budget: SegmentBudget, visit: (word: string) => void): void {
  let done = 0; // everything before `done` is handled or waits in the pending range
  let pending = -1; // start of a range [pending, done) waiting for Intl.Segmenter
  const flush = (): void => {
    if (pending === -1) return;
    budget.spend(CALL_COST);
    segmentRange(segmenters.word, text, pending, done, budget, (segment) => {
      if (segment.isWordLike) visit(segment.text);
    }, { window: 1024, margin: 64 });
    pending = -1;
  };
  const slow = new RegExp(SLOW_CHARACTER);
  for (let match = slow.exec(text); match !== null; match = slow.exec(text)) {
    let start = match.index;
    while (start > done && !isSpace(text.charCodeAt(start - 1))) start--;
    let end = slow.lastIndex;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end++;
    slow.lastIndex = end;
    if (pending !== -1 && start - done < BATCH) {
      done = end; // close enough: the gap joins the pending range
      continue;
    }
    flush();
    fastWords(text, done, start, visit);
    if (NOT_EMOJI.test(text.slice(start, end))) {
      // The space before the piece goes with it: a mark at the start of a piece attaches to it (WB4).
      pending = start > done ? start - 1 : start;
    }
    done = end;
  }
  flush();
  fastWords(text, done, text.length, visit);
}
