/**
 * "Did you mean": the known name nearest to a typo, for configuration problems (an unknown key,
 * a group pattern that matches nothing).
 */

/**
 * Edits from `pattern` to `text`: insertions, deletions, substitutions, and a swap of two
 * neighbours (`hots` → `host` is one edit); a `*` in `pattern` matches any run of characters at no
 * cost, so `hsh-*` is one edit from `hash-generator`.
 */
export function typoDistance(pattern: string, text: string): number {
  const rows: number[][] = [Array.from({ length: text.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= pattern.length; i++) {
    const star = pattern[i - 1] === '*';
    const row = [star ? rows[i - 1]![0]! : i];
    for (let j = 1; j <= text.length; j++) {
      const above = rows[i - 1]!;
      if (star) {
        row.push(Math.min(above[j]!, row[j - 1]!));
        continue;
      }
      let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (pattern[i - 1] === text[j - 1] ? 0 : 1));
      const swapped = i > 1 && j > 1 && pattern[i - 1] === text[j - 2] && pattern[i - 2] === text[j - 1] && pattern[i - 2] !== '*';
      if (swapped) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
    }
    rows.push(row);
  }
  return rows[pattern.length]![text.length]!;
}

/**
 * The candidate nearest to `word` (the first of equals), or undefined when there is none or, with
 * `maxEdits`, when even the nearest needs more edits than that.
 */
export function nearest(word: string, candidates: Iterable<string>, maxEdits = Infinity): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = typoDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= maxEdits ? best : undefined;
}

/** `; did you mean "<name>"?` for a key or group pattern a few edits from a known name, else nothing. */
export function didYouMean(key: string, known: Iterable<string>): string {
  // A third of the key's length, at least 1: `hots` → `host`, but `colour` and `no-such-group` suggest nothing.
  const match = nearest(key, known, Math.max(1, Math.floor(key.length / 3)));
  return match === undefined ? '' : `; did you mean "${match}"?`;
}
