/**
 * CORS, before authentication and rate limiting: preflights are answered here, and the
 * Access-Control-Allow-Origin of every other answer is settled here. `cors.origins` is `["*"]` by
 * default: any origin, as the errors middleware already says on every answer. A list of origins
 * answers only those (the request's own origin echoed, `Vary: Origin`), and other origins get no
 * Allow-Origin, so their browsers keep the answer from the page. Preflights allow `Authorization`:
 * a browser-based client of a private deployment (an internal page, an MCP client) sends its key.
 */
import { setListedHeader } from '../answer.js';
import type { KernelContext, KernelMiddleware } from '../types.js';

/** Request headers a browser may send: the body's type, the key, and MCP's own over /mcp. */
export const ALLOWED_HEADERS = 'Content-Type, Authorization, Mcp-Protocol-Version, Mcp-Session-Id';

export function corsPreflight(origins: readonly string[] = ['*']): KernelMiddleware {
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  /** Replaces the errors middleware's `*` with this request's origin, or with nothing. */
  function settleOrigin(ctx: KernelContext): void {
    ctx.vary('Origin');
    const origin = ctx.req.headers.origin;
    setListedHeader(ctx, 'Access-Control-Allow-Origin', origin !== undefined && allowed.has(origin) ? origin : undefined);
  }
  return function answerPreflight(ctx, next) {
    if (!anyOrigin) settleOrigin(ctx);
    if (ctx.method !== 'OPTIONS' || ctx.req.headers['access-control-request-method'] === undefined) return next();
    ctx.status = 204;
    ctx.set({
      'Access-Control-Allow-Methods': 'POST, GET',
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
    });
    return undefined; // answered: nothing further runs
  };
}
