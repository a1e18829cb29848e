/**
 * The MCP server both front doors share (Streamable HTTP at /mcp, stdio): the SDK's low-level
 * Server with tools/list answering the catalog and tools/call running the operation through the
 * kernel's own path, given by the front door as `run`. What the operation answers becomes the tool
 * result: its JSON as text and as structuredContent; a refusal becomes a tool error that says what
 * the API's error body says.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isToolshedError } from '@toolshed/plugin-sdk';
import type { OperationInfo } from '../kernel/executor.js';
import type { ToolCatalog } from './tools.js';

/** Runs a tool's operation on its arguments; resolves with the answer's JSON, throws its refusal. */
export type RunTool = (operation: OperationInfo, args: Record<string, unknown>, requestId: string | number) => Promise<string>;

/** Told about an error that is no refusal (a plugin bug): the API's 500. */
export type ReportFailure = (error: unknown, registered: OperationInfo, requestId: string | number) => void;

/** The guidance a client may hand its model once, for the whole server. */
const instructions =
  'Exact, stateless utility tools (encodings, hashes, dates, cron, regex, JWT, subnets, units and more). ' +
  'Prefer them to working such things out yourself: the answers are computed, not guessed. ' +
  'Every tool returns JSON (structuredContent); a refusal is a tool error naming the offending fields.';

/** A tool error carrying the API's error body: code, message and, for a 400, every offending field. */
export function refused(code: string, message: string, details?: unknown): CallToolResult {
  const error = details === undefined ? { code, message } : { code, message, details };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** The result of a refusal thrown by the operation or the kernel (400, 422, 502, 503, 504). */
function refusal(error: unknown): CallToolResult | undefined {
  if (!isToolshedError(error)) return undefined;
  // As the API's 400 body: the details name every offending field, or the whole input ("").
  const details = error.status === 400 ? (error.details ?? [{ path: '', message: error.message }]) : undefined;
  return refused(error.code, error.message, details);
}

/** What a call comes to: the operation's answer as JSON text, or a tool error. */
export type ToolOutcome = { readonly json: string } | { readonly failed: CallToolResult };

/**
 * Runs the tool `registered` on `args` through `run`; every refusal becomes a tool error, and
 * anything else (a plugin bug, the API's 500) is reported and becomes an `internal_error` one.
 */
export async function callTool(registered: OperationInfo, args: Record<string, unknown>, requestId: string | number, run: RunTool, reportFailure: ReportFailure): Promise<ToolOutcome> {
  try {
    return { json: await run(registered, args, requestId) };
  } catch (error) {
    const failed = refusal(error);
    if (failed !== undefined) return { failed };
    reportFailure(error, registered, requestId);
    return { failed: refused('internal_error', 'An internal error occurred; the request id identifies it in the log') };
  }
}

/** The call's result: the answer as structuredContent and, for clients that read text only, as text. */
export function resultOf(outcome: ToolOutcome): CallToolResult {
  if ('failed' in outcome) return outcome.failed;
  return { content: [{ type: 'text', text: outcome.json }], structuredContent: JSON.parse(outcome.json) as Record<string, unknown> };
}

/** The protocol error for a tool name the catalog does not hold (the spec's answer, not a tool error). */
export function unknownTool(name: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}; tools/list names them all`);
}

/** The server for `catalog`, running calls with `run`. Connect it to one transport. */
export function createToolServer(catalog: ToolCatalog, version: string, run: RunTool, reportFailure: ReportFailure): Server {
  const server = new Server({ name: 'toolshed', title: 'Toolshed utility tools', version }, { capabilities: { tools: { listChanged: false } }, instructions });
  const listed = { tools: [...catalog.tools] };
  server.setRequestHandler(ListToolsRequestSchema, () => listed);
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const registered = catalog.operations.get(name);
    if (registered === undefined) throw unknownTool(name);
    return resultOf(await callTool(registered, args, extra.requestId, run, reportFailure));
  });
  return server;
}
