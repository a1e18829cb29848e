/**
 * The outermost middleware: starts the list of headers every answer carries, translates every error
 * into the contract's JSON error body, writes the answer (kernel/http/answer.ts) and the one
 * access-log line of the request.
 */
import { isToolshedError } from '@toolshed/plugin-sdk';
import { accessLogger } from '../access-log.js';
import { errorObject, logFailure, type Logger } from '../../host/index.js';
import { lingerBeforeClose } from '../linger.js';
import { answerJson, startHeaders, writeAnswer } from '../answer.js';
import type { KernelContext, KernelMiddleware } from '../types.js';

function translate(ctx: KernelContext, error: unknown, logger: Logger): void {
  if (isToolshedError(error)) {
    const headers = (error as { headers?: unknown }).headers;
    if (typeof headers === 'object' && headers !== null) ctx.set(headers as Record<string, string>);
    answerJson(ctx, JSON.stringify({ error: errorObject(error) }), error.status);
  } else {
    answerJson(ctx, internalError, 500);
    logFailure(logger, ctx.state.requestId, ctx.state.route?.operation?.id, error);
  }
}

const internalError = JSON.stringify({ error: { code: 'internal_error', message: 'An internal error occurred; the request id identifies it in the log' } });

/** Paths are logged up to this many characters. */
const MAX_LOGGED_PATH = 200;

/**
 * The path as the access line gives it: whole for a path the service answered (a page, a probe),
 * only its first segment for one it refused, since an unknown path is the client's own text and may
 * hold data (`/v1/<a token>` is a 404 too).
 */
function loggedPath(path: string, status: number): string {
  if (status < 400) return path.slice(0, MAX_LOGGED_PATH);
  const second = path.indexOf('/', 1);
  return second === -1 || second === path.length - 1 ? path.slice(0, Math.min(path.length, 32)) : `${path.slice(0, Math.min(second, 32))}/…`;
}
/**
 * The status logged for a request whose connection closed before any answer was sent (by the
 * client, or by the service at server.shutdownTimeoutMs): nginx's 499, since no status was sent.
 */
export const CLOSED_BEFORE_ANSWER = 499;

const closedBeforeAnswer = (ctx: KernelContext): boolean => ctx.req.socket.destroyed && !ctx.res.headersSent;

export function errors(logger: Logger): KernelMiddleware {
  const writeAccessLine = accessLogger(logger);
  return async function errorsAndAccessLog(ctx, next) {
    const started = performance.now();
    // Read now: once the socket is closed (a request cut at server.shutdownTimeoutMs) it has no address.
    const ip = ctx.ip;
    startHeaders(ctx);
    try {
      await next();
    } catch (error) {
      translate(ctx, error, logger);
    }
    // An answer given while the body is still arriving (a 413 or 503 mid-body, but also a 404, a 401
    // or a GET with a body, none of which read it) closes the connection and reads the rest first,
    // within bounds (linger.ts): left to Node, the rest is read with none, and a chunked body that
    // never ends held the main thread until the request timeout. (An in-process stand-in request
    // that does not say, a test's inject, is taken as complete.)
    if (ctx.req.complete === false) {
      ctx.set('Connection', 'close');
      lingerBeforeClose(ctx.req);
    }
    writeAnswer(ctx);
    const operation = ctx.state.route?.operation?.id;
    writeAccessLine({
      requestId: ctx.state.requestId,
      operation,
      method: ctx.method,
      // A request without an operation is told apart by its path (the query is left out: it may hold data).
      path: operation === undefined ? loggedPath(ctx.path, ctx.status) : undefined,
      status: closedBeforeAnswer(ctx) ? CLOSED_BEFORE_ANSWER : ctx.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      ip,
      key: ctx.state.apiKey,
    });
  };
}
