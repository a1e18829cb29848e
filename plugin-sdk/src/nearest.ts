/**
 * "Did you mean": the known name nearest to a typo, for the SDK's own messages (a misspelt schema
 * keyword, a body's unknown property). Not exported from the package: the host has its own for
 * paths, tool names and configuration patterns (kernel/nearest.ts), which also reads `*`.
 */

/** Longer words are not compared: no property or keyword is anywhere near that long, and a hostile key may be megabytes. */
const MAX_COMPARED_LENGTH = 120;

/**
 * Edits from `a` to `b`: insertions, deletions, substitutions, and a swap of two neighbours
 * (`hots` → `host` is one edit).
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to `word` (the first of equals), or undefined when there is none, when
 * `word` is too long to compare, or when even the nearest needs more than `maxEdits` edits.
 */
export function nearestName(word: string, candidates: Iterable<string>, maxEdits = Infinity): string | undefined {
  if (word.length > MAX_COMPARED_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= maxEdits ? best : undefined;
}

/** Edits a property name may be from the one meant and still be called a typo: a third of its length, at least 1 (`hots` → `host`, `colour` → nothing). */
export const typoEdits = (name: string): number => Math.max(1, Math.floor(name.length / 3));
