/**
 * The /mcp route, as a front door the composition root plugs into the HTTP service. The MCP SDK is
 * loaded by the first request to it, not at start-up: its time and memory are then never paid by
 * a service nobody reaches over MCP.
 */
import type { FrontDoor, KernelContext } from '../kernel/http/index.js';
import type { McpHttpOptions } from './http.js';

/** Where the Streamable HTTP endpoint is served. */
export const MCP_PATH = '/mcp';

/** The door: a POST at /mcp answered after authentication and the rate limit, which it words itself past the limit. */
export function mcpDoor(options: McpHttpOptions): FrontDoor {
  let loading: Promise<(ctx: KernelContext) => Promise<void>> | undefined;
  // Once loaded, the responder is called as it is: no promise of the import to wait on per request.
  let loaded: ((ctx: KernelContext) => Promise<void>) | undefined;
  const respond = (ctx: KernelContext): Promise<void> => {
    if (loaded !== undefined) return loaded(ctx);
    loading ??= import('./http.js').then((module) => (loaded = module.createMcpHttp(options)));
    return loading.then((responder) => responder(ctx));
  };
  return { routes: [{ path: MCP_PATH, method: 'POST', respond, answersOverLimit: true }] };
}
