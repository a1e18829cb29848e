/**
 * The MCP server, one path for both transports: a message's bytes in (a POST body, a stdio line),
 * a response's bytes out. A message is read where its size says (mcp/message.ts: here, or on the
 * worker pool past `workers.offloadBytes`); initialize, ping and tools/list are answered from what
 * the catalog holds; a tools/call runs its operation through the executor with the arguments as
 * they came (a value read here, the client's own bytes read on a worker), and its answer's JSON is
 * spliced into the response (mcp/results.ts: built on the pool for a large answer or a picture).
 * A refusal is a tool error carrying the API's error body.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, InitializeRequestParamsSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { isToolshedError, UnprocessableError, workerRefusal, type RunInWorker } from '@toolshed/plugin-sdk';
import { answerText, logFailure, type Answer, type Caller, type Executor, type Logger, type OperationInfo } from '../kernel/host/index.js';
import { describer, describeTool, DESCRIBE_TOOL } from './describe.js';
import { INVALID_PARAMS, readMessage, type Message, type MessageUnit, type RequestId } from './message.js';
import { callResult, errorResponse, heldToCap, resultResponse, toolError, type PictureResponse, type ToolErrorBody } from './results.js';
import type { ImageField } from './image.js';
import { nearestTool, type ToolCatalog } from './tools.js';

/** What the transport gives the server. */
export interface McpOptions {
  readonly executor: Executor;
  readonly catalog: ToolCatalog;
  /** The service's version, for serverInfo. */
  readonly version: string;
  /** The host's worker pool. */
  readonly runInWorker: RunInWorker;
  /** `workers.offloadBytes`: a message or answer over it is read or built on the pool. */
  readonly offloadBytes: number;
  /** `workers.requestBudgetMs`: the budget of each such job. */
  readonly requestBudgetMs: number;
  /** `server.maxAnswerBytes`: the largest call result, the answer and its text together (mcp/results.ts heldToCap). */
  readonly maxAnswerBytes: number;
  readonly unit: MessageUnit;
  /** Where a plugin bug (with its request id) and a picture left out are logged. */
  readonly logger: Logger;
}

/** One message's circumstances, as its transport knows them. */
export interface McpScope {
  /** Who asked (told when it goes away, charged for a call that costs more than one request: a recipe). */
  readonly caller?: Caller;
  readonly requestId?: string;
  /** Told once the message's bytes are consumed (parsed here, or moved to the pool): the door may give back what they held. */
  onRead?(): void;
  /** Set when the request is over its rate limit (counted): a tools/call answers it as a tool error, anything else is refused with it. */
  readonly overLimit?: Error;
  /** Told the operation a tools/call runs, before it runs (the access log and metrics count it so). */
  onOperation?(operation: OperationInfo): void;
}

/** What a message comes to: the HTTP status and, for a request, the response's text or bytes. */
export interface McpReply {
  readonly status: 200 | 202 | 400;
  readonly body?: string | Uint8Array;
}

/** JSON-RPC's code for an unknown method. */
const METHOD_NOT_FOUND = -32601;

const messageModule = new URL('./message.js', import.meta.url);
const resultsModule = new URL('./results.js', import.meta.url);

/** The guidance a client may hand its model once, for the whole server. */
const instructions =
  'Exact, stateless utility tools (encodings, hashes, dates, cron, regex, JWT, subnets, units and more). ' +
  'Prefer them to working such things out yourself: the answers are computed, not guessed. ' +
  'Every tool returns JSON (structuredContent); a refusal is a tool error naming the offending fields and what they take. ' +
  `tools/list gives each tool in short; ${DESCRIBE_TOOL} gives one in full (worked example, error codes, output schema, rules across fields): ` +
  'call it when an entry says something is left to it, or a refusal leaves you unsure.';

/** A whole buffer of its own (the pool moves it), copied only when the bytes share theirs. */
const own = (bytes: Uint8Array): Uint8Array => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes));

