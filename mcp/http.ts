/**
 * MCP over Streamable HTTP, stateless, behind the kernel's checks: by the time a request gets here
 * its key is known (401 answered), it is counted against its rate limit (429 answered) and it is a
 * POST. Here the body is read under the kernel's cap and budgets (413, 415, 503), checked as one
 * JSON-RPC message, and handed to the one SDK Server of the service through a transport that
 * gives each request an id of its own (clients all count from 1) and waits for its response. Every
 * answer is JSON (no SSE stream: nothing is ever sent unasked).
 */
import { SUPPORTED_PROTOCOL_VERSIONS, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isToolshedError } from '@toolshed/plugin-sdk';
import type { Logger } from '../kernel/logger.js';
import { parseJsonObject } from '../kernel/middleware/body.js';
import { answer, checkedAnswerSize, readRequestBytes, runOperation, type DispatchLimits } from '../kernel/middleware/dispatch.js';
import { logFailure } from '../kernel/middleware/errors.js';
import type { RegisteredOperation, Registry } from '../kernel/registry.js';
import { JSON_TYPE, type KernelContext, type Route } from '../kernel/types.js';
import { createToolServer } from './server.js';
import { buildToolCatalog } from './tools.js';

/** What the door needs from the service. */
export interface McpHttpOptions {
  readonly registry: Registry;
  readonly logger: Logger;
  readonly version: string;
}

/** A request waiting for the server's response. */
interface Pending {
  readonly ctx: KernelContext;
  readonly bytes: Buffer;
  readonly limits: DispatchLimits;
  readonly resolve: (response: JSONRPCMessage | undefined) => void;
}

const workerModule = new URL('./worker.js', import.meta.url);

/** JSON-RPC's codes for a message that is not JSON, and for one that is no valid request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Answers with a JSON-RPC error that belongs to no request (id null), as HTTP `status`. */
function rpcFailure(ctx: KernelContext, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.res.setHeader('Content-Type', JSON_TYPE);
  ctx.body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** The message in `bytes`, or undefined once a JSON-RPC error is answered. */
function messageOf(ctx: KernelContext, bytes: Buffer): JSONRPCMessage | undefined {
  // Batches left JSON-RPC over MCP with protocol 2025-06-18; one message per request.
  const first = bytes.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  if (bytes[first] === 0x5b) return void rpcFailure(ctx, 400, INVALID_REQUEST, 'Batches are not supported: send one JSON-RPC message per request');
  let value: unknown;
  try {
    // The API's own JSON rules: UTF-8, at most 64 levels deep, a position for a syntax error.
    value = parseJsonObject(bytes);
  } catch (error) {
    if (!isToolshedError(error)) throw error;
    return void rpcFailure(ctx, 400, PARSE_ERROR, `Parse error: ${error.message}`);
  }
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) return void rpcFailure(ctx, 400, INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 request, notification or response');
  return checked.data;
}

/** The /mcp responder: one SDK Server and its transport for the whole service. */
export function createMcpHttp(options: McpHttpOptions): NonNullable<Route['respond']> {
  const catalog = buildToolCatalog(options.registry);
  // For the access log and metrics: a tool call is counted under its operation, as the POST is.
  const operationRoutes = new Map<RegisteredOperation, Route>([...catalog.operations.values()].map((registered) => [registered, { method: 'POST', public: false, operation: registered }]));
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
  const server = createToolServer(
    catalog,
    options.version,
    async (registered, args, requestId) => {
      const call = pending.get(requestId as number)!;
      call.ctx.state.route = operationRoutes.get(registered);
      const input = { bytes: call.bytes, parse: () => args, worker: { module: workerModule, name: 'runToolCall' } };
      const json = await runOperation(call.ctx.res, registered, input, call.limits);
      checkedAnswerSize(json, call.limits.maxAnswerBytes);
      return json;
    },
    (error, registered, requestId) => logFailure(options.logger, pending.get(requestId as number)?.ctx.state.requestId, registered.operation.id, error),
  );
  // Nothing but our own transport's messages reach the server, so its error channel stays quiet.
  server.onerror = () => undefined;
  void server.connect(transport);

  return async function respondMcp(ctx, limits) {
    const version = ctx.req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
      return rpcFailure(ctx, 400, INVALID_REQUEST, `Unsupported MCP-Protocol-Version; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
    }
    let sent = 0;
    const bytes = await readRequestBytes(ctx, limits, () => sent);
    const message = messageOf(ctx, bytes);
    if (message === undefined) return;
    // Notifications and responses need no answer, and a stateless server acts on none of them: a
    // cancellation could only ever name another client's request.
    if (!('method' in message) || !('id' in message)) {
      ctx.status = 202;
      return;
    }
    const id = ++lastId;
    const response = new Promise<JSONRPCMessage | undefined>((resolve) => pending.set(id, { ctx, bytes, limits, resolve }));
    const gone = (): void => pending.get(id)?.resolve(undefined);
    ctx.res.once('close', gone);
    try {
      transport.onmessage?.({ ...message, id });
      const reply = await response;
      if (reply === undefined) return;
      // The client's own id back, whatever it was.
      sent = answer(ctx, JSON.stringify({ ...reply, id: message.id }), limits, false);
    } finally {
      pending.delete(id);
      ctx.res.removeListener('close', gone);
    }
  };
}
