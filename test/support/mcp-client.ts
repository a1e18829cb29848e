/**
 * The MCP SDK's own client over Streamable HTTP, connected to a test service's `/mcp`: over a socket
 * for a listening service, in process (test/support/inject.ts) for one built without a socket.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchInProcess } from './inject.js';

/** A client connected to `url`'s `/mcp`, each request sent with `headers` (an API key, say). */
export async function connectMcpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'toolshed-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers }, fetch: fetchInProcess }));
  return client;
}
