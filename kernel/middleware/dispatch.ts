/**
 * Answers the route: 404 for an unknown path, 405 for a wrong method, the precomputed JSON of a GET
 * route, or, for an operation, its body read and its work done — on the main thread while the body
 * is small, on the worker pool once it is large or its plugin is a third party's (the main thread's
 * job is to move bytes) — and always within the operation's deadline.
 */
import type { ServerResponse } from 'node:http';
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
 * The handler's context. A class with a getter, not an object literal: a literal with an accessor
 * is rebuilt as a new hidden class on every request, which measured ~30 µs per request. The abort
 * signal is created only for handlers that ask for it.
 */
class HandlerContext {
  #controller: AbortController | undefined;
  #expired = false;
  constructor(
    private readonly res: ServerResponse,
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

/** How much work the kernel lets a request do, and where. */
export interface DispatchLimits {
  /** The body cap (10 MiB). */
  readonly bodyLimit: number;
  /** Bodies over this many bytes run on the worker pool (operations with `offload: 'auto'`). */
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

function runOffloaded(ctx: KernelContext, registered: RegisteredOperation, bytes: Buffer, limits: DispatchLimits): Promise<Uint8Array> {
  // Move the bytes into the worker; copy first when the buffer is shared with others (a pooled slab).
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes);
  const signal = new HandlerContext(ctx.res, undefined, () => new Date()).signal;
  // A contained plugin's small request is no bulk job: it must not wait behind the large ones.
  const bulk = !registered.contained || bytes.byteLength > limits.offloadBytes;
  return runOnPool(registered, own, { requestBudgetMs: limits.offloadBudgetMs, signal, transfer: true, bulk });
}

/** Runs the operation on the main thread, within its deadline, timing its synchronous parts. */
async function runHere(ctx: KernelContext, registered: RegisteredOperation, bytes: Buffer, limits: DispatchLimits, now: () => Date): Promise<string> {
  const { watchdog } = limits;
  const running = watchdog.begin(registered.operation.id, ctx.state.requestId);
  try {
    const context = new HandlerContext(ctx.res, registered.config, now);
    const pending = watchdog.timed(running, () => registered.operation.run(parseJsonObject(bytes), context));
    const result = await withinDeadline(pending, registered, () => context.expire());
    return watchdog.timed(running, () => JSON.stringify(result));
  } finally {
    watchdog.done(running);
  }
}

/**
 * Sets the answer and returns the bytes it holds against the sending budget (given back when the
 * response closes).
 */
function answer(ctx: KernelContext, body: string | Uint8Array, limits: DispatchLimits): number {
  // A string's UTF-8 size is at most three bytes per code unit; count exactly only near the cap.
  const bytes = typeof body === 'string' ? (body.length * 3 <= limits.maxAnswerBytes ? body.length : Buffer.byteLength(body)) : body.byteLength;
  if (bytes > limits.maxAnswerBytes) throw tooLarge(bytes, limits.maxAnswerBytes);
  if (!limits.sending.tryTake(bytes)) throw budgetSpent('sending', false);
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
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
    const registered = route.operation!;
    const bytes = await readJsonBytes(ctx.req, limits.bodyLimit, limits.reading);
    const held = bytes.length;
    let sent = 0;
    // One listener gives back both budgets: the body read and the answer sent.
    ctx.res.once('close', () => {
      limits.reading.give(held);
      if (sent > 0) limits.sending.give(sent);
    });
    const offload = registered.offload === 'always' || (registered.offload === 'auto' && held > limits.offloadBytes);
    // While the answers being sent already fill their budget, a large request is refused before its work, not after.
    if (offload && limits.sending.inUse >= limits.sending.limit) throw budgetSpent('sending', false);
    try {
      sent = answer(ctx, offload ? await runOffloaded(ctx, registered, bytes, limits) : await runHere(ctx, registered, bytes, limits, now), limits);
    } catch (error) {
      // The operator's way to the culprit: which operation, which request; never the body.
      if (isToolshedError(error) && error.code === OPERATION_TIMEOUT) {
        limits.logger.warn({ operation: registered.operation.id, requestId: ctx.state.requestId, deadlineMs: registered.deadlineMs, pool: offload }, 'operation deadline passed');
      }
      throw error;
    }
    await next();
  };
}
