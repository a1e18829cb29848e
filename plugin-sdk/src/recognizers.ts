/**
 * The manifest fields recipes and identify read: an operation's main input and output fields, and
 * how to recognise input it takes. Both are plain data, because a third-party plugin's manifest
 * reaches the service's main thread as a structured clone while its code stays in its workers.
 */
import { linearPatternProblem } from './linear-regexp.js';

/**
 * The operation's main fields: what a recipe step receives when nothing else is wired in, and what
 * it hands the next step (base64/decode: `{ input: 'base64', output: 'text' }`).
 */
export interface OperationIo {
  /** A top-level property of the body schema: the field a recipe fills with the previous value. */
  readonly input?: string;
  /** A top-level property of the response schema: the value a recipe hands the next step. */
  readonly output?: string;
}

/**
 * How to recognise input the operation takes, for identify. The pattern is a first sieve; a
 * candidate counts only when the operation, run on the input, accepts it (and its answer matches
 * `answer`): the operation is the judge of its own input, the pattern only saves runs.
 */
export interface Recognizer {
  /** What the input is, kebab-case (`jwt`, `base64url`, `unix-timestamp`). */
  readonly kind: string;
  /** The same for people (`JSON Web Token`). */
  readonly title: string;
  /**
   * Tested against the input with surrounding whitespace removed, cut to its first
   * {@link RECOGNIZER_SAMPLE_CHARS} characters: a pattern for kinds that can be longer than that must
   * not end with `$`. A RegExp or its source; no `g` or `y` flag (they keep state between tests).
   */
  readonly pattern: RegExp | string;
  /** How sure a match (confirmed by running) makes identify, above 0 and at most 1. */
  readonly confidence: number;
  /**
   * The body field identify fills with the input; default `io.input`. regex-tester/test hands on
   * its `text` in a recipe, but a pattern is what identify recognises.
   */
  readonly field?: string;
  /** Fields sent beside the input when identify runs the operation (`{ from: 'csv', to: 'json' }`). */
  readonly body?: Readonly<Record<string, unknown>>;
  /**
   * Top-level fields of the operation's answer, each with a pattern its value must match (a string
   * as it is, any other value as its JSON): the candidate counts only then. One run answers every
   * recognizer of the same operation and body, so data-converter's `from: 'auto'` can tell CSV from
   * YAML by its answer's `from` (`{ from: '^csv$' }`).
   */
  readonly answer?: Readonly<Record<string, RegExp | string>>;
  /**
   * Body fields made from the pattern's match instead of the whole input, for input the operation
   * takes in another shape (`/a+/i` as `{ pattern: 'a+', flags: 'i' }`, a bare IPv4 address as
   * `a.b.c.d/32`). Every string inside is a template: `$&` is the match, `$<name>` a named group,
   * `$$` a dollar sign. The recipe carries the made values. Applies to input that fits in
   * {@link RECOGNIZER_SAMPLE_CHARS} characters, as the match must cover it whole.
   */
  readonly fill?: Readonly<Record<string, unknown>>;
}

/** How much of an input a recognizer's pattern sees: bounded, so a 1 MiB input costs no more than a short one. */
export const RECOGNIZER_SAMPLE_CHARS = 4096;
/** Most recognizers one operation may declare. */
export const MAX_RECOGNIZERS = 16;
/**
 * Most recognizers one plugin may declare over all its operations: identify tests each of them on
 * the main thread for every request, so a plugin's share of that is bounded whatever its size.
 */
export const MAX_PLUGIN_RECOGNIZERS = 64;
const MAX_PATTERN_LENGTH = 2000;
const kebabCase = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The top-level property names of an object schema, or undefined when it is not one. */
function propertiesOf(schema: unknown): readonly string[] | undefined {
  return isRecord(schema) && isRecord(schema.properties) ? Object.keys(schema.properties) : undefined;
}

function patternProblems(where: string, pattern: unknown): string[] {
  let source: string;
  let flags = 'u';
  if (pattern instanceof RegExp || Object.prototype.toString.call(pattern) === '[object RegExp]') {
    ({ source, flags } = pattern as RegExp);
    if (/[gy]/.test(flags)) return [`${where}: pattern must not use the g or y flag`];
    if (source.length > MAX_PATTERN_LENGTH) return [`${where}: pattern is longer than ${MAX_PATTERN_LENGTH} characters`];
  } else {
    if (typeof pattern !== 'string' || pattern === '') return [`${where}: pattern must be a RegExp or its source`];
    if (pattern.length > MAX_PATTERN_LENGTH) return [`${where}: pattern is longer than ${MAX_PATTERN_LENGTH} characters`];
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      return [`${where}: pattern does not compile: ${(error as Error).message}`];
    }
    source = pattern;
  }
  // Identify tests it with the linear engine, never JavaScript's (linear-regexp.ts).
  const linear = linearPatternProblem(source, flags);
  return linear === undefined ? [] : [`${where}: pattern cannot be matched in linear time: it ${linear}`];
}

