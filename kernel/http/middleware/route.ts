/**
 * Route lookup in a Map, exact match (no case folding, no trailing-slash variants). The route is
 * only recorded here; unknown paths are refused by `dispatch` after authentication and rate
 * limiting, so they count against the client's limit like any request.
 */
import type { KernelMiddleware, Route } from '../types.js';

export function lookupRoute(routes: ReadonlyMap<string, Route>): KernelMiddleware {
  return function findRoute(ctx, next) {
    ctx.state.route = routes.get(ctx.path);
    return next();
  };
}
