/**
 * Bodies in and answers out for every HTTP front door (the /v1 routes, MCP at /mcp): a body is read
 * under the body cap and the door's reading budget, counted as its bytes arrive against the budget
 * and its client address's share, and cut below the rate floor (408, 413, 415, 429, 503); it is
 * given back once it is consumed. An answer takes its bytes from the host's answer budget (503)
 * and its client address's share of it (429) until the response closes.
 */
import { bufferOf, byteLengthOf, LONG_ANSWER_CHARS, parseJsonObject, type BodyBytes, type Host } from '../host/index.js';
import { ClientShares } from './client-shares.js';
import { readJsonBody, readJsonBytes } from './middleware/body.js';
import { HttpError } from './http-error.js';
import { clientKey } from './rate-limit/client-key.js';
import { ReadingBudget } from './reading-budget.js';
import { answerJson } from './answer.js';
import type { KernelContext } from './types.js';

export interface HttpBodies {
  /** Reads the request's JSON bytes; they hold the reading budget until {@link free} gives their size back. */
  read(ctx: KernelContext): Promise<Buffer>;
  /** {@link read}, a body of several chunks as those chunks: joined only where its text is read (kernel/host/json-body.ts). */
  readChunks(ctx: KernelContext): Promise<BodyBytes>;
  /** Gives back the reading budget of the request's body of `size` bytes, once its bytes are consumed (parsed, or handed to a worker). */
  free(ctx: KernelContext, size: number): void;
  /** The reading budget (what it holds: tests and the loadtest look). */
  readonly reading: ReadingBudget;
  /** The answers being sent, over all requests and per client address (what they hold: tests look). */
  readonly sending: ClientShares;
  /** The bytes as a JSON object, by the API's rules (UTF-8, at most 64 levels deep, a position for a syntax error): 400 `invalid_json`. */
  parse(bytes: Uint8Array): unknown;
  /**
   * Sets the JSON answer (a string, UTF-8 bytes, or an answer's parts, written in turn) with its
   * status (200 unless given), taking its bytes from the answer budget and the client address's
   * share until the response closes.
   */
  send(ctx: KernelContext, body: string | Uint8Array | readonly Uint8Array[], bytes?: number, status?: number): void;
}

export function httpBodies(host: Pick<Host, 'answers' | 'bodyLimit' | 'config'>): HttpBodies {
  const reading = new ReadingBudget(host.config.server);
  const { answers, bodyLimit } = host;
  const sending = new ClientShares(answers, host.config.server.sendingBytesPerClient);
  return {
    reading,
    sending,
    // A client is its address as the rate limit counts it (an IPv6 /64 is one client).
    read: (ctx) => readJsonBytes(ctx.req, bodyLimit, reading, clientKey(ctx.ip)),
    readChunks: (ctx) => readJsonBody(ctx.req, bodyLimit, reading, clientKey(ctx.ip)),
    free: (ctx, size) => reading.give(clientKey(ctx.ip), size),
    parse: parseJsonObject,
    send(ctx, given, bytes, status = 200) {
      // A long string goes out as its bytes, encoded once (see LONG_ANSWER_CHARS).
      const body = typeof given === 'string' && given.length >= LONG_ANSWER_CHARS ? Buffer.from(given) : given;
      const size = bytes ?? (typeof body === 'string' ? Buffer.byteLength(body) : byteLengthOf(body));
      const client = clientKey(ctx.ip);
      const passed = sending.take(client, size);
      if (passed === 'share') throw answerShareSpent(sending.share);
      if (passed === 'total') throw new HttpError(503, 'server_busy', 'The service is sending too much data at once; retry shortly', { 'Retry-After': '1' });
      ctx.res.once('close', () => sending.give(client, size));
      answerJson(ctx, typeof body === 'string' || isParts(body) ? body : bufferOf(body), status, size);
    },
  };
}

const isParts = (body: string | Uint8Array | readonly Uint8Array[]): body is readonly Uint8Array[] => Array.isArray(body);

/** 429: this address's answers not yet sent are at its share; the others' are not refused for it. */
const answerShareSpent = (share: number): HttpError =>
  new HttpError(429, 'rate_limited', `This client address has more than ${share} bytes of answers it has not read yet; read them, or retry in 1 s`, { 'Retry-After': '1' });
