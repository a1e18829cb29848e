/**
 * The operation a mistyped name most likely meant (`base46/encode`, `Base64/Encode/`, `subnet/calc`),
 * for every door's "did you mean": names are `group/operation`, compared after folding case and
 * slashes. Bounded work: long names are not compared, and each comparison gives up past a few edits.
 */

/** Longer names are not compared: no known name is anywhere near that long. */
export const MAX_COMPARED_LENGTH = 120;
/** The most edits a name may be away from an operation's and still be named as its likely meaning. */
const MAX_EDITS = 3;

/** Levenshtein distance, giving up (returning `limit + 1`) once every entry of a row exceeds `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length]!;
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
