/**
 * Token-level comparison and its two renderings: one merged sequence of parts (/inline), or the
 * parts of each side separately (the two sides of a `mod` row in /lines). Parts are written as
 * slices of the texts, so long unchanged stretches cost one slice, not one push per token.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { align, type WorkBudget, type Run } from './align.js';
import { CHAR_FLOOR_FROM_UNITS, refuseHopelessCharDiff } from './char-floor.js';
import { chars, foldCase, isWhitespace, type CompareOptions, type Tokenizer } from './tokens.js';

/** One piece of a diff: kept, only in the original, or only in the changed text. */
export interface DiffPart {
  type: 'same' | 'del' | 'add';
  value: string;
}

/** Most parts one response carries; past it the answer is 422 output_too_large. */
export const MAX_PARTS = 500_000;

/** Counts the parts of one response against {@link MAX_PARTS}. */
export class PartBudget {
  private used = 0;

  constructor(private readonly limit: number = MAX_PARTS) {}

  /** Takes one more part; throws output_too_large past the limit. */
  take(): void {
    if (++this.used > this.limit) throw new UnprocessableError('output_too_large', `The diff has more than ${this.limit} parts`);
  }
}

/** One side of a comparison: its text, tokens, where each token starts, and which tokens are compared. */
export interface Side {
  readonly text: string;
  readonly tokens: string[];
  /** starts[i] is where token i begins; starts[tokens.length] is the text's length. */
  readonly starts: Int32Array;
  /** Indices of the compared tokens, or undefined when all are (no ignoreWhitespace). */
  readonly compared: Int32Array | undefined;
}

/** The alignment of two sides over their compared tokens. */
export interface TokenComparison {
  readonly left: Side;
  readonly right: Side;
  readonly runs: readonly Run[];
}

function sideOf(text: string, tokenizer: Tokenizer, options: CompareOptions): Side {
  const tokens = tokenizer.tokens(text);
  const starts = new Int32Array(tokens.length + 1);
  let offset = 0;
  for (let i = 0; i < tokens.length; i++) {
    starts[i] = offset;
    offset += tokens[i]!.length;
  }
  starts[tokens.length] = offset;
  let compared: Int32Array | undefined;
  if (options.ignoreWhitespace) {
    const all = new Int32Array(tokens.length);
    let count = 0;
    for (let i = 0; i < tokens.length; i++) if (!isWhitespace(tokens[i]!)) all[count++] = i;
    compared = all.subarray(0, count);
  }
  return { text, tokens, starts, compared };
}

function keysOf(side: Side, options: CompareOptions): string[] {
  if (side.compared === undefined && !options.ignoreCase) return side.tokens;
  const indices = side.compared ?? Int32Array.from(side.tokens.keys());
  const keys = new Array<string>(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const token = side.tokens[indices[i]!]!;
    keys[i] = options.ignoreCase ? foldCase(token) : token;
  }
  return keys;
}

/** Tokenises and aligns two texts; whitespace tokens sit out under ignoreWhitespace, case is folded under ignoreCase. */
export function compareTokens(
  original: string,
  changed: string,
  tokenizer: Tokenizer,
  options: CompareOptions,
  workBudget: WorkBudget,
): TokenComparison {
  // Below this size the tokens cost less than the floor's tables: align() finds out itself.
  if (tokenizer === chars && original.length + changed.length > CHAR_FLOOR_FROM_UNITS) refuseHopelessCharDiff(original, changed, options, workBudget);
  const left = sideOf(original, tokenizer, options);
  const right = sideOf(changed, tokenizer, options);
  return { left, right, runs: align(keysOf(left, options), keysOf(right, options), workBudget) };
}

/** Collects parts from slices of the texts, merging neighbours of one type. */
export class PartWriter {
  private readonly parts: DiffPart[] = [];
  private type: DiffPart['type'] | undefined;
  private chunks: string[] = [];
  private text = '';
  private from = 0;
  private to = 0;

  constructor(private readonly budget: PartBudget) {}

