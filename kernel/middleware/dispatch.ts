/**
 * Answers the route: 404 for an unknown path, 405 for a wrong method, the precomputed JSON of a GET
 * route, or, for an operation, its body read and its work done — on the main thread while the body
 * is small, on the worker pool once it is large or its plugin is a third party's (the main thread's
 * job is to move bytes) — and always within the operation's deadline.
 */
import { isToolshedError, UnprocessableError } from '@toolshed/plugin-sdk';
import { budgetSpent, type ByteBudget } from '../byte-budget.js';
import { OPERATION_TIMEOUT, runOnPool, withinDeadline } from '../deadline.js';
import { HttpError } from '../http-error.js';
import type { Logger } from '../logger.js';
import type { RegisteredOperation } from '../registry.js';
import type { EventLoopWatchdog } from '../watchdog.js';
import { JSON_TYPE, type KernelContext, type KernelMiddleware } from '../types.js';
import { parseJsonObject, readJsonBytes } from './body.js';

/**
 * Answers at least this long (UTF-16 code units) are sent as their UTF-8 bytes, encoded once: as a
 * string, Koa would count its bytes for Content-Length and Node encode it again to write it.
 */
export const LONG_ANSWER_CHARS = 16 * 1024;

/**
 * What a handler's abort signal follows: the HTTP response (aborted when the client goes away
 * first), or a stand-in for a connection of another kind (stdio).
 */
export interface Answering {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/**
 * The handler's context. A class with a getter, not an object literal: a literal with an accessor
 * is rebuilt as a new hidden class on every request, which measured ~30 µs per request. The abort
 * signal is created only for handlers that ask for it.
 */
class HandlerContext {
  #controller: AbortController | undefined;
  #expired = false;
  constructor(
    private readonly res: Answering,
    readonly config: unknown,
    readonly now: () => Date,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#expired) controller.abort();
      const res = this.res;
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return this.#controller.signal;
  }

  /** The deadline passed: the handler's signal fires, so work it handed on (fetch, a worker job) stops. */
  expire(): void {
    this.#expired = true;
    this.#controller?.abort();
  }
}

/** The stand-in for a caller with no connection (the warm-up, `toolshed call`): nothing closes, so no handler's signal is aborted by a close. */
export const noConnection: Answering = { once: () => undefined, writableFinished: false };

/** How much work the kernel lets a request do, and where. */
export interface DispatchLimits {
  /** The body cap (10 MiB). */
  readonly bodyLimit: number;
  /** A contained plugin's body over this many bytes is a bulk job on the pool (an operation's own bound is `RegisteredOperation.offloadBytes`). */
  readonly offloadBytes: number;
  /** Time budget of a request offloaded for its size or its operation's choice, queue time included. */
  readonly offloadBudgetMs: number;
  /** The largest answer in bytes; more is 422 output_too_large. */
  readonly maxAnswerBytes: number;
  /** Body bytes being read at once, over all requests. */
  readonly reading: ByteBudget;
  /** Answer bytes being sent at once, over all requests. */
  readonly sending: ByteBudget;
  /** The message of a 404 for a path (names the likely operation). */
  readonly notFoundMessage: (path: string) => string;
  /** Gets one line per operation past its deadline. */
  readonly logger: Logger;
  /** Times the main thread's work for each operation. */
  readonly watchdog: EventLoopWatchdog;
}

function tooLarge(bytes: number, limit: number): UnprocessableError {
  return new UnprocessableError('output_too_large', `The answer would be ${bytes} bytes; at most ${limit} are sent`);
}

/**
 * Where an operation's input comes from: the request bytes (their size decides whether the work
 * runs on the pool, and they are moved there) and how each side turns them into the input. POST
 * /v1 parses the body itself; a front door with an envelope (MCP) gives the input it parsed and a
 * worker function that picks it out of the same bytes.
 */
export interface OperationInput {
  readonly bytes: Buffer;
  /** The input on the main thread. */
  readonly parse: () => unknown;
  /** Worker module and export run as `(module, name, bytes, config) => Uint8Array` (the answer's JSON). */
  readonly worker?: { readonly module: URL; readonly name: string };
}

function runOffloaded(res: Answering, registered: RegisteredOperation, input: OperationInput, limits: DispatchLimits): Promise<Uint8Array> {
  const bytes = input.bytes;
  // Move the bytes into the worker; copy first when the buffer is shared with others (a pooled slab).
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes);
  const signal = new HandlerContext(res, undefined, () => new Date()).signal;
  // A contained plugin's small request is no bulk job: it must not wait behind the large ones.
  const bulk = !registered.contained || bytes.byteLength > limits.offloadBytes;
  return runOnPool(registered, own, { requestBudgetMs: limits.offloadBudgetMs, signal, transfer: true, bulk, worker: input.worker });
}

