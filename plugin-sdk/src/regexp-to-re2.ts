/**
 * JavaScript's regular expressions written in RE2's syntax, with JavaScript's meaning: regexpp
 * parses the pattern as JavaScript does, and each node is written out for RE2 (`\s` and `.` with
 * JavaScript's sets of characters, every other literal as its code point, `\p{…}` by RE2's names).
 * What RE2 has no form for is refused with the reason: backreferences, lookahead except at the very
 * start (`^(?=…)(?!…)…`, which becomes one more pattern that must, or must not, match there), the
 * `m` flag, modifier groups, the `v` flag's set operations.
 */
import { RegExpParser, type AST } from './regexp-libraries.js';

/** A pattern the linear engine cannot take; the message says why. */
export class PatternError extends Error {}

type Range = readonly [number, number];
const MAX_CODE_POINT = 0x10ffff;
/** JavaScript's `\s`: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9). */
const SPACE: readonly Range[] = [[0x9, 0xd], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
/** What `.` does not match without the `s` flag: JavaScript's line terminators. */
const LINE_TERMINATORS: readonly Range[] = [[0xa, 0xa], [0xd, 0xd], [0x2028, 0x2029]];
export const NOTHING = `[^\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]`;
export const ANYTHING = `[\\x{0}-\\x{${MAX_CODE_POINT.toString(16)}}]`;
/** General_Category's long names, which RE2 does not know, by its short ones. */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};

