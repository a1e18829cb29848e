/**
 * The MCP server both front doors share (Streamable HTTP at /mcp, stdio): the SDK's low-level
 * Server with tools/list answering the catalog's short entries and tools/call running the
 * operation through the front door's `run`, or answering the `describe` tool. What the operation
 * answers becomes the tool result: its JSON as text and as structuredContent; a refusal becomes a
 * tool error that says what the API's error body says. Nothing here reaches into the registry: the
 * catalog names each tool's operation (`Op`, whatever the door runs) and `run` runs it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListToolsRequestSchema, type CallToolResult, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { isToolshedError } from '@toolshed/plugin-sdk';
import type { OperationInfo } from '../kernel/host/index.js';
import { DESCRIBE_TOOL, describeCall, describeTool } from './describe.js';
import { nearestTool, type ToolCatalog } from './tools.js';

/** Runs a tool's operation on its arguments; resolves with the answer's JSON, throws its refusal. */
export type RunTool<Op = OperationInfo> = (operation: Op, args: Record<string, unknown>, requestId: string | number) => Promise<string>;

/** Told about an error that is no refusal (a plugin bug): the API's 500. */
export type ReportFailure<Op = OperationInfo> = (error: unknown, operation: Op, requestId: string | number) => void;

/** The guidance a client may hand its model once, for the whole server. */
const instructions =
  'Exact, stateless utility tools (encodings, hashes, dates, cron, regex, JWT, subnets, units and more). ' +
  'Prefer them to working such things out yourself: the answers are computed, not guessed. ' +
  'Every tool returns JSON (structuredContent); a refusal is a tool error naming the offending fields. ' +
  'tools/list gives each tool in short; the describe tool gives one in full (worked example, error codes, output schema).';

/** A tool error carrying the API's error body: code, message and, for a 400, every offending field. */
export function refused(code: string, message: string, details?: unknown): CallToolResult {
  const error = details === undefined ? { code, message } : { code, message, details };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** The result of a refusal thrown by the operation or the kernel (400, 422, 502, 503, 504). */
function refusal(error: unknown): CallToolResult | undefined {
  if (!isToolshedError(error)) return undefined;
  // As the API's 400 body: the details name every offending field, or the whole input (""); another
  // status has them only where its refusal has a place (a recipe's failing step), as over HTTP.
  const placed = error.details !== undefined && error.details.length > 0 ? error.details : undefined;
  const details = error.status === 400 ? (error.details ?? [{ path: '', message: error.message }]) : placed;
  return refused(error.code, error.message, details);
}

/** What a call comes to: the operation's answer as JSON text, or a tool error. */
export type ToolOutcome = { readonly json: string } | { readonly failed: CallToolResult };

/**
 * Runs the tool's `operation` on `args` through `run`; every refusal becomes a tool error, and
 * anything else (a plugin bug, the API's 500) is reported and becomes an `internal_error` one.
 */
export async function callTool<Op>(operation: Op, args: Record<string, unknown>, requestId: string | number, run: RunTool<Op>, reportFailure: ReportFailure<Op>): Promise<ToolOutcome> {
  try {
    return { json: await run(operation, args, requestId) };
  } catch (error) {
    const failed = refusal(error);
    if (failed !== undefined) return { failed };
    reportFailure(error, operation, requestId);
    return { failed: refused('internal_error', 'An internal error occurred; the request id identifies it in the log') };
  }
}

/** The call's result: the answer as structuredContent and, for clients that read text only, as text. */
export function resultOf(outcome: ToolOutcome): CallToolResult {
  if ('failed' in outcome) return outcome.failed;
  return { content: [{ type: 'text', text: outcome.json }], structuredContent: JSON.parse(outcome.json) as Record<string, unknown> };
}

/**
 * A JSON-RPC error for the response: code and message as they are (an McpError would put
 * "MCP error <code>:" in front of the message, and the client's own McpError does that again).
 */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** The protocol error for a tool name the catalog does not hold (the spec's answer, not a tool error), naming the nearest. */
export function unknownTool(name: string, known: readonly string[]): Error {
  const close = nearestTool(name, known);
  const hint = close === undefined ? '' : `; did you mean "${close}"?`;
  return protocolError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}${hint} tools/list names them all`);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a JSON value is, for a message about the wrong one. */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/**
 * The tool name and arguments of a tools/call's params, or the -32602 a request of the wrong shape
 * gets (the SDK's own check would answer -32603 with its raw validation output). Arguments that are
 * an object but break the tool's schema are not this: they are the tool's 400, a tool error naming
 * each field (SEP-1303: the model reads it and corrects itself).
 */
function callParams(params: unknown): { name: string; args: Record<string, unknown> } {
  if (!isObject(params)) throw protocolError(ErrorCode.InvalidParams, `Invalid params: tools/call needs params, an object with the tool's name and arguments, not ${kindOf(params)}`);
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') throw protocolError(ErrorCode.InvalidParams, `Invalid params: name must be a string naming a tool (tools/list names them all), not ${kindOf(name)}`);
  if (!isObject(args)) throw protocolError(ErrorCode.InvalidParams, `Invalid params: arguments must be an object of the tool's named arguments, not ${kindOf(args)}`);
  return { name, args };
}

/** The server for `catalog`, running calls with `run`. Connect it to one transport. */
export function createToolServer<Op>(catalog: ToolCatalog<Op>, version: string, run: RunTool<Op>, reportFailure: ReportFailure<Op>): Server {
  const server = new Server({ name: 'toolshed', title: 'Toolshed utility tools', version }, { capabilities: { tools: { listChanged: false } }, instructions });
  const listed = { tools: [...catalog.tools, describeTool] };
  const full = new Map([...catalog.full, [DESCRIBE_TOOL, describeTool]]);
  const names = listed.tools.map((tool) => tool.name);
  server.setRequestHandler(ListToolsRequestSchema, () => listed);
  // tools/call is answered here rather than by a handler for the SDK's request schema, so that params
  // of the wrong shape get -32602 with a message, not the schema check's -32603 and raw output.
  server.fallbackRequestHandler = async (request: JSONRPCRequest, extra) => {
    if (request.method !== 'tools/call') throw protocolError(ErrorCode.MethodNotFound, 'Method not found');
    const { name, args } = callParams(request.params);
    if (name === DESCRIBE_TOOL) return describeCall(args, full);
    const operation = catalog.operations.get(name);
    if (operation === undefined) throw unknownTool(name, names);
    return resultOf(await callTool(operation, args, extra.requestId, run, reportFailure));
  };
  return server;
}