  /** Appends text.slice(from, to) as `type`. */
  write(type: DiffPart['type'], text: string, from: number, to: number): void {
    if (from >= to) return;
    if (type !== this.type) {
      this.flush();
      this.type = type;
    } else if (text === this.text && from === this.to) {
      this.to = to;
      return;
    } else {
      this.cut();
    }
    this.text = text;
    this.from = from;
    this.to = to;
  }

  /** The parts written so far. */
  finish(): DiffPart[] {
    this.flush();
    return this.parts;
  }

  private cut(): void {
    if (this.to > this.from) this.chunks.push(this.text.slice(this.from, this.to));
    this.from = this.to = 0;
  }

  private flush(): void {
    this.cut();
    if (this.type !== undefined && this.chunks.length > 0) {
      this.budget.take();
      this.parts.push({ type: this.type, value: this.chunks.join('') });
    }
    this.chunks = [];
  }
}

/** The token index of the k-th compared token of a side. */
const at = (side: Side, k: number): number => (side.compared === undefined ? k : side.compared[k]!);

/**
 * Writes one sequence of parts in reading order. Kept tokens are written as the changed text
 * spells them (they differ from the original only in what is ignored). Whitespace that sits out
 * of the comparison is written as `same`: at a gap both sides share, the changed text's
 * whitespace; at a removal or addition, that side's own.
 */
export function writeInline(comparison: TokenComparison, writer: PartWriter): void {
  const { left, right, runs } = comparison;
  let l = 0;
  let r = 0;
  // Token indices up to which each side has been written.
  let leftAt = 0;
  let rightAt = 0;
  const gap = (side: Side, from: number, to: number): void => writer.write('same', side.text, side.starts[from]!, side.starts[to]!);
  for (const run of runs) {
    if (left.compared === undefined && right.compared === undefined) {
      // Nothing sits out: a run is one contiguous slice.
      if (run.kind === 'del') writer.write('del', left.text, left.starts[l]!, left.starts[(l += run.count)]!);
      else writer.write(run.kind, right.text, right.starts[r]!, right.starts[(r += run.count)]!);
      if (run.kind === 'same') l += run.count;
      continue;
    }
    for (let k = 0; k < run.count; k++) {
      if (run.kind === 'same') {
        const li = at(left, l++);
        const ri = at(right, r++);
        if (ri > rightAt) gap(right, rightAt, ri);
        else gap(left, leftAt, li);
        writer.write('same', right.text, right.starts[ri]!, right.starts[ri + 1]!);
        leftAt = li + 1;
        rightAt = ri + 1;
      } else if (run.kind === 'del') {
        const li = at(left, l++);
        gap(left, leftAt, li);
        writer.write('del', left.text, left.starts[li]!, left.starts[li + 1]!);
        leftAt = li + 1;
      } else {
        const ri = at(right, r++);
        gap(right, rightAt, ri);
        writer.write('add', right.text, right.starts[ri]!, right.starts[ri + 1]!);
        rightAt = ri + 1;
      }
    }
  }
  if (left.compared !== undefined || right.compared !== undefined) {
    if (right.tokens.length > rightAt) gap(right, rightAt, right.tokens.length);
    else gap(left, leftAt, left.tokens.length);
  }
}

/**
 * The parts of one side: its own tokens, each `same` or changed (`del` on the left, `add` on the
 * right). Whitespace that sits out of the comparison counts as `same`. The parts concatenate to
 * that side's text.
 */
export function sideParts(comparison: TokenComparison, which: 'left' | 'right', budget: PartBudget): DiffPart[] {
  const side = comparison[which];
  const own = which === 'left' ? 'del' : 'add';
  const writer = new PartWriter(budget);
  let k = 0;
  let written = 0;
  for (const run of comparison.runs) {
    if (run.kind !== 'same' && run.kind !== own) continue;
    for (let end = k + run.count; k < end; k++) {
      const index = at(side, k);
      writer.write('same', side.text, side.starts[written]!, side.starts[index]!);
      writer.write(run.kind === own ? own : 'same', side.text, side.starts[index]!, side.starts[index + 1]!);
      written = index + 1;
    }
  }
  writer.write('same', side.text, side.starts[written]!, side.starts[side.tokens.length]!);
  return writer.finish();
}