const isAlphanumeric = (code: number): boolean => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
/** A code point as RE2 reads it literally anywhere: itself when a letter or digit, else escaped. */
const hex = (codePoint: number): string => (isAlphanumeric(codePoint) ? String.fromCodePoint(codePoint) : `\\x{${codePoint.toString(16)}}`);
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
const rangesText = (ranges: readonly Range[]): string => ranges.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`)).join('');

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** Writes one parsed JavaScript pattern in RE2's syntax. */
class Writer {
  /** Whether a lookbehind was written (RE2JS takes them, captureless, under a flag). */
  lookbehind = false;

  constructor(private readonly dotAll: boolean) {}

  alternatives(alternatives: readonly AST.Alternative[]): string {
    return alternatives.map((alternative) => this.elements(alternative.elements)).join('|');
  }

  elements(elements: readonly AST.Element[]): string {
    let out = '';
    for (let index = 0; index < elements.length; index++) {
      const element = elements[index]!;
      const next = elements[index + 1];
      // Without the u flag JavaScript reads an emoji as two UTF-16 units; RE2 reads code points.
      if (element.type === 'Character' && next?.type === 'Character' && isHighSurrogate(element.value) && isLowSurrogate(next.value)) {
        out += hex((element.value - 0xd800) * 0x400 + (next.value - 0xdc00) + 0x10000);
        index++;
      } else out += this.element(element);
    }
    return out;
  }

  private element(node: AST.Element): string {
    switch (node.type) {
      case 'Character':
        return hex(node.value);
      case 'CharacterSet':
        return node.kind === 'any' ? (this.dotAll ? ANYTHING : `[^${rangesText(LINE_TERMINATORS)}]`) : `[${this.setInClass(node)}]`;
      case 'CharacterClass':
        return this.characterClass(node);
      case 'Group':
        if (node.modifiers !== null) throw new PatternError('uses a modifier group such as (?i:…)');
        return `(?:${this.alternatives(node.alternatives)})`;
      case 'CapturingGroup':
        return node.name === null ? `(${this.alternatives(node.alternatives)})` : `(?P<${node.name}>${this.alternatives(node.alternatives)})`;
      case 'Quantifier':
        return this.quantifier(node);
      case 'Assertion':
        return this.assertion(node);
      case 'Backreference':
        throw new PatternError(`uses a backreference (${node.raw}), which no linear-time engine can match`);
      case 'ExpressionCharacterClass':
        throw new PatternError('uses the v flag\'s set operations (&& or --)');
    }
  }

  private quantifier(node: AST.Quantifier): string {
    if (node.element.type === 'Assertion') throw new PatternError(`repeats an assertion (${node.raw})`);
    const { min, max } = node;
    const count = max === Infinity ? (min === 0 ? '*' : min === 1 ? '+' : `{${min},}`) : min === 0 && max === 1 ? '?' : min === max ? `{${min}}` : `{${min},${max}}`;
    return `${this.element(node.element)}${count}${node.greedy ? '' : '?'}`;
  }

  private assertion(node: AST.Assertion): string {
    switch (node.kind) {
      case 'start':
        return '^';
      case 'end':
        return '$';
      case 'word':
        return node.negate ? '\\B' : '\\b';
      case 'lookbehind':
        this.lookbehind = true;
        return `(?<${node.negate ? '!' : '='}${this.alternatives(node.alternatives)})`;
      case 'lookahead':
        // TypeBox writes (?!) for "no name matches": a lookahead with nothing in it.
        if (node.alternatives.every((alternative) => alternative.elements.length === 0)) return node.negate ? NOTHING : '';
        throw new PatternError(`uses a lookahead (${node.raw}) other than at the very start (^(?=…) or ^(?!…))`);
    }
  }

  private characterClass(node: AST.CharacterClass): string {
    const inside = node.elements.map((element) => this.classElement(element)).join('');
    if (inside === '') return node.negate ? ANYTHING : NOTHING;
    return `[${node.negate ? '^' : ''}${inside}]`;
  }

  private classElement(node: AST.CharacterClassElement): string {
    switch (node.type) {
      case 'Character':
        return hex(node.value);
      case 'CharacterClassRange':
        return `${hex(node.min.value)}-${hex(node.max.value)}`;
      case 'CharacterSet':
        return this.setInClass(node);
      default:
        throw new PatternError('uses the v flag\'s nested classes or strings');
    }
  }

  /** A `\d`, `\s`, `\w` or `\p{…}` (or its negation) as the inside of a character class. */
  private setInClass(node: AST.EscapeCharacterSet | AST.UnicodePropertyCharacterSet): string {
    if (node.kind === 'property') {
      if (node.strings) throw new PatternError(`uses a property of strings (${node.raw})`);
      // Two binary properties RE2 does not name: sets it has in other words.
      if (node.key === 'ASCII' && node.value === null) return rangesText(node.negate ? complement([[0, 0x7f]]) : [[0, 0x7f]]);
      if (node.key === 'Assigned' && node.value === null) return `\\${node.negate ? 'p' : 'P'}{Cn}`;
      return `\\${node.negate ? 'P' : 'p'}{${propertyName(node)}}`;
    }
    const ranges = node.kind === 'digit' ? DIGIT : node.kind === 'space' ? SPACE : WORD;
    return rangesText(node.negate ? complement(ranges) : ranges);
  }
}

/** RE2's name of a `\p{…}`: General_Category by its short name, Script by its long one, binary properties as named. */
function propertyName(node: AST.CharacterUnicodePropertyCharacterSet): string {
  const { key, value } = node;
  if (value === null) return key;
  if (key === 'General_Category' || key === 'gc') return CATEGORIES[value] ?? value;
  if (key === 'Script' || key === 'sc') return value;
  throw new PatternError(`uses ${node.raw}: RE2 has no ${key}`);
}

/**
 * A pattern in RE2's syntax: the main pattern, and the patterns that must and must not match at the
 * start of the text for it to match (a leading lookahead each).
 */
export interface Translation {
  readonly main: string;
  /** Whether the main pattern can match only at the start of the text (each alternative opens with `^`). */
  readonly anchored: boolean;
  readonly required: readonly string[];
  readonly refused: readonly string[];
  /** Whether a lookbehind was written (RE2JS takes them, captureless, under a flag). */
  readonly lookbehind: boolean;
}

const parser = new RegExpParser({ ecmaVersion: 2025 });

/** Whether any group in `alternatives` captures. */
function captures(alternatives: readonly AST.Alternative[]): boolean {
  return alternatives.some(({ elements }) =>
    elements.some((element) => {
      const inner = element.type === 'Quantifier' ? element.element : element;
      if (inner.type === 'CapturingGroup') return true;
      return (inner.type === 'Group' || (inner.type === 'Assertion' && (inner.kind === 'lookahead' || inner.kind === 'lookbehind'))) && captures(inner.alternatives);
    }),
  );
}

/** Whether every alternative opens with `^`, or with a group whose alternatives all do. */
function anchoredAtStart(alternatives: readonly AST.Alternative[]): boolean {
  return alternatives.every(({ elements: [first] }) => {
    if (first?.type === 'Assertion') return first.kind === 'start';
    return (first?.type === 'Group' || first?.type === 'CapturingGroup') && anchoredAtStart(first.alternatives);
  });
}

const isEmpty = (node: AST.LookaroundAssertion): boolean => node.alternatives.every((alternative) => alternative.elements.length === 0);

/** The lookaheads right after a leading `^`: each tests the text from its start. */
function leadingLookaheads(elements: readonly AST.Element[]): AST.LookaheadAssertion[] {
  const [first, ...rest] = elements;
  if (first?.type !== 'Assertion' || first.kind !== 'start') return [];
  const found: AST.LookaheadAssertion[] = [];
  for (const element of rest) {
    if (element.type !== 'Assertion' || element.kind !== 'lookahead' || isEmpty(element)) break;
    if (captures(element.alternatives)) throw new PatternError(`captures inside a lookahead (${element.raw}); use (?:…) there`);
    found.push(element);
  }
  return found;
}

/** `source` with `flags` (JavaScript's) in RE2's syntax; throws {@link PatternError} for what RE2 has no form for. */
export function translate(source: string, flags: string): Translation {
  if (flags.includes('m')) throw new PatternError('uses the m flag (RE2 ends lines at \\n only; match line starts with (?:^|\\n))');
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  } catch (error) {
    throw new PatternError(`is not a regular expression: ${(error as Error).message}`);
  }
  const writer = new Writer(flags.includes('s'));
  const anchored = anchoredAtStart(pattern.alternatives);
  const leading = pattern.alternatives.length === 1 ? leadingLookaheads(pattern.alternatives[0]!.elements) : [];
  if (leading.length === 0) {
    const main = writer.alternatives(pattern.alternatives);
    return { main, anchored, required: [], refused: [], lookbehind: writer.lookbehind };
  }
  // ^(?=A)(?!B)C holds where ^A matches, ^B does not and ^C does: each is a pattern of its own.
  const part = (lookahead: AST.LookaheadAssertion): string => `^(?:${writer.alternatives(lookahead.alternatives)})`;
  const required = leading.filter((lookahead) => !lookahead.negate).map(part);
  const refused = leading.filter((lookahead) => lookahead.negate).map(part);
  const main = `^${writer.elements(pattern.alternatives[0]!.elements.slice(1 + leading.length))}`;
  return { main, anchored, required, refused, lookbehind: writer.lookbehind };
}

/**
 * The alternatives of a pattern that is one capturing group of alternatives, `(^a$|^b$|x+)`, as the
 * literal names among them (`^…$` with only characters between) and the source of each other one;
 * undefined for a pattern of any other shape or not valid.
 */
export function nameList(source: string, flags: string): { names: string[]; patterns: string[] } | undefined {
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.includes('u'), unicodeSets: flags.includes('v') });
  } catch {
    return undefined;
  }
  const [only] = pattern.alternatives;
  const group = pattern.alternatives.length === 1 && only!.elements.length === 1 ? only!.elements[0] : undefined;
  if (group?.type !== 'CapturingGroup') return undefined;
  const names: string[] = [];
  const patterns: string[] = [];
  for (const { elements, raw } of group.alternatives) {
    const first = elements[0];
    const last = elements.at(-1);
    const middle = elements.slice(1, -1);
    const literal = elements.length >= 2 && first?.type === 'Assertion' && first.kind === 'start' && last?.type === 'Assertion' && last.kind === 'end' && middle.every((element) => element.type === 'Character');
    // A Character's value is a code point with the u flag and a UTF-16 unit without; fromCodePoint writes either.
    if (literal) names.push(middle.map((element) => String.fromCodePoint((element as AST.Character).value)).join(''));
    else patterns.push(raw);
  }
  return { names, patterns };
}

