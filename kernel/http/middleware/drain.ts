/**
 * Draining: from SIGTERM until the service stops listening (`server.drainDelayMs`) and then while
 * in-flight requests finish. `GET /healthz` answers 503 `{"status":"draining"}`, so a load
 * balancer or Kubernetes takes the instance out of rotation, and every answer carries
 * `Connection: close`, so keep-alive clients and proxies open their next request elsewhere instead
 * of sending it down a connection about to close. Everything else is answered as usual.
 */
import { answerJson } from '../answer.js';
import type { KernelMiddleware } from '../types.js';

const drainingAnswer = JSON.stringify({ status: 'draining' });

export function drainSignal(draining: () => boolean): KernelMiddleware {
  return async function drain(ctx, next) {
    if (draining() && ctx.path === '/healthz' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set('Connection', 'close');
      answerJson(ctx, drainingAnswer, 503);
      return;
    }
    try {
      await next();
    } finally {
      // Checked when the answer is ready, not when the request came: a request in flight at
      // SIGTERM is answered with `Connection: close` too (Koa ignores this once headers are sent).
      if (draining()) ctx.set('Connection', 'close');
    }
  };
}
