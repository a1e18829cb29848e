/**
 * The recognizers identify applies, gathered from the operations' manifests (as data: a third-party
 * plugin's arrives as a structured clone). An operation that calls an upstream never takes part:
 * identify's speculative runs never leave the machine.
 */
import { LinearRegExp, RECOGNIZER_SAMPLE_CHARS } from '@toolshed/plugin-sdk/contract';
import { mainFields } from './check.js';
import type { EventLoopSlice } from './event-loop-slice.js';
import type { Executor, OperationInfo } from './executor.js';
import { isRecord } from './pointer.js';

/** One recognizer, ready to test. */
export interface ActiveRecognizer {
  readonly operation: OperationInfo;
  readonly kind: string;
  readonly title: string;
  readonly confidence: number;
  readonly regex: LinearRegExp;
  /** The body field the input goes to. */
  readonly field: string;
  /** Fields sent beside it. */
  readonly body: Readonly<Record<string, unknown>>;
  /** Answer fields and the pattern each must match for the candidate to count. */
  readonly answer: readonly (readonly [field: string, pattern: LinearRegExp])[];
  /** Body fields made from the pattern's match (templates), instead of the whole input. */
  readonly fill?: Readonly<Record<string, unknown>>;
}

/** A manifest's pattern (a RegExp, possibly structured-cloned, or its source), matched in linear time. */
export function asRegex(pattern: unknown): LinearRegExp | undefined {
  try {
    if (Object.prototype.toString.call(pattern) === '[object RegExp]') return new LinearRegExp(pattern as RegExp);
    return typeof pattern === 'string' ? new LinearRegExp(pattern, 'u') : undefined;
  } catch {
    return undefined;
  }
}

/** The recognizers of one operation; one that is malformed (the SDK refuses it at load) is left out. */
function recognizersOf(operation: OperationInfo): ActiveRecognizer[] {
  const declared = (operation.definition as { recognizers?: unknown } | null)?.recognizers;
  const input = mainFields(operation).input;
  if (!Array.isArray(declared) || operation.upstream) return [];
  const active: ActiveRecognizer[] = [];
  for (const item of declared as Record<string, unknown>[]) {
    const regex = asRegex(item?.pattern);
    const field = typeof item?.field === 'string' ? item.field : input;
    const { kind, title, confidence } = item ?? {};
    if (regex === undefined || field === undefined || typeof kind !== 'string' || typeof title !== 'string') continue;
    if (typeof confidence !== 'number' || !(confidence > 0 && confidence <= 1)) continue;
    const body = isRecord(item.body) ? item.body : {};
    const answer = isRecord(item.answer) ? Object.entries(item.answer).map(([key, pattern]) => [key, asRegex(pattern)] as const) : [];
    if (answer.some(([, pattern]) => pattern === undefined)) continue;
    const fill = isRecord(item.fill) ? item.fill : undefined;
    active.push({ operation, kind, title, confidence, regex, field, body, answer: answer as [string, LinearRegExp][], fill });
  }
  return active;
}

const gathered = new WeakMap<readonly OperationInfo[], Promise<readonly ActiveRecognizer[]>>();

/**
 * Every recognizer of the executor's operations, highest confidence first, gathered once per list
 * of operations (concurrent first callers share it). Their patterns compile here, an operation at a
 * time, with a turn of the event loop whenever `slice` is spent: compiled in one go, the built-ins'
 * took the main thread 65 ms on the first identify (RE2JS parses and compiles each pattern), and a
 * plugin's recognizers add to that.
 */
export function recognizersFrom(executor: Executor, slice: EventLoopSlice): Promise<readonly ActiveRecognizer[]> {
  const operations = executor.operations();
  let found = gathered.get(operations);
  if (found === undefined) {
    found = gather(operations, slice);
    gathered.set(operations, found);
    // A failure is not kept: the next identify tries again.
    found.catch(() => gathered.delete(operations));
  }
  return found;
}

async function gather(operations: readonly OperationInfo[], slice: EventLoopSlice): Promise<readonly ActiveRecognizer[]> {
  const found: ActiveRecognizer[] = [];
  for (const operation of operations) {
    if (slice.spent()) await slice.turn();
    found.push(...recognizersOf(operation));
  }
  return found.sort((a, b) => b.confidence - a.confidence);
}

/** What a pattern sees of `text`: without surrounding whitespace, cut to the first characters. */
export function sampleOf(text: string): string {
  // Trimming a 1 MiB string of spaces is linear; cut a little beyond the sample first.
  return text.slice(0, RECOGNIZER_SAMPLE_CHARS * 2).trim().slice(0, RECOGNIZER_SAMPLE_CHARS);
}

/** The share of `text`'s first characters that people can read (letters, digits, marks, spaces). */
export function readableShare(text: string): number {
  const head = text.slice(0, 2000);
  if (head.length === 0) return 0;
  const unreadable = head.match(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\t\r\n]/gu)?.length ?? 0;
  return 1 - unreadable / head.length;
}

/** `template` with `$&` replaced by the match, `$<name>` by a named group, `$$` by a dollar sign. */
function expand(template: string, match: RegExpExecArray): string {
  return template.replace(/\$(?:(\$)|(&)|<([^>]*)>)/g, (whole: string, dollar?: string, all?: string, name?: string) =>
    dollar !== undefined ? '$' : all !== undefined ? match[0] : (match.groups?.[name!] ?? ''));
}

function expandAll(value: unknown, match: RegExpExecArray): unknown {
  if (typeof value === 'string') return expand(value, match);
  if (Array.isArray(value)) return value.map((item) => expandAll(item, match));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandAll(item, match)]));
  return value;
}

/**
 * The body fields a recognizer's `fill` makes from `text`, or undefined when the recognizer has no
 * fill, or `text` is longer than a pattern sees (the match must cover the input whole).
 */
export function filledFields(recognizer: ActiveRecognizer, text: string): Record<string, unknown> | undefined {
  if (recognizer.fill === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed.length > RECOGNIZER_SAMPLE_CHARS) return undefined;
  const match = recognizer.regex.exec(trimmed);
  return match === null ? undefined : (expandAll(recognizer.fill, match) as Record<string, unknown>);
}

/** Whether `answer` (an operation's answer) meets the recognizer's answer patterns. */
export function answerMatches(recognizer: ActiveRecognizer, answer: unknown): boolean {
  return recognizer.answer.every(([field, pattern]) => {
    const value = isRecord(answer) ? answer[field] : undefined;
    if (value === undefined) return false;
    // Like the input, an answer field is seen only as far as a pattern sees anything.
    return pattern.test((typeof value === 'string' ? value : JSON.stringify(value)).slice(0, RECOGNIZER_SAMPLE_CHARS));
  });
}
