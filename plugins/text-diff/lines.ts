/**
 * The line diff: rows in reading order, a removed line followed by an added one paired into a
 * `mod` row with word-level parts on both sides.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { align, type WorkBudget } from './align.js';
import { compareTokens, sideParts, type DiffPart, type PartBudget } from './parts.js';
import { countLines, splitLines, textKey, words, type CompareOptions } from './tokens.js';

/** One side of a row: its 1-based line number on that side, the line, and for `mod` rows its parts. */
export interface DiffSide {
  no: number;
  text: string;
  parts?: DiffPart[];
}

/** One row of the line diff. */
export interface DiffRow {
  type: 'same' | 'mod' | 'del' | 'add';
  left?: DiffSide;
  right?: DiffSide;
}

/** The answer of /lines. */
export interface LineDiff {
  identical: boolean;
  added: number;
  removed: number;
  rows: DiffRow[];
}

/** Most rows one response carries; past it the answer is 422 output_too_large. */
export const MAX_ROWS = 100_000;

function tooManyRows(limit: number): UnprocessableError {
  return new UnprocessableError('output_too_large', `The diff has more than ${limit} rows`);
}

/**
 * Compares two texts line by line. Lines are equal when their keys are (see textKey); `identical`
 * means every row is `same`. Within a block of changes between two kept lines, the n-th removed
 * line pairs with the n-th added line; the rest stay `del` or `add` rows after the pairs.
 */
export function diffLines(
  original: string,
  changed: string,
  options: CompareOptions,
  workBudget: WorkBudget,
  budget: PartBudget,
  maxRows: number = MAX_ROWS,
): LineDiff {
  // Every line of the longer side becomes a row: refuse before doing any work.
  if (countLines(original) > maxRows || countLines(changed) > maxRows) throw tooManyRows(maxRows);
  const left = splitLines(original);
  const right = splitLines(changed);
  const runs = align(left.map((line) => textKey(line, options)), right.map((line) => textKey(line, options)), workBudget);
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  let l = 0;
  let r = 0;
  let removedLines: number[] = [];
  let addedLines: number[] = [];
  const push = (row: DiffRow): void => {
    if (rows.length === maxRows) throw tooManyRows(maxRows);
    rows.push(row);
  };
  const flush = (): void => {
    const pairs = Math.min(removedLines.length, addedLines.length);
    for (let i = 0; i < pairs; i++) {
      const li = removedLines[i]!;
      const ri = addedLines[i]!;
      const comparison = compareTokens(left[li]!, right[ri]!, words, options, workBudget);
      push({
        type: 'mod',
        left: { no: li + 1, text: left[li]!, parts: sideParts(comparison, 'left', budget) },
        right: { no: ri + 1, text: right[ri]!, parts: sideParts(comparison, 'right', budget) },
      });
    }
    for (const li of removedLines.slice(pairs)) push({ type: 'del', left: { no: li + 1, text: left[li]! } });
    for (const ri of addedLines.slice(pairs)) push({ type: 'add', right: { no: ri + 1, text: right[ri]! } });
    removed += removedLines.length;
    added += addedLines.length;
    removedLines = [];
    addedLines = [];
  };
  for (const run of runs) {
    if (run.kind === 'same') {
      flush();
      for (let k = 0; k < run.count; k++, l++, r++) {
        push({ type: 'same', left: { no: l + 1, text: left[l]! }, right: { no: r + 1, text: right[r]! } });
      }
    } else if (run.kind === 'del') {
      for (let k = 0; k < run.count; k++) removedLines.push(l++);
    } else {
      for (let k = 0; k < run.count; k++) addedLines.push(r++);
    }
  }
  flush();
  return { identical: added === 0 && removed === 0, added, removed, rows };
}
