/**
 * The /mcp route, as a front door the composition root plugs into the HTTP service. The MCP SDK is
 * loaded by the first request to it, not at start-up: its time and memory are then never paid by
 * a service nobody reaches over MCP.
 */
import type { FrontDoor, KernelContext } from '../kernel/http/index.js';
import type { McpHttpOptions } from './http.js';

/** Where the Streamable HTTP endpoint is served. */
export const MCP_PATH = '/mcp';

/** The door: a POST at /mcp answered after authentication and the rate limit. */
export function mcpDoor(options: McpHttpOptions): FrontDoor {
  let door: Promise<(ctx: KernelContext) => Promise<void>> | undefined;
  const respond = async (ctx: KernelContext): Promise<void> => (await (door ??= import('./http.js').then((loaded) => loaded.createMcpHttp(options))))(ctx);
  return { routes: [{ path: MCP_PATH, method: 'POST', respond }] };
}
