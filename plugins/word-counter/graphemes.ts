/**
 * Grapheme clusters of a whole text, fast. Between two code points whose classes settle the
 * question (see grapheme-classes.ts) the boundary is decided here; stretches holding an undecided
 * pair go to Intl.Segmenter. A cluster always begins after a decided break, and no rule looks back
 * past one, so segmenting such a stretch on its own gives the same clusters.
 */
import {
  CLASS_MASK, CONTROL, CR, EXTEND, graphemeTable, HIGH_LETTER, LF, PICTOGRAPHIC_FLAG, REGIONAL_INDICATOR, SPACE_FLAG, SPECIAL, ZWJ,
} from './grapheme-classes.js';
import { segmenters, segmentRange, type SegmentBudget } from './segmenter.js';

const BREAK = 0;
const JOIN = 1;
const UNSURE = 2;

/** What the scanner knows about the code points before the one being decided. */
interface Context {
  /** Regional indicators in a row, ending with the previous code point. */
  regionalRun: number;
  /** The cluster so far is a pictograph, then only Extend characters and a ZWJ (GB11). */
  pictographThenJoiner: boolean;
}

/** The boundary between a code point of class `before` and one of class `after` (flags included). */
function decide(before: number, after: number, afterEntry: number, context: Context): number {
  if (before === CR) return after === LF ? JOIN : BREAK; // GB3, GB4
  if (before === LF || before === CONTROL || after === CR || after === LF || after === CONTROL) return BREAK; // GB4, GB5
  // A format character may be a control (U+00AD) or a prepend (U+0600): nothing after it is certain.
  if (before === SPECIAL) return UNSURE;
  if (after === EXTEND || after === ZWJ) return JOIN; // GB9
  if (after === SPECIAL) return UNSURE; // GB6–GB8, GB9a
  if (before === ZWJ) {
    if ((afterEntry & PICTOGRAPHIC_FLAG) !== 0) return context.pictographThenJoiner ? JOIN : BREAK; // GB11
    return after === HIGH_LETTER ? UNSURE : BREAK; // GB9c counts the ZWJ as an extender
  }
  if (before === REGIONAL_INDICATOR && after === REGIONAL_INDICATOR) return context.regionalRun % 2 === 1 ? JOIN : BREAK; // GB12, GB13
  if (before === EXTEND && after === HIGH_LETTER) return UNSURE; // GB9c: a linker may join two consonants
  return BREAK; // GB999
}

const WHITE_SPACE_ONLY = /^\p{White_Space}+$/u;

/** Undecided stretches closer together than this are segmented in one call. */
const BATCH = 64;

/**
 * Calls `visit(start, end, isSpace)` for every grapheme cluster of `text`, in order; `isSpace`
 * is true when the cluster is all White_Space.
 */
export function forEachGrapheme(text: string, budget: SegmentBudget, visit: (start: number, end: number, isSpace: boolean) => void): void {
  const length = text.length;
  if (length === 0) return;
  const table = graphemeTable();
  // The cluster being read, whether one of its pairs is undecided, and whether it is all space.
  let clusterStart = 0;
  let unsure = false;
  let allSpace = false;
  // A stretch of clusters waiting for Intl.Segmenter, from `pending` to `clusterStart` (-1: none).
  let pending = -1;
  const flush = (end: number): void => {
    segmentRange(segmenters.grapheme, text, pending, end, budget, (segment) => {
      visit(segment.start, segment.end, WHITE_SPACE_ONLY.test(segment.text));
    }, { window: 512, margin: 8 });
    pending = -1;
  };
  const finish = (end: number): void => {
    if (unsure && pending === -1) pending = clusterStart;
    if (pending !== -1) {
      if (unsure || end - pending < BATCH) return; // keep gathering
      flush(clusterStart);
    }
    visit(clusterStart, end, allSpace);
  };
  const context: Context = { regionalRun: 0, pictographThenJoiner: false };
  let pictographic = false; // the cluster so far is a pictograph followed by Extend characters only
  let before = -1;
  for (let i = 0; i < length; ) {
    const codePoint = text.codePointAt(i)!;
    const entry = table[codePoint]!;
    const after = entry & CLASS_MASK;
    const space = (entry & SPACE_FLAG) !== 0;
    const decision = before === -1 ? BREAK : decide(before, after, entry, context);
    if (decision === BREAK) {
      if (before !== -1) finish(i);
      clusterStart = i;
      unsure = false;
      allSpace = space;
    } else {
      if (decision === UNSURE) unsure = true;
      allSpace &&= space;
    }
    context.regionalRun = after === REGIONAL_INDICATOR ? (before === REGIONAL_INDICATOR ? context.regionalRun + 1 : 1) : 0;
    context.pictographThenJoiner = after === ZWJ && pictographic;
    pictographic = (entry & PICTOGRAPHIC_FLAG) !== 0 || (pictographic && after === EXTEND);
    before = after;
    i += codePoint > 0xffff ? 2 : 1;
  }
  finish(length);
  if (pending !== -1) flush(length);
}

/** The number of grapheme clusters, and how many of them are not all whitespace. */
export function countGraphemes(text: string, budget: SegmentBudget): { characters: number; charactersNoSpaces: number } {
  let characters = 0;
  let spaces = 0;
  forEachGrapheme(text, budget, (_start, _end, isSpace) => {
    characters++;
    if (isSpace) spaces++;
  });
  return { characters, charactersNoSpaces: characters - spaces };
}
