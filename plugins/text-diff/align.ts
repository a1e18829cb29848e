/**
 * Aligns two key sequences with the `diff` package's Myers implementation (diffArrays), under a
 * time budget: the algorithm is O((N+M)·D), so two large, very different inputs would otherwise
 * hold the event loop for minutes.
 */
import { diffArrays } from 'diff';
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** Milliseconds all diffs of one request may take together. */
export const DIFF_BUDGET_MS = 800;

/** A run of the alignment: `count` keys kept, removed from the left, or added on the right. */
export interface Run {
  readonly kind: 'same' | 'del' | 'add';
  readonly count: number;
}

/** The clock of one request: every diff it runs shares the same budget. */
export class Deadline {
  private readonly end: number;

  constructor(budgetMs: number = DIFF_BUDGET_MS, private readonly clock: () => number = Date.now) {
    this.end = clock() + budgetMs;
  }

  /** Milliseconds left; throws diff_too_complex when none are. */
  remaining(): number {
    const left = this.end - this.clock();
    if (left <= 0) throw tooComplex();
    return left;
  }
}

function tooComplex(): UnprocessableError {
  return new UnprocessableError('diff_too_complex', `The texts differ too much to compare within ${DIFF_BUDGET_MS} ms`);
}

/**
 * Most keys (both sides) for which keys found on one side only are set aside first. The sets cost
 * about a third of a microsecond per key: worth it for lines and words, not for 10 million code
 * points, where the timeout handles the worst case anyway.
 */
export const MAX_FILTERED_KEYS = 2_500_000;

/** Appends a run, merging it into the previous run of the same kind. */
function pushRun(runs: Run[], kind: Run['kind'], count: number): void {
  if (count === 0) return;
  const last = runs[runs.length - 1];
  if (last !== undefined && last.kind === kind) runs[runs.length - 1] = { kind, count: last.count + count };
  else runs.push({ kind, count });
}

/** Indices of `keys` whose key also occurs in `other`. */
function keptIndices(keys: readonly string[], other: ReadonlySet<string>): number[] {
  const kept: number[] = [];
  for (let i = 0; i < keys.length; i++) if (other.has(keys[i]!)) kept.push(i);
  return kept;
}

/**
 * The alignment of `left` and `right` as runs; between two kept runs, the removed keys always
 * come before the added ones. Before the Myers diff (diffArrays) runs, three cheap steps shrink
 * its input: the common prefix and suffix are kept as they are, and keys that occur on one side
 * only are set aside (they can be in no common subsequence, so the diff stays minimal). Two
 * texts with no line in common therefore cost nothing, instead of the quadratic worst case.
 * Past {@link MAX_FILTERED_KEYS} the last step is skipped.
 */
export function align(left: string[], right: string[], deadline: Deadline): Run[] {
  let prefix = 0;
  const shorter = Math.min(left.length, right.length);
  while (prefix < shorter && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && left[left.length - 1 - suffix] === right[right.length - 1 - suffix]) suffix++;
  const middleLeft = left.slice(prefix, left.length - suffix);
  const middleRight = right.slice(prefix, right.length - suffix);
  const runs: Run[] = [];
  pushRun(runs, 'same', prefix);
  // Without the filter, the kept indices are all of them: undefined stands for that.
  const filter = middleLeft.length + middleRight.length <= MAX_FILTERED_KEYS;
  const leftKept = filter ? keptIndices(middleLeft, new Set(middleRight)) : undefined;
  const rightKept = filter ? keptIndices(middleRight, new Set(middleLeft)) : undefined;
  const leftKeys = leftKept === undefined ? middleLeft : leftKept.map((i) => middleLeft[i]!);
  const rightKeys = rightKept === undefined ? middleRight : rightKept.map((i) => middleRight[i]!);
  // Walk the matched pairs in order; everything between two of them is removed, then added.
  let nextLeft = 0;
  let nextRight = 0;
  const match = (l: number, r: number): void => {
    pushRun(runs, 'del', l - nextLeft);
    pushRun(runs, 'add', r - nextRight);
    pushRun(runs, 'same', 1);
    nextLeft = l + 1;
    nextRight = r + 1;
  };
  if (leftKeys.length > 0 && rightKeys.length > 0) {
    const changes = diffArrays(leftKeys, rightKeys, { timeout: deadline.remaining() });
    if (changes === undefined) throw tooComplex();
    let l = 0;
    let r = 0;
    for (const change of changes) {
      if (change.added) r += change.count;
      else if (change.removed) l += change.count;
      else {
        for (let k = 0; k < change.count; k++, l++, r++) match(leftKept === undefined ? l : leftKept[l]!, rightKept === undefined ? r : rightKept[r]!);
      }
    }
  }
  pushRun(runs, 'del', middleLeft.length - nextLeft);
  pushRun(runs, 'add', middleRight.length - nextRight);
  pushRun(runs, 'same', suffix);
  return runs;
}
