/**
 * Aligns two key sequences with the `diff` package's Myers implementation (diffArrays) under a
 * budget of work, not of time: the algorithm costs about (N+M)·D for an edit distance D, so two
 * large, very different inputs would otherwise hold a thread for minutes. Counting work gives the
 * same answer for the same input on a quiet laptop and on a loaded CI machine.
 */
import { diffArrays } from 'diff';
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** Units of work ((N+M)·D plus D²) all diffs of one request may use together: about 0.5 s of CPU. */
export const DIFF_WORK_UNITS = 200_000_000;
/** The largest edit distance one diff may reach, whatever the budget left (D² dominates past it). */
export const MAX_EDIT_DISTANCE = 3000;
/** Last guard in wall time, should the work estimate ever be far off; never reached in tests. */
const GUARD_MS = 10_000;

/** A run of the alignment: `count` keys kept, removed from the left, or added on the right. */
export interface Run {
  readonly kind: 'same' | 'del' | 'add';
  readonly count: number;
}

/** The work allowance of one request: every diff it runs draws on it. */
export class WorkBudget {
  constructor(private left: number = DIFF_WORK_UNITS) {}

  /** The largest edit distance a diff of `size` keys (both sides) may reach; throws when none is left. */
  maxEdits(size: number): number {
    const edits = Math.min(MAX_EDIT_DISTANCE, Math.floor(this.left / Math.max(1, size)));
    if (edits <= 0) throw tooComplex();
    return edits;
  }

  /** Throws as {@link maxEdits} would, or when a diff of `size` keys needing at least `floor` edits could not reach them. */
  refuseUnreachable(size: number, floor: number): void {
    if (floor > this.maxEdits(size)) throw tooComplex();
  }

  /** Records a finished diff of `size` keys and edit distance `edits`. */
  charge(size: number, edits: number): void {
    this.left -= size * edits + edits * edits;
  }
}

function tooComplex(): UnprocessableError {
  return new UnprocessableError('diff_too_complex', 'The texts differ in too many places to compare within the work budget of one request');
}

/**
 * Most keys (both sides) for which keys found on one side only are set aside first. The sets cost
 * about a third of a microsecond per key: worth it for lines and words, not for 10 million code
 * points, where the work budget handles the worst case anyway.
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
export function align(left: string[], right: string[], budget: WorkBudget): Run[] {
  let prefix = 0;
  const shorter = Math.min(left.length, right.length);
  while (prefix < shorter && left[prefix] === right[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && left[left.length - 1 - suffix] === right[right.length - 1 - suffix]) suffix++;
  // Copied only when something was trimmed: for two different 5 MB lines by characters the copies
  // took the request's peak heap from 173 to 193 MB.
  const untrimmed = prefix === 0 && suffix === 0;
  const middleLeft = untrimmed ? left : left.slice(prefix, left.length - suffix);
  const middleRight = untrimmed ? right : right.slice(prefix, right.length - suffix);
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
    const size = leftKeys.length + rightKeys.length;
    const changes = diffArrays(leftKeys, rightKeys, { maxEditLength: budget.maxEdits(size), timeout: GUARD_MS });
    if (changes === undefined) throw tooComplex();
    budget.charge(size, changes.reduce((edits, change) => edits + (change.added || change.removed ? change.count : 0), 0));
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
