/**
 * Splits an absolute URL into its parts with the WHATWG URL parser (`new URL`, which never
 * fetches anything). Three guards, because the answer repeats the URL up to four times over
 * (percent-encoded query, decoded params) and the parser is not linear everywhere: a 10 MB URL
 * takes seconds and answers 37 MB; IDNA (punycode) processing of a host is quadratic in the
 * label length (a 200,000-character Unicode host takes seconds); and millions of tiny query
 * parameters make a response far larger than the request.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** One `key`/`value` row of the response. */
export interface Entry<Key extends string = string> {
  key: Key;
  value: string;
}

/** The parts of a parsed URL, in response order; each appears only when non-empty. */
export const PART_KEYS = ['protocol', 'username', 'password', 'host', 'hostname', 'port', 'origin', 'path', 'query', 'fragment'] as const;
/** The name of one part. */
export type PartKey = (typeof PART_KEYS)[number];

/** Longest URL parsed: Chromium's limit (`kMaxURLChars`, 2 MiB), in UTF-16 code units. */
export const MAX_URL_LENGTH = 2 * 1024 * 1024;
/** Longest host (with port) of a special-scheme URL that is parsed; DNS itself stops at 253. */
export const MAX_HOST_LENGTH = 4096;
/** Most query parameters listed; more answer 422 output_too_large. */
export const MAX_PARAMS = 10_000;

// Schemes whose host the WHATWG parser runs through IDNA; other schemes keep an opaque host.
const specialSchemes = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

const isTabOrNewline = (code: number): boolean => code === 0x09 || code === 0x0a || code === 0x0d;
const isAsciiAlpha = (code: number): boolean => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const isSchemeCode = (code: number): boolean =>
  isAsciiAlpha(code) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e;

/**
 * Length of the host (and port) the WHATWG parser would read from `input`, found the way the parser
 * finds it (leading C0 controls and spaces skipped, tabs and newlines ignored, any number of slashes
 * after a special scheme but exactly two after `file:`, the host ending at the first `/ \ ? #`,
 * user info ending at the last `@`); 0 for a scheme without IDNA.
 */
export function specialHostLength(input: string): number {
  let index = 0;
  while (index < input.length && input.charCodeAt(index) <= 0x20) index++;
  if (index === input.length || !isAsciiAlpha(input.charCodeAt(index))) return 0;
  let scheme = '';
  for (; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (isSchemeCode(code)) {
      if (scheme.length === 5) return 0; // "https", the longest special scheme, has 5 letters
      scheme += String.fromCharCode(code);
    } else if (!isTabOrNewline(code)) break;
  }
  if (input.charCodeAt(index) !== 0x3a || !specialSchemes.has(scheme.toLowerCase())) return 0;
  const isFile = scheme.toLowerCase() === 'file';
  let slashes = 0;
  for (index++; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (isTabOrNewline(code)) continue;
    if ((code !== 0x2f && code !== 0x5c) || (isFile && slashes === 2)) break;
    slashes++;
  }
  if (isFile && slashes < 2) return 0; // "file:/x" and "file:x" have no host
  let length = 0;
  for (; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (code === 0x2f || code === 0x5c || code === 0x3f || code === 0x23) break;
    if (code === 0x40) length = 0;
    else if (!isTabOrNewline(code)) length++;
  }
  return length;
}

/** Number of parameters `URLSearchParams` finds in `query`: the non-empty runs between `&`. */
export function countParams(query: string): number {
  let count = 0;
  for (let start = 0; start <= query.length; ) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}

/**
 * Parses `input` as an absolute URL. `parts` lists the URL's components as the WHATWG parser
 * serialises them (percent-encoded, the host in punycode), without the `:`, `?` and `#`
 * delimiters; an opaque origin (`"null"`) is left out. `params` lists the query parameters in
 * order, decoded as `application/x-www-form-urlencoded` (`+` is a space), duplicates kept.
 * Throws 422 `invalid_url`, `url_too_long`, `host_too_long` or `output_too_large`.
 */
export function parseUrl(input: string): { parts: Entry<PartKey>[]; params: Entry[] } {
  if (input.length > MAX_URL_LENGTH) {
    throw new UnprocessableError('url_too_long', `The URL is longer than ${MAX_URL_LENGTH} characters`);
  }
  if (specialHostLength(input) > MAX_HOST_LENGTH) {
    throw new UnprocessableError('host_too_long', `The host is longer than ${MAX_HOST_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new UnprocessableError('invalid_url', 'The text is not an absolute URL with a scheme (WHATWG URL Standard)');
  }
  const query = url.search.slice(1);
  if (countParams(query) > MAX_PARAMS) {
    throw new UnprocessableError('output_too_large', `The query has more than ${MAX_PARAMS} parameters`);
  }
  const values: Record<PartKey, string> = {
    protocol: url.protocol.slice(0, -1),
    username: url.username,
    password: url.password,
    host: url.host,
    hostname: url.hostname,
    port: url.port,
    origin: url.origin === 'null' ? '' : url.origin,
    path: url.pathname,
    query,
    fragment: url.hash.slice(1),
  };
  const parts = PART_KEYS.filter((key) => values[key] !== '').map((key) => ({ key, value: values[key] }));
  const params = [...url.searchParams].map(([key, value]) => ({ key, value }));
  return { parts, params };
}