/** Runs the operation on the main thread, within its deadline, timing its synchronous parts. */
async function runHere(res: Answering, registered: RegisteredOperation, input: OperationInput, limits: DispatchLimits, requestId: string, now: () => Date): Promise<string | Uint8Array> {
  const { watchdog } = limits;
  const running = watchdog.begin(registered.operation.id, requestId);
  try {
    const context = new HandlerContext(res, registered.config, now);
    const pending = watchdog.timed(running, () => registered.operation.run(input.parse(), context));
    const result = await withinDeadline(pending, registered, () => context.expire());
    return watchdog.timed(running, () => JSON.stringify(result));
  } finally {
    watchdog.done(running);
  }
}

/**
 * Runs an operation the way every front door must: validation, handler and response check, on the
 * worker pool once the input is large. Returns the answer's JSON (a string, or UTF-8 bytes from the
 * pool), not yet checked against the answer cap.
 */
export async function runOperation(
  res: Answering,
  registered: RegisteredOperation,
  input: OperationInput,
  limits: DispatchLimits,
  requestId = '',
  now: () => Date = () => new Date(),
): Promise<string | Uint8Array> {
  const offload = registered.offload === 'always' || (registered.offload === 'auto' && input.bytes.length > registered.offloadBytes);
  try {
    if (!offload) return await runHere(res, registered, input, limits, requestId, now);
    // While the answers being sent already fill their budget, a large request is refused before its work, not after.
    if (limits.sending.inUse >= limits.sending.limit) throw budgetSpent('sending', false);
    return await runOffloaded(res, registered, input, limits);
  } catch (error) {
    // The operator's way to the culprit: which operation, which request; never the body.
    if (isToolshedError(error) && error.code === OPERATION_TIMEOUT) {
      limits.logger.warn({ operation: registered.operation.id, requestId, deadlineMs: registered.deadlineMs, pool: offload }, 'operation deadline passed');
    }
    throw error;
  }
}

/** The size of an answer in bytes, refused with 422 output_too_large past the cap. */
export function checkedAnswerSize(body: string | Uint8Array, maxAnswerBytes: number): number {
  // A string's UTF-8 size is at most three bytes per code unit; count exactly only near the cap.
  const bytes = typeof body === 'string' ? (body.length * 3 <= maxAnswerBytes ? body.length : Buffer.byteLength(body)) : body.byteLength;
  if (bytes > maxAnswerBytes) throw tooLarge(bytes, maxAnswerBytes);
  return bytes;
}

/**
 * Reads an operation request's JSON bytes (415/413/503) against the reading budget; both budgets,
 * the bytes read and the answer sent, are given back when the response closes. `sent` reports the
 * bytes the answer holds at that moment.
 */
export async function readRequestBytes(ctx: KernelContext, limits: DispatchLimits, sent: () => number): Promise<Buffer> {
  const bytes = await readJsonBytes(ctx.req, limits.bodyLimit, limits.reading);
  const held = bytes.length;
  // One listener gives back both budgets: the body read and the answer sent.
  ctx.res.once('close', () => {
    limits.reading.give(held);
    const sending = sent();
    if (sending > 0) limits.sending.give(sending);
  });
  return bytes;
}

/**
 * Sets the answer and returns the bytes it holds against the sending budget (given back when the
 * response closes). `capped` is false for an envelope whose operation answer was checked already.
 */
export function answer(ctx: KernelContext, body: string | Uint8Array, limits: DispatchLimits, capped = true): number {
  const cap = capped ? limits.maxAnswerBytes : Number.MAX_SAFE_INTEGER;
  // A long answer goes out as its UTF-8 bytes, encoded once. As a string, Koa counts its bytes for
  // Content-Length (Buffer.byteLength: a pass as slow as the encoding) and Node encodes it again
  // to write it. A string longer than the cap is too large whatever its bytes, and is not encoded.
  const sent = typeof body === 'string' && body.length >= LONG_ANSWER_CHARS && body.length <= cap ? Buffer.from(body) : body;
  const bytes = checkedAnswerSize(sent, cap);
  if (!limits.sending.tryTake(bytes)) throw budgetSpent('sending', false);
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = typeof sent === 'string' ? sent : Buffer.from(sent.buffer, sent.byteOffset, sent.byteLength);
  return bytes;
}

export function dispatch(limits: DispatchLimits, now: () => Date = () => new Date()): KernelMiddleware {
  return async function answerRoute(ctx, next) {
    const route = ctx.state.route;
    if (route === undefined) throw new HttpError(404, 'not_found', limits.notFoundMessage(ctx.path));
    const method = ctx.method;
    if (method !== route.method && !(route.method === 'GET' && method === 'HEAD')) {
      const allow = route.method === 'GET' ? 'GET, HEAD' : 'POST';
      throw new HttpError(405, 'method_not_allowed', `This path accepts ${allow} only`, { Allow: allow });
    }
    if (route.json !== undefined) {
      ctx.res.setHeader('Content-Type', JSON_TYPE);
      ctx.body = route.json;
      return;
    }
    if (route.respond !== undefined) {
      await route.respond(ctx, limits);
      return next();
    }
    const registered = route.operation!;
    let sent = 0;
    const bytes = await readRequestBytes(ctx, limits, () => sent);
    sent = answer(ctx, await runOperation(ctx.res, registered, { bytes, parse: () => parseJsonObject(bytes) }, limits, ctx.state.requestId, now), limits);
    await next();
  };
}
