/**
 * Regular expressions that run in time linear in their input, whatever the pattern: every pattern a
 * manifest brings (schema `pattern`s and `patternProperties`, recognizers) is matched here, never
 * by JavaScript's backtracking engine, where `^(a+)+$` on 30 `a`s and a `!` takes seconds of the
 * thread. The pattern keeps JavaScript's syntax and meaning (regexp-to-re2.ts writes it in RE2's);
 * RE2JS, a JavaScript port of RE2, matches it. No native build, so it loads wherever Node runs.
 */
import { RE2JS } from './regexp-libraries.js';
import { ANYTHING, nameList, PatternError, translate, type Translation } from './regexp-to-re2.js';

export { PatternError };

/**
 * Most instructions of RE2's program one pattern may compile to (its leading lookaheads' included).
 * The automaton takes at most one step per instruction for each character of the text, so this
 * bounds the cost of a character whatever the pattern: 500 steps of 20–40 ns, at most ~50 ms for
 * identify's 4,096 characters. Linear alone would not do: `a[\s\S]{1000}[ac]b[ac]` sixteen times
 * over compiles to 16,000 and takes seconds on the same text. The built-ins' largest is ~420 (word-counter's prose recognizer).
 */
export const MAX_PROGRAM_SIZE = 500;

/** What a match needs of a pattern: `RegExp`'s `test` and `exec`, without state between calls. */
export interface PatternMatcher {
  test(text: string): boolean;
  exec(text: string): RegExpExecArray | null;
}

function compileRe2(source: string, flags: string, lookbehind: boolean): RE2JS {
  try {
    return RE2JS.compile(flags.includes('i') ? `(?i)${source}` : source, lookbehind ? RE2JS.LOOKBEHINDS : 0);
  } catch (error) {
    throw new PatternError(`is refused by RE2 (${(error as Error).message.replace(/^error parsing regexp: /, '')})`);
  }
}

/**
 * One RE2 pattern, tested for a match anywhere. One that can match only at the start is tested as
 * `^(?:…)` followed by anything, over the whole text: RE2JS's search would go on reading a text
 * that cannot match any more, to its end, where a whole-text test stops at once.
 */
class Search {
  readonly #program: RE2JS;
  readonly #anchored: boolean;

  constructor(source: string, flags: string, anchored: boolean, lookbehind: boolean) {
    this.#anchored = anchored;
    this.#program = compileRe2(anchored ? `(?:${source})${ANYTHING}*` : source, flags, lookbehind);
  }

  /** Instructions of its program: the most steps one character of a text can cost. */
  get size(): number {
    return this.#program.programSize();
  }

  test(input: string): boolean {
    return this.#anchored ? this.#program.testExact(input) : this.#program.test(input);
  }
}

/** A translated pattern, compiled: its tests, and (made on first use) the program that reports a match. */
class Program {
  readonly #main: Search;
  readonly #required: readonly Search[];
  readonly #refused: readonly Search[];
  #matcher: RE2JS | undefined;

  constructor(
    private readonly translation: Translation,
    private readonly flags: string,
  ) {
    const { main, anchored, required, refused, lookbehind } = translation;
    this.#main = new Search(main, flags, anchored, lookbehind);
    this.#required = required.map((part) => new Search(part, flags, true, lookbehind));
    this.#refused = refused.map((part) => new Search(part, flags, true, lookbehind));
    const size = [this.#main, ...this.#required, ...this.#refused].reduce((sum, search) => sum + search.size, 0);
    if (size > MAX_PROGRAM_SIZE) {
      throw new PatternError(`compiles to ${size} instructions of RE2's program, more than ${MAX_PROGRAM_SIZE}, and each character of a text may cost a step of each (bound its counted repetitions, or split it)`);
    }
  }

  /** Whether the leading lookaheads hold. */
  #startHolds(input: string): boolean {
    return this.#required.every((part) => part.test(input)) && !this.#refused.some((part) => part.test(input));
  }

  test(input: string): boolean {
    return this.#startHolds(input) && this.#main.test(input);
  }

