/**
 * How the HTTP door writes an answer. The headers the door adds to every answer (security, CORS,
 * the request id, the rate limit) are kept on `ctx.state.headers` as the flat `[name, value, …]`
 * list that `res.writeHead` takes, and a small JSON answer is written with them in one `writeHead`
 * and one `end`. Each `res.setHeader` checks, lower-cases and stores its header, and Node then walks
 * the stored ones again: the dozen headers of a small answer cost about 4 µs that way, against
 * 0.2 µs as one list (raw node:http, 9 headers: 25.8 → 30.1 µs a request by setHeader, 26.0 by the
 * list). Every other answer (pages, streams, answers of 1 KiB and more, which may be compressed)
 * goes to Koa, the list set on it first.
 *
 * A header set with `setHeader` (a page's Cache-Control, an error's Retry-After) wins over the
 * list's header of the same name; the list's own entries are changed with {@link setListedHeader}.
 */
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { bufferOf } from '../host/index.js';
import { COMPRESS_THRESHOLD_BYTES, small } from './middleware/compress.js';
import { JSON_TYPE, type KernelContext } from './types.js';

const exposedHeaders = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id';

/** What every answer carries until a middleware changes it. */
const EVERY_ANSWER: readonly string[] = [
  'X-Content-Type-Options', 'nosniff',
  'Cache-Control', 'no-store',
  'Access-Control-Allow-Origin', '*',
  'Access-Control-Expose-Headers', exposedHeaders,
];

/** The list, also on the response: Node's own 408 for a request cut mid-body is written from it (client-error.ts). */
const LISTED = Symbol('the answer headers list');
type Listed = ServerResponse & { [LISTED]?: readonly string[] };

/** Starts a request's list with the headers every answer carries. */
export function startHeaders(ctx: KernelContext): void {
  const list = EVERY_ANSWER.slice();
  ctx.state.headers = list;
  (ctx.res as Listed)[LISTED] = list;
}

/** The value of `name` on the list of the answer `res` stands for, if it has one. */
export function listedHeader(res: ServerResponse, name: string): string | undefined {
  const list = (res as Listed)[LISTED] ?? [];
  for (let index = 0; index < list.length; index += 2) if (list[index] === name) return list[index + 1];
  return undefined;
}

/** Sets `name` on the request's list, replacing its value there; `undefined` takes it off. */
export function setListedHeader(ctx: KernelContext, name: string, value: string | undefined): void {
  const list = ctx.state.headers;
  for (let index = 0; index < list.length; index += 2) {
    if (list[index] !== name) continue;
    if (value === undefined) list.splice(index, 2);
    else list[index + 1] = value;
    return;
  }
  if (value !== undefined) list.push(name, value);
}

/**
 * Sets a JSON answer (a string, UTF-8 bytes, or an answer's parts, written in turn) with its status.
 * A small one is kept for {@link writeAnswer}; a larger one is Koa's body, where compression finds
 * it. `bytes` is its size when the caller has counted it (always, for parts).
 */
export function answerJson(ctx: KernelContext, body: string | Buffer | readonly Uint8Array[], status = 200, bytes?: number): void {
  ctx.status = status;
  if (!Array.isArray(body) && (bytes === undefined ? small(body) : bytes < COMPRESS_THRESHOLD_BYTES)) {
    ctx.state.answer = body as string | Buffer;
    ctx.state.answerBytes = bytes;
    return;
  }
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  if (Array.isArray(body)) {
    ctx.body = Readable.from(body.map(bufferOf), { objectMode: false });
    ctx.length = bytes!;
  } else ctx.body = body;
}

/** Sets the list's headers on the response where nothing has set the same name. */
function setUnsetHeaders(res: ServerResponse, list: readonly string[]): void {
  for (let index = 0; index < list.length; index += 2) if (!res.hasHeader(list[index]!)) res.setHeader(list[index]!, list[index + 1]!);
}

/**
 * Writes the answer kept by {@link answerJson}, with the list's headers, or sets the list on the
 * response for Koa to send with its body. Called once, by the outermost middleware (errors.ts).
 */
export function writeAnswer(ctx: KernelContext): void {
  const res = ctx.res;
  if (res.headersSent) return;
  const list = ctx.state.headers;
  const answer = ctx.state.answer;
  if (answer === undefined || !ctx.writable) {
    setUnsetHeaders(res, list);
    return;
  }
  ctx.respond = false;
  const length = String(ctx.state.answerBytes ?? (typeof answer === 'string' ? Buffer.byteLength(answer) : answer.byteLength));
  if (res.getHeaderNames().length === 0) {
    list.push('Content-Type', JSON_TYPE, 'Content-Length', length);
    res.writeHead(ctx.status, list);
  } else {
    // Something set a header of its own (Retry-After, Connection: close): Node merges the two ways
    // only by letting the list win, so the list goes on as setHeader calls instead. An error that
    // replaced a compressed answer leaves that answer's Content-Encoding behind: it goes.
    res.removeHeader('Content-Encoding');
    res.setHeader('Content-Type', JSON_TYPE);
    res.setHeader('Content-Length', length);
    setUnsetHeaders(res, list);
    res.writeHead(ctx.status);
  }
  res.end(ctx.method === 'HEAD' ? undefined : answer);
}
