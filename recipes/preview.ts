/**
 * An answer cut to a few hundred bytes for identify's `preview`: enough to see what the recipe
 * gives (a decoded token's claims, a conversion's first lines), never a 6 KB base conversion.
 */

/** Most UTF-8 bytes of a preview's JSON text. */
export const PREVIEW_BYTES = 512;
const MAX_ITEMS = 20;
const MAX_DEPTH = 8;
const ELLIPSIS = '…';

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');

/** The longest start of `text` (ending in "…" when cut) whose JSON fits in `room` bytes, or undefined when none does. */
function cutString(text: string, room: number): string | undefined {
  if (jsonBytes(text) <= room) return text;
  // Binary search over lengths; a cut never splits a surrogate pair.
  let low = 0;
  let high = Math.min(text.length, room);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(`${text.slice(0, middle)}${ELLIPSIS}`) <= room) low = middle;
    else high = middle - 1;
  }
  const end = /[\uD800-\uDBFF]/.test(text.charAt(low - 1)) ? low - 1 : low;
  const cut = `${text.slice(0, end)}${ELLIPSIS}`;
  return jsonBytes(cut) <= room ? cut : undefined;
}

/** `value` cut to fit in `budget.bytes` of JSON; what does not fit is left out (undefined). */
function cut(value: unknown, depth: number, budget: { bytes: number }): unknown {
  if (typeof value === 'string') {
    const kept = cutString(value, budget.bytes);
    if (kept !== undefined) budget.bytes -= jsonBytes(kept);
    return kept;
  }
  if (typeof value !== 'object' || value === null) {
    const bytes = jsonBytes(value);
    if (bytes > budget.bytes) return undefined;
    budget.bytes -= bytes;
    return value;
  }
  // Brackets, then each entry costs its key and separators.
  if (budget.bytes < 2) return undefined;
  budget.bytes -= 2;
  const list = Array.isArray(value);
  const entries: [string, unknown][] = list ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  const kept: [string, unknown][] = [];
  if (depth < MAX_DEPTH) {
    for (const [key, item] of entries.slice(0, MAX_ITEMS)) {
      const overhead = (kept.length > 0 ? 1 : 0) + (list ? 0 : jsonBytes(key) + 1);
      if (budget.bytes <= overhead) break;
      budget.bytes -= overhead;
      const inner = cut(item, depth + 1, budget);
      if (inner === undefined) {
        budget.bytes += overhead;
        break;
      }
      kept.push([key, inner]);
    }
  }
  return list ? kept.map(([, item]) => item) : Object.fromEntries(kept);
}

/**
 * `value` cut to at most {@link PREVIEW_BYTES} bytes of JSON: strings shortened (ending in "…"),
 * at most 20 items per list or object, 8 levels deep; entries that do not fit are left out.
 */
export function previewOf(value: unknown): unknown {
  return cut(value, 0, { bytes: PREVIEW_BYTES }) ?? null;
}
