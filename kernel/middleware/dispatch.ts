/**
 * Answers the route: 404 for an unknown path, 405 for a wrong method, the precomputed JSON of a GET
 * route, or, for an operation, its body read and its work done — on the main thread while the body
 * is small, on the worker pool once it is large (the main thread's job is to move bytes).
 */
import type { ServerResponse } from 'node:http';
import { runInWorker, UnprocessableError, workerRefusal } from '@toolshed/plugin-sdk';
import { budgetSpent, type ByteBudget } from '../byte-budget.js';
import { HttpError } from '../http-error.js';
import type { RegisteredOperation } from '../registry.js';
import { JSON_TYPE, type KernelContext, type KernelMiddleware } from '../types.js';
import { parseJsonObject, readJsonBytes } from './body.js';

/**
 * The handler's context. A class with a getter, not an object literal: a literal with an accessor
 * is rebuilt as a new hidden class on every request, which measured ~30 µs per request. The abort
 * signal is created only for handlers that ask for it.
 */
class HandlerContext {
  #controller: AbortController | undefined;
  constructor(
    private readonly res: ServerResponse,
    readonly config: unknown,
    readonly now: () => Date,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const res = this.res;
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return this.#controller.signal;
  }
}

/** How much work the kernel lets a request do, and where. */
export interface DispatchLimits {
  /** The body cap (10 MiB). */
  readonly bodyLimit: number;
  /** Bodies over this many bytes run on the worker pool (operations with `offload: 'auto'`). */
  readonly offloadBytes: number;
  /** Time budget of an offloaded request, queue time included. */
  readonly offloadBudgetMs: number;
  /** The largest answer in bytes; more is 422 output_too_large. */
  readonly maxAnswerBytes: number;
  /** Body bytes being read at once, over all requests. */
  readonly reading: ByteBudget;
  /** Answer bytes being sent at once, over all requests. */
  readonly sending: ByteBudget;
  /** The message of a 404 for a path (names the likely operation). */
  readonly notFoundMessage: (path: string) => string;
}

const offloadModule = new URL('../offload.js', import.meta.url);

function tooLarge(bytes: number, limit: number): UnprocessableError {
  return new UnprocessableError('output_too_large', `The answer would be ${bytes} bytes; at most ${limit} are sent`);
}

async function runOffloaded(ctx: KernelContext, registered: RegisteredOperation, bytes: Buffer, limits: DispatchLimits): Promise<Uint8Array> {
  // Move the bytes into the worker; copy first when the buffer is shared with others (a pooled slab).
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes);
  const args = [registered.module, registered.operation.name, own, registered.config];
  const signal = new HandlerContext(ctx.res, undefined, () => new Date()).signal;
  try {
    return await runInWorker<Uint8Array>(offloadModule, 'runOffloaded', args, { deadlineMs: limits.offloadBudgetMs, signal, transfer: [own.buffer as ArrayBuffer], bulk: true });
  } catch (error) {
    throw workerRefusal(error, {
      timeout: () => new UnprocessableError('input_too_complex', `The input needs more than ${limits.offloadBudgetMs} ms of work`),
      crashed: () => new UnprocessableError('input_too_complex', 'The input needs more memory than one request may use'),
    });
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
    if (offload) sent = answer(ctx, await runOffloaded(ctx, registered, bytes, limits), limits);
    else {
      const result = await registered.operation.run(parseJsonObject(bytes), new HandlerContext(ctx.res, registered.config, now));
      sent = answer(ctx, JSON.stringify(result), limits);
    }
    await next();
  };
}
