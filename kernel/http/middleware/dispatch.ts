/**
 * Answers the route: 404 for an unknown path, 405 for a wrong method, the precomputed JSON of a GET
 * route, a front door's own answer (MCP at /mcp), or, for an operation, its body read and run
 * through the executor, the one way every front door runs an operation.
 */
import { byteLengthOf, type Executor } from '../../host/index.js';
import { HttpError } from '../http-error.js';
import type { HttpBodies } from '../http-body.js';
import { answerJson } from '../answer.js';
import type { KernelMiddleware } from '../types.js';

export function dispatch(executor: Executor, bodies: HttpBodies, notFoundMessage: (path: string) => string): KernelMiddleware {
  return async function answerRoute(ctx, next) {
    const route = ctx.state.route;
    if (route === undefined) throw new HttpError(404, 'not_found', notFoundMessage(ctx.path));
    const method = ctx.method;
    if (method !== route.method && !(route.method === 'GET' && method === 'HEAD')) {
      const allow = route.method === 'GET' ? 'GET, HEAD' : 'POST';
      throw new HttpError(405, 'method_not_allowed', `This path accepts ${allow} only`, { Allow: allow });
    }
    if (route.json !== undefined) {
      answerJson(ctx, route.json);
      return;
    }
    if (route.respond !== undefined) {
      await route.respond(ctx);
      return next();
    }
    const bytes = await bodies.readChunks(ctx);
    // Read now: a body handed to the pool moves there, and its buffers are then empty here.
    const size = byteLengthOf(bytes);
    try {
      const answer = await executor.run({ operation: route.operation!, bytes, caller: ctx, requestId: ctx.state.requestId });
      bodies.send(ctx, answer.parts ?? answer.body, answer.bytes);
    } finally {
      bodies.free(ctx, size);
    }
    await next();
  };
}
