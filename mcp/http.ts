/**
 * MCP over Streamable HTTP, stateless, behind the kernel's checks: by the time a request gets here
 * its key is known (401 answered), it is counted against its rate limit (429 answered) and it is a
 * POST. Here the body is read under the kernel's cap and budgets (413, 415, 503), checked as one
 * JSON-RPC message, and handed to the one SDK Server of the service through a transport that
 * gives each request an id of its own (clients all count from 1) and waits for its response. Every
 * answer is JSON (no SSE stream: nothing is ever sent unasked).
 */
import { SUPPORTED_PROTOCOL_VERSIONS, JSONRPCMessageSchema, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { answerText, type Executor, logFailure, type Logger, type OperationInfo } from '../kernel/host/index.js';
import { type HttpBodies, JSON_TYPE, type KernelContext } from '../kernel/http/index.js';
import { callTool, createToolServer, type ReportFailure, type RunTool, type ToolOutcome } from './server.js';
import { buildToolCatalog, type ToolCatalog } from './tools.js';

/** What the door needs from the service. */
export interface McpHttpOptions {
  readonly executor: Executor;
  readonly bodies: HttpBodies;
  readonly logger: Logger;
  readonly version: string;
}

/** A request waiting for the server's response. */
interface Pending {
  readonly ctx: KernelContext;
  readonly resolve: (response: JSONRPCMessage | undefined) => void;
}

/** JSON-RPC's codes for a message that is not JSON, and for one that is no valid request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Answers with a JSON-RPC error that belongs to no request (id null), as HTTP `status`. */
function rpcFailure(ctx: KernelContext, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** The JSON value in `bytes`, or undefined once a JSON-RPC error is answered. */
function parsedBody(ctx: KernelContext, bytes: Buffer, bodies: HttpBodies): unknown {
  // Batches left JSON-RPC over MCP with protocol 2025-06-18; one message per request.
  const first = bytes.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  if (bytes[first] === 0x5b) return void rpcFailure(ctx, 400, INVALID_REQUEST, 'Batches are not supported: send one JSON-RPC message per request');
  try {
    // The API's own JSON rules: UTF-8, at most 64 levels deep, a position for a syntax error.
    return bodies.parse(bytes);
  } catch (error) {
    if (!isToolshedError(error)) throw error;
    return void rpcFailure(ctx, 400, PARSE_ERROR, `Parse error: ${error.message}`);
  }
}

/** `value` as a JSON-RPC message by the SDK's schema, or undefined once a JSON-RPC error is answered. */
function checkedMessage(ctx: KernelContext, value: unknown): JSONRPCMessage | undefined {
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) return void rpcFailure(ctx, 400, INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 request, notification or response');
  return checked.data;
}

/** Only the listed keys, if any. */
const onlyKeys = (value: object, allowed: readonly string[]): boolean => Object.keys(value).every((key) => allowed.includes(key));

/**
 * A tools/call the door runs itself: JSON-RPC 2.0 with nothing but jsonrpc, id (a string or safe
 * integer), method and params; params with nothing but a known tool's name and arguments that are
 * an object. Every such message is one the SDK's schema accepts too; anything else is checked by
 * that schema and goes to the SDK's Server, which answers it (with its protocol errors).
 */
function plainCall(value: unknown, catalog: ToolCatalog): { id: string | number; registered: OperationInfo; args: Record<string, unknown> } | undefined {
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/call' || !onlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  const id = message.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params) || !onlyKeys(params, ['name', 'arguments'])) return undefined;
  const registered = typeof params.name === 'string' ? catalog.operations.get(params.name) : undefined;
  // Null is no object: the server answers it with -32602, as stdio does.
  const args = params.arguments === undefined ? {} : params.arguments;
  if (registered === undefined || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { id: id as string | number, registered, args: args as Record<string, unknown> };
}

/**
 * The JSON-RPC response of a call, written around the answer's JSON: structuredContent is that text
 * spliced in as it is (it passed the operation's response check), never parsed and written again.
 */
function callResponse(id: string | number, outcome: ToolOutcome): string {
  if ('failed' in outcome) return JSON.stringify({ jsonrpc: '2.0', id, result: outcome.failed });
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(outcome.json)}}],"structuredContent":${outcome.json}}}`;
}

/** The /mcp responder: one SDK Server and its transport for the whole service. */
export function createMcpHttp(options: McpHttpOptions): (ctx: KernelContext) => Promise<void> {
  const { executor, bodies } = options;
  const catalog = buildToolCatalog(executor.operations());
  const pending = new Map<number, Pending>();
  let lastId = 0;
  const transport: Transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send(message) {
      if ('id' in message && typeof message.id === 'number' && ('result' in message || 'error' in message)) pending.get(message.id)?.resolve(message);
      return Promise.resolve();
    },
  };
  /** Runs a call of the request `ctx` through the executor, as the POST runs it. */
  const runFor = (ctx: KernelContext): RunTool =>
    async function runTool(operation, args) {
      // For the access log and metrics: a tool call is counted under its operation, as the POST is.
      ctx.state.route = { ...ctx.state.route!, operation };
      // A call that costs more than one request (a recipe's steps) is charged against the same limit (ctx is the Caller).
      return answerText(await executor.run({ operation, body: args, caller: ctx, requestId: ctx.state.requestId }));
    };
  const reportFailure = (ctx: KernelContext): ReportFailure => (error, operation) => logFailure(options.logger, ctx.state.requestId, operation.id, error);
  const server = createToolServer(
    catalog,
    options.version,
    (registered, args, requestId) => {
      const call = pending.get(requestId as number)!;
      return runFor(call.ctx)(registered, args, requestId);
    },
    (error, registered, requestId) => {
      const call = pending.get(requestId as number);
      if (call) reportFailure(call.ctx)(error, registered, requestId);
    },
  );
  // Nothing but our own transport's messages reach the server, so its error channel stays quiet.
  server.onerror = () => undefined;
  void server.connect(transport);

  /** Hands a request to the SDK's Server and waits for its response; undefined when the client left first. */
  async function viaServer(ctx: KernelContext, message: JSONRPCRequest): Promise<string | undefined> {
    const id = ++lastId;
    const response = new Promise<JSONRPCMessage | undefined>((resolve) => pending.set(id, { ctx, resolve }));
    const gone = (): void => pending.get(id)?.resolve(undefined);
    ctx.res.once('close', gone);
    try {
      transport.onmessage?.({ ...message, id });
      const reply = await response;
      if (reply === undefined) return undefined;
      // The client's own id back, whatever it was.
      const body = 'result' in reply ? { result: reply.result } : { error: (reply as { error: unknown }).error };
      return JSON.stringify({ jsonrpc: '2.0', id: message.id, ...body });
    } finally {
      pending.delete(id);
      ctx.res.removeListener('close', gone);
    }
  }

  return async function respondMcp(ctx) {
    const version = ctx.req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
      return rpcFailure(ctx, 400, INVALID_REQUEST, `Unsupported MCP-Protocol-Version; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
    }
    const bytes = await bodies.read(ctx);
    let value: unknown;
    try {
      value = parsedBody(ctx, bytes, bodies);
    } finally {
      // Parsed: its bytes are no longer held.
      bodies.free(bytes.byteLength);
    }
    if (value === undefined) return;
    // The hot path: a well-formed tools/call is run here, its answer spliced into the response.
    const call = plainCall(value, catalog);
    if (call !== undefined) {
      bodies.send(ctx, callResponse(call.id, await callTool(call.registered, call.args, call.id, runFor(ctx), reportFailure(ctx))));
      return;
    }
    const message = checkedMessage(ctx, value);
    if (message === undefined) return;
    // Notifications and responses need no answer, and a stateless server acts on none of them: a
    // cancellation could only ever name another client's request.
    if (!('method' in message) || !('id' in message)) {
      ctx.status = 202;
      return;
    }
    const text = await viaServer(ctx, message);
    if (text !== undefined) bodies.send(ctx, text);
  };
}
