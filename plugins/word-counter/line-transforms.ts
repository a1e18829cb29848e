/**
 * The line transforms: sorting, reversing, deduplicating, dropping blank lines, trimming and
 * collapsing spaces. The text comes with `\n` line endings only.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { isWhiteSpace } from './stats.js';
import { TextBuilder } from './text-builder.js';

/** Most distinct lines sortAsc and sortDesc sort: about a second of Intl.Collator comparisons. */
export const MAX_SORT_LINES = 200_000;

/** JavaScript's \s, the set String.prototype.trim removes (White_Space plus U+FEFF). */
function isTrimmed(c: number): boolean {
  return isWhiteSpace(c) || c === 0xfeff;
}

/** Applies `reorder` to the lines; a final line break stays final and is not a line of its own. */
export function reorderLines(text: string, reorder: (lines: string[]) => string[]): string {
  if (text === '') return '';
  const lines = text.split('\n');
  const trailing = lines.length > 1 && lines[lines.length - 1] === '';
  if (trailing) lines.pop();
  const result = reorder(lines);
  return result.length === 0 ? '' : result.join('\n') + (trailing ? '\n' : '');
}

/**
 * Sorts lines with Intl.Collator, stably (equal lines keep their order). The distinct lines are
 * sorted once and ranked; the lines are then placed by rank, so repeated lines cost nothing extra.
 */
export function sortLines(lines: string[], locale: string | undefined, descending: boolean): string[] {
  const ids = new Map<string, number>();
  const distinct: string[] = [];
  const idOf = new Int32Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    let id = ids.get(lines[i]!);
    if (id === undefined) {
      id = distinct.length;
      if (id === MAX_SORT_LINES) {
        throw new UnprocessableError('too_many_lines', `sortAsc and sortDesc sort at most ${MAX_SORT_LINES} different lines`);
      }
      ids.set(lines[i]!, id);
      distinct.push(lines[i]!);
    }
    idOf[i] = id;
  }
  const compare = new Intl.Collator(locale ?? 'en').compare;
  const order = Array.from(distinct.keys()).sort((a, b) => compare(distinct[a]!, distinct[b]!));
  // Lines the collator finds equal share a rank, so placing by rank keeps them in input order.
  const rank = new Int32Array(distinct.length);
  for (let k = 1; k < order.length; k++) {
    rank[order[k]!] = rank[order[k - 1]!]! + (compare(distinct[order[k - 1]!]!, distinct[order[k]!]!) === 0 ? 0 : 1);
  }
  const top = order.length === 0 ? 0 : rank[order[order.length - 1]!]!;
  const keyOf = (i: number): number => (descending ? top - rank[idOf[i]!]! : rank[idOf[i]!]!);
  const starts = new Int32Array(top + 2);
  for (let i = 0; i < lines.length; i++) starts[keyOf(i) + 1]++;
  for (let r = 1; r < starts.length; r++) starts[r] += starts[r - 1]!;
  const sorted = new Array<string>(lines.length);
  for (let i = 0; i < lines.length; i++) sorted[starts[keyOf(i)]++] = lines[i]!;
  return sorted;
}

export function isBlankLine(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isTrimmed(line.charCodeAt(i))) return false;
  return true;
}

/** Each line trimmed like String.prototype.trim. */
export function trimLines(text: string): string {
  const out = new TextBuilder(text.length);
  for (let lineStart = 0; lineStart <= text.length; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    let from = lineStart;
    let to = lineEnd;
    while (from < to && isTrimmed(text.charCodeAt(from))) from++;
    while (to > from && isTrimmed(text.charCodeAt(to - 1))) to--;
    out.append(text, from, to);
    if (lineEnd < text.length) out.unit(0x0a);
    lineStart = lineEnd + 1;
  }
  return out.toString();
}

/** Runs of spaces and tabs become one space. */
export function collapseSpaces(text: string): string {
  const out = new TextBuilder(text.length);
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const blank = c === 0x20 || c === 0x09;
    if (!blank) out.unit(c);
    else if (!inRun) out.unit(0x20);
    inRun = blank;
  }
  return out.toString();
}
