/**
 * MCP over Streamable HTTP, stateless, behind the HTTP door's checks: by the time a request gets
 * here its key is known (401 answered) and it is counted against its rate limit. Here the body is
 * read under the door's cap and budgets (413, 415, 503) and handed to the one MCP server
 * (mcp/dispatch.ts), whose response is the answer. Every answer is JSON (no SSE stream: nothing is
 * ever sent unasked). Over the rate limit the route answers itself (`answersOverLimit`): a
 * tools/call is told so in a tool error with the seconds to wait, anything else gets the 429.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { RunInWorker } from '@toolshed/plugin-sdk';
import type { Executor, Logger, OperationInfo } from '../kernel/host/index.js';
import type { HttpBodies, KernelContext } from '../kernel/http/index.js';
import { createMcpServer, type McpScope } from './dispatch.js';
import { INVALID_REQUEST } from './message.js';
import { errorResponse } from './results.js';
import { buildToolCatalog } from './tools.js';

/** What the door needs from the service. */
export interface McpHttpOptions {
  readonly executor: Executor;
  readonly bodies: HttpBodies;
  readonly logger: Logger;
  readonly version: string;
  /** The host's worker pool, and the configuration's `workers.offloadBytes` and `workers.requestBudgetMs`. */
  readonly runInWorker: RunInWorker;
  readonly offloadBytes: number;
  readonly requestBudgetMs: number;
  /** `server.maxAnswerBytes`. */
  readonly maxAnswerBytes: number;
}

/** The route a request was matched to, as the HTTP door keeps it. */
type Route = NonNullable<KernelContext['state']['route']>;

/** The /mcp responder: one MCP server for the whole service. */
export function createMcpHttp(options: McpHttpOptions): (ctx: KernelContext) => Promise<void> {
  const { executor, bodies, offloadBytes } = options;
  const handle = createMcpServer({ ...options, catalog: buildToolCatalog(executor.operations()), unit: 'request' });
  /** The /mcp route with each operation a call runs, made once per operation rather than per call. */
  const routes = new Map<OperationInfo, Route>();

  /** One POST's circumstances: one object per request, its methods shared. */
  class HttpScope implements McpScope {
    constructor(
      // The request is the Caller: its signal made only when asked, a recipe's steps charged against the same limit.
      readonly caller: KernelContext,
      private readonly size: number,
      readonly overLimit: Error | undefined,
    ) {}

    get requestId(): string {
      return this.caller.state.requestId;
    }

    /** Parsed, or moved to a worker: the body's bytes no longer hold the reading budget. */
    onRead(): void {
      bodies.free(this.caller, this.size);
    }

    /** For the access log and metrics: a tool call is counted under its operation, as the POST is. */
    onOperation(operation: OperationInfo): void {
      const { state } = this.caller;
      let route = routes.get(operation);
      if (route === undefined) routes.set(operation, (route = { ...state.route!, operation }));
      state.route = route;
    }
  }

  return async function respondMcp(ctx) {
    const version = ctx.req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) {
      bodies.send(ctx, errorResponse(null, INVALID_REQUEST, `Unsupported MCP-Protocol-Version; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`), undefined, 400);
      return;
    }
    const overLimit = ctx.state.overLimit;
    // Over the limit, a message is read only when it is small enough to read here at once: a larger
    // one (or one of unknown length) gets the 429 unread, as before, which costs the service nothing.
    if (overLimit !== undefined && !(Number(ctx.req.headers['content-length']) <= offloadBytes)) throw overLimit;
    const bytes = await bodies.read(ctx);
    const reply = await handle(bytes, new HttpScope(ctx, bytes.byteLength, overLimit));
    if (reply.body !== undefined) bodies.send(ctx, reply.body, undefined, reply.status);
    else ctx.status = reply.status;
  };
}
