/**
 * The regex work itself, with JavaScript semantics. It runs inside a worker thread of the SDK pool (see worker.ts),
 * because an untrusted pattern can backtrack for hours; here it only has to be right and to stop
 * building output past its budget.
 */
import { substitute } from './substitution.js';

export interface RegexJob {
  readonly pattern: string;
  readonly flags: string;
  readonly text: string;
  readonly replacement?: string;
  readonly limit: number;
  /** Characters the answer may carry in all (match texts, groups, replaced). */
  readonly maxOutput: number;
}

export interface RegexMatch {
  index: number;
  end: number;
  text: string;
  groups: string[];
  named: Record<string, string>;
}

export interface RegexResult {
  matches: RegexMatch[];
  truncated: boolean;
  replaced?: string;
}

export type RegexOutcome =
  | { readonly ok: true; readonly result: RegexResult }
  | { readonly ok: false; readonly code: 'invalid_regex' | 'output_too_large' | 'regex_too_complex'; readonly message: string };

class OutputTooLarge extends Error {}

function compile(pattern: string, flags: string): RegExp | string {
  if (!/^[dgimsuyv]*$/.test(flags) || new Set(flags).size !== flags.length) {
    return 'flags may only hold d, g, i, m, s, u, v and y, each at most once';
  }
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    return reasonOf((error as Error).message);
  }
}

/**
 * The problem V8 names ("Nothing to repeat", "Unterminated group") without the pattern it quotes
 * (`Invalid regular expression: /<pattern>/<flags>: <reason>`): a 400 KB pattern must not come back
 * as a 400 KB error message.
 */
export function reasonOf(message: string): string {
  const prefix = 'Invalid regular expression: /';
  if (!message.startsWith(prefix)) return message;
  const separator = message.lastIndexOf(': ');
  return separator > prefix.length ? message.slice(separator + 2) : 'the pattern is not valid';
}

/** After an empty match, step past one character (a whole surrogate pair in Unicode mode). */
function stepPast(text: string, index: number, unicode: boolean): number {
  if (unicode && index + 1 < text.length) {
    const code = text.charCodeAt(index);
    const next = text.charCodeAt(index + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return index + 2;
  }
  return index + 1;
}

/** Calls `visit` for each match as `String.prototype.replace` would find them; `visit` returns false to stop. */
function eachMatch(regex: RegExp, text: string, visit: (match: RegExpExecArray) => boolean): void {
  regex.lastIndex = 0;
  if (!regex.global) {
    const match = regex.exec(text);
    if (match !== null) visit(match);
    return;
  }
  const unicode = regex.unicode || regex.flags.includes('v');
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (!visit(match)) return;
    if (match[0].length === 0) regex.lastIndex = stepPast(text, regex.lastIndex, unicode);
  }
}

/** Runs `job`; never throws for bad input (the outcome says what was wrong). */
export function runRegex(job: RegexJob): RegexOutcome {
  const regex = compile(job.pattern, job.flags);
  if (typeof regex === 'string') return { ok: false, code: 'invalid_regex', message: `Invalid regular expression: ${regex}` };
  let budget = job.maxOutput;
  const charge = (length: number): void => {
    budget -= length;
    if (budget < 0) throw new OutputTooLarge();
  };
  try {
    const matches: RegexMatch[] = [];
    let truncated = false;
    eachMatch(regex, job.text, (match) => {
      if (matches.length === job.limit) {
        truncated = true;
        return false;
      }
      const groups = match.slice(1).map((group) => group ?? '');
      const named = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, value ?? '']));
      charge(match[0].length + groups.reduce((sum, group) => sum + group.length, 0));
      matches.push({ index: match.index, end: match.index + match[0].length, text: match[0], groups, named });
      return true;
    });
    const result: RegexResult = { matches, truncated };
    if (job.replacement !== undefined) result.replaced = replaceAll(regex, job.text, job.replacement, charge);
    return { ok: true, result };
  } catch (error) {
    if (error instanceof OutputTooLarge) return { ok: false, code: 'output_too_large', message: `The result would exceed ${job.maxOutput} characters` };
    // V8 compiles a pattern when it first runs (and again for a two-byte text or a hotter tier), so
    // `new RegExp` accepts 32,768 "a"s and the first exec throws "Regular expression too large" (or,
    // case-insensitive, "Stack overflow").
    if (error instanceof SyntaxError) return { ok: false, code: 'invalid_regex', message: `Invalid regular expression: V8 cannot compile it (${reasonOf(error.message)})` };
    // V8's backtracking engine recurses per repetition of a group: `(a|b)+` over megabytes overflows its stack.
    if (error instanceof RangeError) return { ok: false, code: 'regex_too_complex', message: 'The pattern needs more backtracking stack than this text allows' };
    throw error;
  }
}

function replaceAll(regex: RegExp, text: string, template: string, charge: (length: number) => void): string {
  let output = '';
  let copied = 0;
  eachMatch(regex, text, (match) => {
    const piece = text.slice(copied, match.index) + substitute(template, text, {
      matched: match[0],
      position: match.index,
      captures: match.slice(1),
      named: match.groups,
    });
    charge(piece.length);
    output += piece;
    copied = match.index + match[0].length;
    return true;
  });
  charge(text.length - copied);
  return output + text.slice(copied);
}
