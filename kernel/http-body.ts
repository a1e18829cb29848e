/**
 * Bodies in and answers out for every HTTP front door (the /v1 route, MCP at /mcp): a body is read
 * under the body cap and the shared reading budget (413, 415, 503), an answer is sent against the
 * shared sending budget (503), and both budgets are given back when the response closes.
 */
import { budgetSpent } from './byte-budget.js';
import { LONG_ANSWER_CHARS, type HostExecutor } from './executor.js';
import { parseJsonObject, readJsonBytes } from './middleware/body.js';
import { JSON_TYPE, type KernelContext } from './types.js';

export interface HttpBodies {
  /** Reads the request's JSON bytes; the bytes read and the answer later sent are given back on close. */
  read(ctx: KernelContext): Promise<Buffer>;
  /** The bytes as a JSON object, by the API's rules (UTF-8, at most 64 levels deep, a position for a syntax error): 400 `invalid_json`. */
  parse(bytes: Buffer): unknown;
  /** Aborted when the client goes away before its answer is written. */
  gone(ctx: KernelContext): AbortSignal;
  /** Sets the JSON answer (a string, or UTF-8 bytes), taking its bytes from the sending budget. */
  send(ctx: KernelContext, body: string | Uint8Array, bytes?: number): void;
}

const held = new WeakMap<KernelContext, { sent: number }>();

export function httpBodies(executor: Pick<HostExecutor, 'budgets' | 'bodyLimit'>): HttpBodies {
  const { reading, sending } = executor.budgets;
  return {
    async read(ctx) {
      const bytes = await readJsonBytes(ctx.req, executor.bodyLimit, reading);
      const length = bytes.length;
      const state = { sent: 0 };
      held.set(ctx, state);
      // One listener gives back both budgets: the body read and the answer sent.
      ctx.res.once('close', () => {
        reading.give(length);
        if (state.sent > 0) sending.give(state.sent);
      });
      return bytes;
    },
    parse: parseJsonObject,
    gone(ctx) {
      const controller = new AbortController();
      const res = ctx.res;
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      return controller.signal;
    },
    send(ctx, given, bytes) {
      // A long string goes out as its bytes, encoded once (see LONG_ANSWER_CHARS).
      const body = typeof given === 'string' && given.length >= LONG_ANSWER_CHARS ? Buffer.from(given) : given;
      const size = bytes ?? (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      if (!sending.tryTake(size)) throw budgetSpent('sending', false);
      const state = held.get(ctx);
      if (state !== undefined) state.sent += size;
      else ctx.res.once('close', () => sending.give(size));
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      ctx.body = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    },
  };
}