  exec(input: string): RegExpExecArray | null {
    if (!this.#startHolds(input)) return null;
    this.#matcher ??= compileRe2(this.translation.main, this.flags, this.translation.lookbehind);
    // RE2JS answers an array shaped as RegExp's: the match, its groups, index, input and groups.
    return this.#matcher.exec(input) as RegExpExecArray | null;
  }
}

/** Patterns compiled before, by flags and source: TypeBox builds the same ones again for each error list. */
const programs = new Map<string, Program>();
const MAX_PROGRAMS = 4096;

function compile(source: string, flags: string): Program {
  const key = `${flags}/${source}`;
  let program = programs.get(key);
  if (program === undefined) {
    program = new Program(translate(source, flags), flags);
    if (programs.size >= MAX_PROGRAMS) programs.clear();
    programs.set(key, program);
  }
  return program;
}

/**
 * A JavaScript regular expression matched by RE2 in linear time. Built like a RegExp (a source
 * and flags, or a RegExp); throws {@link PatternError} for a pattern RE2 cannot take. Stateless:
 * `g` and `y` change nothing, `d` is ignored.
 */
export class LinearRegExp implements PatternMatcher {
  readonly source: string;
  readonly flags: string;
  readonly #program: Program;

  constructor(pattern: string | RegExp, flags?: string) {
    const isRegExp = Object.prototype.toString.call(pattern) === '[object RegExp]';
    this.source = isRegExp ? (pattern as RegExp).source : String(pattern);
    this.flags = flags ?? (isRegExp ? (pattern as RegExp).flags : '');
    this.#program = compile(this.source, this.flags);
  }

  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean {
    return this.#program.test(String(text));
  }

  /** The first match, as RegExp's exec answers it (`index`, `input`, `groups`), or null. */
  exec(text: string): RegExpExecArray | null {
    return this.#program.exec(String(text));
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

/** Why the linear engine cannot take `source` with `flags`, or undefined when it can. */
export function linearPatternProblem(source: string, flags = 'u'): string | undefined {
  try {
    compile(source, flags);
    return undefined;
  } catch (error) {
    if (error instanceof PatternError) return error.message;
    throw error;
  }
}

/**
 * A list of names and patterns, `(^a$|^b$|x+)`, tested as its alternatives one by one: the literal
 * names (`^…$`) looked up in a set, each other alternative a {@link LinearRegExp} of its own, where
 * a leading lookahead is at the start and taken. TypeBox tests every key of an object against such
 * a list (its properties and patternProperties) when the object refuses other keys; for a `test`,
 * the list matches exactly where one alternative does.
 */
class NameList {
  constructor(
    readonly source: string,
    readonly flags: string,
    private readonly names: ReadonlySet<string>,
    private readonly patterns: readonly LinearRegExp[],
  ) {}

  test(text: string): boolean {
    const key = String(text);
    return this.names.has(key) || this.patterns.some((pattern) => pattern.test(key));
  }
}

const nameLists = new Map<string, NameList>();

/** What `new RegExp(source, flags)` builds while the name is lent: a {@link NameList} for a list, else a {@link LinearRegExp}. */
function LentRegExp(source: string, flags = ''): LinearRegExp | NameList {
  const key = `${flags}/${source}`;
  let list = nameLists.get(key);
  if (list === undefined) {
    const parts = flags.includes('i') ? undefined : nameList(source, flags);
    if (parts === undefined) return new LinearRegExp(source, flags);
    list = new NameList(source, flags, new Set(parts.names), parts.patterns.map((pattern) => new LinearRegExp(pattern, flags)));
    if (nameLists.size >= MAX_PROGRAMS) nameLists.clear();
    nameLists.set(key, list);
  }
  return list;
}

/**
 * Runs `run` (synchronous) with the global `RegExp` standing for {@link LinearRegExp}. TypeBox
 * builds the regular expressions of `pattern`, `patternProperties` and its own list of known
 * property names with `new RegExp(source, 'u')` when it compiles a schema and when it lists a
 * value's errors, and offers no way to choose the engine; lent the name for the length of the
 * call, it builds linear ones. Regular-expression literals are not built through the name and
 * keep theirs. Nested calls restore what they found.
 */
export function withLinearRegExp<T>(run: () => T): T {
  const found = globalThis.RegExp;
  globalThis.RegExp = LentRegExp as unknown as RegExpConstructor;
  try {
    return run();
  } finally {
    globalThis.RegExp = found;
  }
}