/** Problems of `answer`: an object of response fields, each with a pattern. */
function answerProblems(where: string, answer: unknown, responseFields: readonly string[]): string[] {
  if (!isRecord(answer)) return [`${where}: answer must be an object of response fields and patterns`];
  return Object.entries(answer).flatMap(([key, pattern]) => [
    ...(responseFields.includes(key) ? [] : [`${where}: answer field "${key}" is not a property of the response schema`]),
    ...patternProblems(`${where}: answer.${key}`, pattern),
  ]);
}

function recognizerProblems(where: string, recognizer: unknown, bodyFields: readonly string[], mainInput: string, responseFields: readonly string[]): string[] {
  if (!isRecord(recognizer)) return [`${where} is not an object`];
  const problems: string[] = [];
  let input = mainInput;
  if (recognizer.field !== undefined) {
    if (typeof recognizer.field !== 'string' || !bodyFields.includes(recognizer.field)) problems.push(`${where}: field ${JSON.stringify(recognizer.field)} is not a property of the body schema`);
    else input = recognizer.field;
  }
  if (typeof recognizer.kind !== 'string' || !kebabCase.test(recognizer.kind)) problems.push(`${where}: kind must be a kebab-case name`);
  if (typeof recognizer.title !== 'string' || recognizer.title.trim() === '' || recognizer.title.length > 80) {
    problems.push(`${where}: title must be a name of 1 to 80 characters`);
  }
  const confidence = recognizer.confidence;
  if (typeof confidence !== 'number' || !Number.isFinite(confidence) || confidence <= 0 || confidence > 1) {
    problems.push(`${where}: confidence must be a number above 0 and at most 1`);
  }
  problems.push(...patternProblems(where, recognizer.pattern));
  if (recognizer.body !== undefined) {
    if (!isRecord(recognizer.body)) problems.push(`${where}: body must be an object of body fields`);
    else {
      for (const key of Object.keys(recognizer.body)) {
        if (key === input) problems.push(`${where}: body must not set the field "${key}" the input goes to`);
        else if (!bodyFields.includes(key)) problems.push(`${where}: body field "${key}" is not a property of the body schema`);
      }
    }
  }
  if (recognizer.answer !== undefined) problems.push(...answerProblems(where, recognizer.answer, responseFields));
  if (recognizer.fill !== undefined) {
    if (!isRecord(recognizer.fill)) problems.push(`${where}: fill must be an object of body fields`);
    else {
      for (const key of Object.keys(recognizer.fill)) {
        if (!bodyFields.includes(key)) problems.push(`${where}: fill field "${key}" is not a property of the body schema`);
        else if (isRecord(recognizer.body) && key in recognizer.body) problems.push(`${where}: fill and body both set "${key}"`);
      }
    }
  }
  const known = new Set(['kind', 'title', 'pattern', 'confidence', 'field', 'body', 'answer', 'fill']);
  for (const key of Object.keys(recognizer)) if (!known.has(key)) problems.push(`${where}: unknown field "${key}"`);
  return problems;
}

/**
 * Every way an operation's `io` and `recognizers` are wrong: a main field that is not a top-level
 * property of its schema, a recognizer without a main input to feed, a bad confidence or pattern.
 */
export function recognitionProblems(where: string, operation: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const { io, recognizers } = operation;
  let input: string | undefined;
  if (io !== undefined) {
    if (!isRecord(io)) return [`${where}: io must be an object { input, output }`];
    for (const key of Object.keys(io)) if (key !== 'input' && key !== 'output') problems.push(`${where}: io has an unknown field "${key}"`);
    if (io.input !== undefined) {
      const fields = propertiesOf(operation.body);
      if (typeof io.input !== 'string' || !(fields ?? []).includes(io.input)) problems.push(`${where}: io.input ${JSON.stringify(io.input)} is not a property of the body schema`);
      else input = io.input;
    }
    if (io.output !== undefined) {
      const fields = propertiesOf(operation.response);
      if (typeof io.output !== 'string' || !(fields ?? []).includes(io.output)) problems.push(`${where}: io.output ${JSON.stringify(io.output)} is not a property of the response schema`);
    }
  }
  if (recognizers === undefined) return problems;
  if (!Array.isArray(recognizers)) return [...problems, `${where}: recognizers must be a list`];
  if (recognizers.length > MAX_RECOGNIZERS) problems.push(`${where}: at most ${MAX_RECOGNIZERS} recognizers`);
  if (recognizers.length > 0 && input === undefined && !(isRecord(io) && io.input !== undefined)) {
    problems.push(`${where}: recognizers need io.input, the field identify fills with the input`);
  }
  const bodyFields = propertiesOf(operation.body) ?? [];
  const responseFields = propertiesOf(operation.response) ?? [];
  recognizers.forEach((recognizer, index) => problems.push(...recognizerProblems(`${where}: recognizers[${index}]`, recognizer, bodyFields, input ?? '', responseFields)));
  return problems;
}
