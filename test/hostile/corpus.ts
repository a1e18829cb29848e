/**
 * Hostile requests: every row of the hostile-load table of issue 10 that one request (or a small
 * burst) can show, plus one hostile payload for every operation, built from its own first example.
 * `npm run loadtest` replays the rows that need many clients (slow readers, 150,000 addresses).
 */
import type { RegisteredOperation } from '../../kernel/host/registry.js';

export interface HostileRow {
  readonly name: string;
  readonly path: string;
  /** Built only when the row runs, so the corpus costs no memory up front. */
  readonly body: () => Buffer;
  /** How many copies are sent at once (the last one is the row's answer). */
  readonly concurrent?: number;
  /** A normal request sent while the copies run; it must be answered with one of `normalStatus`. */
  readonly normal?: { readonly path: string; readonly body: object; readonly status: readonly number[] };
  /** The documented answers this row may get. */
  readonly status: readonly number[];
}

const MiB = 1024 * 1024;
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

/** Deterministic text: `count` distinct words (base-36 numbers with a letter prefix). */
function distinctWords(count: number): string {
  const words: string[] = [];
  for (let index = 0; index < count; index++) words.push(`w${index.toString(36)}`);
  return words.join(' ');
}

/** Printable ASCII after '"', without '\\': 91 characters that need no escaping in JSON. */
const keyAlphabet = Array.from({ length: 0x7f - 0x23 }, (_, i) => String.fromCharCode(0x23 + i)).filter((char) => char !== '\\');

/** The shortest distinct key for `index`: its digits in base 91. */
export function shortKey(index: number): string {
  let key = '';
  let rest = index;
  do {
    key = keyAlphabet[rest % keyAlphabet.length]! + key;
    rest = Math.floor(rest / keyAlphabet.length);
  } while (rest > 0);
  return key;
}

/** A string of `size` characters mixing what parsers trip on: quotes, brackets, escapes, NUL, astral and lone surrogates. */
export function junk(size: number): string {
  const piece = '"\\{[(<&%\u0000\ud800é😀\n\t,;:|';
  return piece.repeat(Math.ceil(size / piece.length)).slice(0, size);
}

/** The kernel's rows and the table's single-request rows. */
export const kernelRows: readonly HostileRow[] = [
  {
    name: 'base64/encode, 10 MiB body with 1.18 M distinct unknown keys',
    path: '/v1/base64/encode',
    body: () => {
      const parts = ['{"text":"x"'];
      for (let index = 0; index < 1_180_000; index++) parts.push(`,"${shortKey(index)}":0`);
      return Buffer.from(`${parts.join('')}}`);
    },
    status: [400],
  },
  {
    name: '{"text": followed by 10 million [',
    path: '/v1/base64/encode',
    body: () => Buffer.from(`{"text":${'['.repeat(10_000_000)}`),
    status: [400],
  },
  {
    name: 'a string field sent as an array of 5,000 items',
    path: '/v1/hash-generator/hash',
    body: () => json({ text: Array.from({ length: 5000 }, () => 'a') }),
    status: [400],
  },
  {
    name: '20 concurrent (a+)+$ regex jobs, then a normal one',
    path: '/v1/regex-tester/test',
    body: () => json({ pattern: '(a+)+$', text: `${'a'.repeat(40)}!` }),
    concurrent: 20,
    normal: { path: '/v1/regex-tester/test', body: { pattern: 'b', text: 'abc' }, status: [200, 503] },
    status: [422, 503],
  },
  {
    name: '8 concurrent regex jobs on 9 MB texts',
    path: '/v1/regex-tester/test',
    body: () => json({ pattern: '(a|b)*c', text: 'ab'.repeat(4_500_000) }),
    concurrent: 8,
    status: [200, 422, 503],
  },
  {
    name: 'word-counter/stats on 9.9 MB of 1.7 M distinct words',
    path: '/v1/word-counter/stats',
    body: () => json({ text: distinctWords(1_700_000).slice(0, 9_900_000) }),
    status: [200, 422],
  },
  ...['upper', 'title', 'camel', 'sortAsc', 'dedupe', 'reverse'].map(
    (transform): HostileRow => ({
      name: `word-counter/transform ${transform} on ~10 MB`,
      path: '/v1/word-counter/transform',
      body: () => json({ text: distinctWords(1_200_000).replace(/ w1/g, '\nw1').slice(0, 9_500_000), transform }),
      status: [200, 422],
    }),
  ),
  {
    name: 'text-converter/encode of 3.3 MB into a 10 MB answer',
    path: '/v1/text-converter/encode',
    body: () => json({ text: 'a'.repeat(3_300_000), format: 'hex' }),
    status: [200, 422, 503],
  },
  {
    name: 'url-encoder/encode of ~10 MB',
    path: '/v1/url-encoder/encode',
    body: () => json({ text: '& ='.repeat(3_300_000) }),
    status: [200, 422, 503],
  },
  {
    name: 'base64/encode of ~10 MB',
    path: '/v1/base64/encode',
    body: () => json({ text: 'é'.repeat(5_000_000) }),
    status: [200, 422, 503],
  },
  {
    name: 'hash-generator/hash of ~10 MB',
    path: '/v1/hash-generator/hash',
    body: () => json({ text: 'a'.repeat(10 * MiB - 100) }),
    status: [200],
  },
  {
    name: 'text-diff/inline on two different 5 MB lines, ignoreCase and ignoreWhitespace',
    path: '/v1/text-diff/inline',
    body: () => json({ original: distinctWords(600_000).slice(0, 5_000_000), changed: distinctWords(700_000).slice(100, 5_000_100), ignoreCase: true, ignoreWhitespace: true, granularity: 'chars' }),
    status: [200, 422],
  },
  {
    name: 'text-diff/lines on 0.19 MiB of different lines',
    path: '/v1/text-diff/lines',
    body: () => json({ original: distinctWords(40_000).replace(/ /g, '\n'), changed: distinctWords(40_000).split(' ').reverse().join('\n') }),
    status: [200, 422],
  },
];

/** Replaces every string in `value` with `text` and every array with `size` copies of its first item. */
function poison(value: unknown, text: string, size: number): unknown {
  if (typeof value === 'string') return text;
  if (Array.isArray(value)) return Array.from({ length: value.length === 0 ? 0 : size }, () => poison(value[0], text.slice(0, 64), size));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, poison(item, text, size)]));
  return value;
}

/**
 * One row per operation: its first example with every string made 256 KiB of junk and every array
 * 20,000 items. Upstream operations are refused by validation before any upstream is asked.
 */
export function operationRows(operations: Iterable<RegisteredOperation>): HostileRow[] {
  const rows: HostileRow[] = [];
  for (const { path, operation } of operations) {
    const example = operation.definition.examples[0]!;
    rows.push({
      name: `${operation.id} with junk strings and long arrays`,
      path,
      body: () => json(poison(example.body, junk(256 * 1024), 20_000)),
      status: [200, 400, 422, 503],
    });
  }
  return rows;
}
