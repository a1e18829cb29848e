/**
 * Answers the route: 404 for an unknown path, 405 for a wrong method, the precomputed JSON of a GET
 * route, or, for an operation, the body reader followed by the operation itself.
 */
import { HttpError } from '../http-error.js';
import { JSON_TYPE, type KernelMiddleware } from '../types.js';

export function dispatch(readBody: KernelMiddleware, now: () => Date = () => new Date()): KernelMiddleware {
  return async function answerRoute(ctx, next) {
    const route = ctx.state.route;
    if (route === undefined) throw new HttpError(404, 'not_found', 'There is no operation at this path');
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
    await readBody(ctx, async () => {
      const res = ctx.res;
      let controller: AbortController | undefined;
      const context = {
        config: registered.config,
        now,
        // Created only for handlers that ask: most never do, and an AbortController per request is measurable.
        get signal(): AbortSignal {
          if (controller === undefined) {
            const created = (controller = new AbortController());
            res.once('close', () => {
              if (!res.writableFinished) created.abort();
            });
          }
          return controller.signal;
        },
      };
      const result = await registered.operation.run(ctx.state.body, context);
      res.setHeader('Content-Type', JSON_TYPE);
      ctx.body = JSON.stringify(result);
    });
    await next();
  };
}
