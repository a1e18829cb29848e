/**
 * The operation a mistyped name most likely meant (`base46/encode`, `Base64/Encode/`, `subnet/calc`),
 * for every door's "did you mean": names are `group/operation`, compared after folding case and
 * slashes. Bounded work: long names are not compared, and each comparison gives up past a few edits.
 */

/** Longer names are not compared: no known name is anywhere near that long. */
export const MAX_COMPARED_LENGTH = 120;
/** The most edits a name may be away from an operation's and still be named as its likely meaning. */
const MAX_EDITS = 3;

/**
 * Levenshtein distance, giving up (returning `limit + 1`) once it must exceed `limit`. Only the
 * cells within `limit` of the diagonal are computed (any other is over the limit anyway), so a
 * comparison costs at most (2 × limit + 1) cells a character, whatever the strings.
 */
export function editDistance(a: string, b: string, limit: number): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  // Two rows, reused; a cell never written stands for "over the limit".
  let previous = new Array<number>(b.length + 1).fill(over);
  let row = new Array<number>(b.length + 1).fill(over);
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    // The cell left of the band: the first column (i deletions) or outside the band.
    row[from - 1] = from === 1 ? i : over;
    let best = row[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return over;
    [previous, row] = [row, previous];
  }
  return Math.min(previous[b.length]!, over);
}

/** Lower case, single slashes, none at either end. */
export function normaliseName(name: string): string {
  return name.toLowerCase().replace(/\/{2,}/g, '/').replace(/^\/|\/$/g, '');
}

/** The group a name names (its first segment, folded as {@link nearestOperation} folds it), if any. */
export function groupOfName(name: string): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const group = normaliseName(name).split('/', 1)[0];
  return group === '' ? undefined : group;
}

/**
 * The operation name in `known` (sorted) closest to `name`, or undefined when none is close: within
 * a few edits; else a known group's first operation; else a group named by its first words
 * (`subnet` for `subnet-calculator`) when only one group's name starts so.
 */
export function nearestOperation(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  const wanted = normaliseName(name);
  let best: string | undefined;
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate, MAX_EDITS);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  const [group, operation] = wanted.split('/');
  if (group === undefined || group === '') return undefined;
  const inGroup = known.find((candidate) => candidate.startsWith(`${group}/`));
  if (inGroup !== undefined) return inGroup;
  return shortGroupName(group, operation, known);
}

function shortGroupName(group: string, operation: string | undefined, known: readonly string[]): string | undefined {
  const candidates = known.filter((candidate) => candidate.startsWith(`${group}-`));
  const groups = new Set(candidates.map((candidate) => candidate.split('/')[0]));
  if (groups.size !== 1) return undefined;
  let best = candidates[0];
  let bestDistance = MAX_EDITS + 1;
  for (const candidate of operation === undefined ? [] : candidates) {
    const distance = editDistance(operation!, candidate.split('/')[1] ?? '', MAX_EDITS);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
