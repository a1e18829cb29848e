/** The inline diff: one sequence of parts over words or characters. */
import type { WorkBudget } from './align.js';
import { compareTokens, PartWriter, writeInline, type DiffPart, type PartBudget } from './parts.js';
import { chars, commonEnds, textKey, words, type CompareOptions } from './tokens.js';

/** The answer of /inline. */
export interface InlineDiff {
  identical: boolean;
  parts: DiffPart[];
}

/**
 * Compares two texts word by word (whitespace runs are tokens of their own) or code point by code
 * point. Texts whose keys are equal (see textKey) are identical and come back as one `same` part
 * holding the changed text, even where tokenising would have cut them differently (`ab` / `a b`).
 * The common beginning and end are cut off at token boundaries before tokenising the rest.
 */
export function diffInline(
  original: string,
  changed: string,
  granularity: 'words' | 'chars',
  options: CompareOptions,
  workBudget: WorkBudget,
  budget: PartBudget,
): InlineDiff {
  if (textKey(original, options) === textKey(changed, options)) {
    return { identical: true, parts: changed === '' ? [] : [{ type: 'same', value: changed }] };
  }
  const tokenizer = granularity === 'words' ? words : chars;
  const [prefix, suffix] = commonEnds(original, changed, tokenizer);
  const comparison = compareTokens(
    original.slice(prefix, original.length - suffix),
    changed.slice(prefix, changed.length - suffix),
    tokenizer,
    options,
    workBudget,
  );
  const writer = new PartWriter(budget);
  writer.write('same', changed, 0, prefix);
  writeInline(comparison, writer);
  writer.write('same', changed, changed.length - suffix, changed.length);
  return { identical: false, parts: writer.finish() };
}