/** The seconds a refusal says to wait (its `Retry-After`), if it says. */
function retryAfterOf(error: unknown): number | undefined {
  const header = (error as { headers?: Record<string, string> }).headers?.['Retry-After'];
  const seconds = Number(header);
  return header !== undefined && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/** The tool error body of a refusal thrown by the operation or the host (400, 422, 429, 502, 503, 504). */
function refusalBody(error: unknown): ToolErrorBody | undefined {
  if (!isToolshedError(error)) return undefined;
  // As the API's body: a 400's details name every offending field (or the whole input, ""); another
  // status has them only where its refusal has a place (a recipe's failing step).
  const placed = error.details !== undefined && error.details.length > 0 ? error.details : undefined;
  const details = error.status === 400 ? (error.details ?? [{ path: '', message: error.message }]) : placed;
  const retryAfterSeconds = retryAfterOf(error);
  return { code: error.code, message: error.message, ...(details === undefined ? {} : { details }), ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

const INTERNAL_ERROR: ToolErrorBody = { code: 'internal_error', message: 'An internal error occurred; the request id identifies it in the log' };

/** The server over `options`: `handle` answers one message. */
export function createMcpServer(options: McpOptions): (bytes: Buffer, scope: McpScope) => Promise<McpReply> {
  const { executor, catalog, runInWorker, offloadBytes, requestBudgetMs, maxAnswerBytes, unit, logger } = options;
  const listed = JSON.stringify({ tools: [...catalog.tools, describeTool] });
  const describe = describer(new Map<string, Tool>([...catalog.full, [DESCRIBE_TOOL, describeTool]]));
  const names = [...catalog.tools.map((tool) => tool.name), DESCRIBE_TOOL];
  const tooComplex = (): Error => new UnprocessableError('input_too_complex', `The message needs more than ${requestBudgetMs} ms of work`);

  /** Runs `exportName` of `module` on the pool, bulk (a large message or answer); its failures as the API's refusals. */
  async function onPool<T>(module: URL, exportName: string, args: readonly unknown[], transfer: Uint8Array, bulk: boolean): Promise<T> {
    try {
      return await runInWorker<T>(module, exportName, args, { deadlineMs: requestBudgetMs, transfer: [transfer.buffer as ArrayBuffer], bulk });
    } catch (error) {
      throw workerRefusal(error, { timeout: tooComplex });
    }
  }

  const reply = (body: string): McpReply => ({ status: 200, body });

  /** The response to a call whose operation answered `answer` with pictures, or a large one: built on the pool. */
  async function answeredOnPool(id: RequestId, pictures: readonly ImageField[], answer: Answer, operation: OperationInfo, scope: McpScope): Promise<McpReply> {
    const bytes = own(typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body);
    if (pictures.length === 0) return { status: 200, body: await onPool<Uint8Array>(resultsModule, 'responseOnWorker', [id, bytes, maxAnswerBytes], bytes, true) };
    // The answer is small (an SVG): its text is kept here, so a failed drawing still answers.
    const text = answerText(answer);
    const leftOut = (reason: string): void => logger.warn({ requestId: scope.requestId, operation: operation.id, reason }, 'picture left out of a tool result');
    try {
      const drawn = await onPool<PictureResponse>(resultsModule, 'pictureResponseOnWorker', [id, bytes, pictures, maxAnswerBytes], bytes, false);
      if (drawn.leftOut !== undefined) leftOut(drawn.leftOut);
      return { status: 200, body: drawn.response };
    } catch (error) {
      // The pool was busy or the job failed: the answer stands without its picture.
      leftOut(isToolshedError(error) ? error.code : error instanceof Error ? error.name : 'an error');
      return reply(heldToCap(resultResponse(id, callResult(text)), maxAnswerBytes));
    }
  }

  /** A tools/call of a known tool's operation. */
  async function called(message: Message & { kind: 'call' }, operation: OperationInfo, scope: McpScope): Promise<McpReply> {
    const { id, name, args } = message;
    scope.onOperation?.(operation);
    const { caller, requestId } = scope;
    try {
      // Bytes read on a worker reach the executor as the body's bytes, as a POST's do.
      const answer = await executor.run('bytes' in args ? { operation, bytes: args.bytes, caller, requestId } : { operation, body: args.value, caller, requestId });
      const pictures = catalog.images.get(name);
      // Most answers: small and without a picture, built here at once.
      if (pictures === undefined && answer.bytes <= offloadBytes) return reply(heldToCap(resultResponse(id, callResult(answerText(answer))), maxAnswerBytes));
      return await answeredOnPool(id, pictures ?? [], answer, operation, scope);
    } catch (error) {
      const refused = refusalBody(error);
      if (refused !== undefined) return reply(resultResponse(id, toolError(refused)));
      // A plugin bug, the API's 500: the log has its stack under the request id, never the arguments.
      logFailure(logger, scope.requestId, operation.id, error);
      return reply(resultResponse(id, toolError(INTERNAL_ERROR)));
    }
  }

  /** A request other than tools/call. */
  function requested(message: Message & { kind: 'request' }): McpReply {
    const { id, method, params } = message;
    if (method === 'tools/list') {
      if (params?.cursor !== undefined && typeof params.cursor !== 'string') return reply(errorResponse(id, INVALID_PARAMS, 'Invalid params: cursor must be a string'));
      return reply(resultResponse(id, listed));
    }
    if (method === 'ping') return reply(resultResponse(id, '{}'));
    if (method === 'initialize') {
      const checked = InitializeRequestParamsSchema.safeParse(params);
      if (!checked.success) return reply(errorResponse(id, INVALID_PARAMS, 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo {name, version}'));
      const asked = checked.data.protocolVersion;
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      const serverInfo = { name: 'toolshed', title: 'Toolshed utility tools', version: options.version };
      return reply(resultResponse(id, JSON.stringify({ protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo, instructions })));
    }
    return reply(errorResponse(id, METHOD_NOT_FOUND, 'Method not found'));
  }

  /** A small message, read here. */
  function readHere(bytes: Buffer, scope: McpScope): Message {
    try {
      return readMessage(bytes, unit);
    } finally {
      scope.onRead?.();
    }
  }

  /** A message past the offload bound, read on the pool (the bytes move there). */
  function readOnPool(bytes: Buffer, scope: McpScope): Promise<Message> {
    const moved = own(bytes);
    const reading = onPool<Message>(messageModule, 'readOnWorker', [moved, unit], moved, true);
    // Moved into the worker (or refused before): the main thread holds them no more.
    scope.onRead?.();
    return reading;
  }

  return async function handle(bytes, scope) {
    const message = bytes.length <= offloadBytes ? readHere(bytes, scope) : await readOnPool(bytes, scope);
    // Over the rate limit (counted), a tools/call is told so in a result its model reads, with the
    // seconds to wait; anything else is refused as the API refuses it.
    if (scope.overLimit !== undefined && message.kind !== 'call') throw scope.overLimit;
    if (message.kind === 'refused') return { status: message.code === INVALID_PARAMS ? 200 : 400, body: errorResponse(message.id, message.code, message.message) };
    if (message.kind === 'unanswered') return { status: 202 };
    if (message.kind === 'request') return requested(message);
    const { id, name } = message;
    if (scope.overLimit !== undefined) return reply(resultResponse(id, toolError(refusalBody(scope.overLimit) ?? INTERNAL_ERROR)));
    if (name === DESCRIBE_TOOL) {
      if ('bytes' in message.args) return reply(resultResponse(id, toolError({ code: 'validation_failed', message: 'The request body does not match the schema', details: [{ path: '', message: `is over ${offloadBytes} bytes; ${DESCRIBE_TOOL} takes {"name": "<tool>"}` }] })));
      return reply(resultResponse(id, describe(message.args.value)));
    }
    const operation = catalog.operations.get(name);
    if (operation === undefined) {
      const close = nearestTool(name, names);
      const hint = close === undefined ? '' : `; did you mean "${close}"?`;
      return reply(errorResponse(id, INVALID_PARAMS, `Unknown tool: ${name.slice(0, 200)}${hint} tools/list names them all`));
    }
    return called(message, operation, scope);
  };
}
