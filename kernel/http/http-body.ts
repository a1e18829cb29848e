/**
 * Bodies in and answers out for every HTTP front door (the /v1 routes, MCP at /mcp): a body is read
 * under the body cap and the door's reading budget, counted as its bytes arrive (413, 415, 503), and
 * given back once it is consumed; an answer takes its bytes from the host's answer budget (503)
 * until the response closes.
 */
import { ByteBudget, LONG_ANSWER_CHARS, parseJsonObject, type Host } from '../host/index.js';
import { readJsonBytes } from './middleware/body.js';
import { HttpError } from './http-error.js';
import { JSON_TYPE, type KernelContext } from './types.js';

export interface HttpBodies {
  /** Reads the request's JSON bytes; they hold the reading budget until {@link free} gives their size back. */
  read(ctx: KernelContext): Promise<Buffer>;
  /** Gives back the reading budget of a body of `size` bytes, once its bytes are consumed (parsed, or handed to a worker). */
  free(size: number): void;
  /** The bytes as a JSON object, by the API's rules (UTF-8, at most 64 levels deep, a position for a syntax error): 400 `invalid_json`. */
  parse(bytes: Uint8Array): unknown;
  /** Sets the JSON answer (a string, or UTF-8 bytes), taking its bytes from the answer budget until the response closes. */
  send(ctx: KernelContext, body: string | Uint8Array, bytes?: number): void;
}

export function httpBodies(host: Pick<Host, 'answers' | 'bodyLimit' | 'config'>): HttpBodies {
  const reading = new ByteBudget(host.config.server.readingBytes);
  const { answers, bodyLimit } = host;
  return {
    read: (ctx) => readJsonBytes(ctx.req, bodyLimit, reading),
    free: (size) => reading.give(size),
    parse: parseJsonObject,
    send(ctx, given, bytes) {
      // A long string goes out as its bytes, encoded once (see LONG_ANSWER_CHARS).
      const body = typeof given === 'string' && given.length >= LONG_ANSWER_CHARS ? Buffer.from(given) : given;
      const size = bytes ?? (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      if (!answers.tryTake(size)) throw new HttpError(503, 'server_busy', 'The service is sending too much data at once; retry shortly', { 'Retry-After': '1' });
      ctx.res.once('close', () => answers.give(size));
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      ctx.body = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    },
  };
}
