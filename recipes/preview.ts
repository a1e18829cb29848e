/** An answer cut to a few KB for identify's `preview`. */

/** Most characters of string content a preview keeps, all strings together. */
export const PREVIEW_CHARS = 4000;
const MAX_ITEMS = 20;
const MAX_DEPTH = 8;

function cut(value: unknown, depth: number, budget: { chars: number }): unknown {
  if (typeof value === 'string') {
    const keep = Math.max(0, Math.min(value.length, budget.chars));
    budget.chars -= keep;
    return keep < value.length ? `${value.slice(0, keep)}…` : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH || budget.chars <= 0) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => cut(item, depth + 1, budget));
  return Object.fromEntries(Object.entries(value).slice(0, MAX_ITEMS).map(([key, item]) => [key, cut(item, depth + 1, budget)]));
}

/**
 * `value` cut to a few KB: at most {@link PREVIEW_CHARS} characters of strings in all (a cut string
 * ends in "…"), 20 items per list or object, 8 levels deep.
 */
export function previewOf(value: unknown): unknown {
  return cut(value, 0, { chars: PREVIEW_CHARS });
}
