/**
 * The /mcp route the kernel mounts. The MCP SDK is loaded by the first request to it, not at
 * start-up: it costs about 0.26 s and 25 MB, which a service nobody reaches over MCP never pays.
 */
import type { Route } from '../kernel/types.js';
import type { McpHttpOptions } from './http.js';

/** Where the Streamable HTTP endpoint is served. */
export const MCP_PATH = '/mcp';

/** The route: a POST answered by the MCP door after authentication and the rate limit. */
export function mcpRoute(options: McpHttpOptions): Route {
  let door: Promise<NonNullable<Route['respond']>> | undefined;
  return {
    method: 'POST',
    public: false,
    respond: async (ctx, limits) => (await (door ??= import('./http.js').then((loaded) => loaded.createMcpHttp(options))))(ctx, limits),
  };
}
