/**
 * The one way to run an operation by name with a body. Every front door — the `/v1` route, MCP over
 * HTTP and stdio, `toolshed call`, `plugin check`, recipes — calls `run()` and nothing else of the
 * request path: validation (400), where the work runs (three places: a built-in's small body on the
 * main thread, its large body on the built-ins' pool, a contained plugin's every request on that
 * plugin's own workers), the deadline (504), the answer check, the answer cap (422
 * `output_too_large`) and the byte budgets (503).
 */
import { isToolshedError, ServerBusyError, type OperationDefinition, type TSchema } from '@toolshed/plugin-sdk';
import type { Config } from './config.js';
import { OPERATION_TIMEOUT, operationTimeout, runOnPool, withinDeadline } from './deadline.js';
import { HandlerContext } from './handler-context.js';
import { HttpError } from './http-error.js';
import type { Logger } from './logger.js';
import { BODY_LIMIT, parseJsonObject } from './middleware/body.js';
import { budgetSpent, ByteBudget } from './byte-budget.js';
import type { PluginWorkers } from './plugin-workers.js';
import type { ContainedOperation, HostedOperation, Registry } from './registry.js';
import { nearestPath, notFoundMessages } from './route-hint.js';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import type { ManifestData } from './manifest-data.js';
import type { EventLoopWatchdog } from './watchdog.js';

/** What a front door may know about an operation: data only (a contained plugin's manifest arrives as data). */
export interface OperationInfo {
  /** `base64.encode`. */
  readonly id: string;
  /** `base64/encode`, the URL tail after `/v1/`. */
  readonly name: string;
  readonly group: string;
  /** The group's one-line summary from its manifest. */
  readonly groupSummary?: string;
  /** The group's words for people from its manifest: a display title, a category, search keywords. */
  readonly groupTitle?: string;
  readonly groupCategory?: string;
  readonly groupKeywords?: readonly string[];
  readonly operation: string;
  /** `/v1/base64/encode`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** The request schema as a client sees it (defaulted fields optional). */
  readonly requestSchema: TSchema;
  readonly responseSchema: TSchema;
  readonly examples: readonly { readonly title?: string; readonly body: Readonly<Record<string, unknown>>; readonly response: unknown; readonly exact?: boolean }[];
  /** The 422 codes it may answer, with what each means. */
  readonly errors: Readonly<Record<string, string>>;
  /** It calls a network upstream (DNS, currency rates): never run speculatively. */
  readonly upstream: boolean;
  /** The manifest's definition of the operation, as data: no handler (new manifest fields appear here). */
  readonly definition: Omit<OperationDefinition, 'handler'>;
  /**
   * Served by the composition root through other operations (kernel/composite.ts), not by a
   * plugin: it may answer any refusal theirs may (502, 504 included).
   */
  readonly composite?: boolean;
  /** Where its work runs as the manifest chose it (`always` for a contained plugin, whose work runs in its own workers); `auto` when left out. */
  readonly offload?: 'auto' | 'always' | 'never';
}

/** One run. `body` is the JSON value, or `{ bytes }`: the raw JSON bytes as a client sent them. */
export interface RunRequest {
  /** `group/operation`. */
  readonly operation: string;
  readonly body: unknown;
  /** Aborted when the caller goes away: the handler's signal fires and pool work stops. */
  readonly signal?: AbortSignal;
  /** Names the run in log lines (never the body). */
  readonly requestId?: string;
  /** A cap on this run's time below the operation's own deadline (what a recipe has left). */
  readonly deadlineMs?: number;
  /**
   * Counts `extra` more requests against the caller's rate limit, or rejects with 429
   * `rate_limited` (counting nothing) when fewer are left. Given by front doors that limit their
   * callers (the HTTP route, MCP over HTTP); a run that costs more than one request calls it before
   * its work.
   */
  readonly charge?: (extra: number) => Promise<void>;
}

/** An answer, checked against the response schema and the answer cap. */
export interface RunAnswer {
  /** As produced: a string from the main thread, UTF-8 bytes from a worker or for a long answer. */
  readonly body: string | Uint8Array;
  /** Its UTF-8 size. */
  readonly bytes: number;
  /** The JSON text. */
  readonly json: string;
  /** The answer parsed, once. */
  value(): unknown;
}

/** See the module comment. */
export interface Executor {
  /** Every enabled operation, in the registry's order. */
  operations(): readonly OperationInfo[];
  /** The operation named `group/operation`, or undefined. */
  find(name: string): OperationInfo | undefined;
  /** The nearest known `group/operation` to a mistyped one, or undefined. */
  nearest(name: string): string | undefined;
  /** Runs one operation; rejects with a ToolshedError (status, code, message, details) for every refusal. */
  run(request: RunRequest): Promise<RunAnswer>;
}

/** The executor as the host's HTTP side uses it besides: 404 messages, the byte budgets and caps. */
export interface HostExecutor extends Executor {
  /** The message of a 404 for a path under /v1 (names a likely operation, or a switched-off group). */
  notFoundMessage(path: string): string;
  /** Body bytes being read and answer bytes being sent, over all requests (HTTP front doors take from them). */
  readonly budgets: { readonly reading: ByteBudget; readonly sending: ByteBudget };
  /** The body cap in bytes (the contract's 10 MiB unless a test lowers it). */
  readonly bodyLimit: number;
  /** The largest answer in bytes. */
  readonly maxAnswerBytes: number;
}

export interface ExecutorOptions {
  readonly registry: Registry;
  readonly config: Config;
  readonly logger: Logger;
  readonly watchdog: EventLoopWatchdog;
  /** The contained plugins' own pools (left out where operations are only listed, not run). */
  readonly pluginWorkers?: PluginWorkers;
  readonly bodyLimit?: number;
  readonly now?: () => Date;
}

/**
 * Answers at least this long (UTF-16 code units) are kept as their UTF-8 bytes, encoded once: as a
 * string, Koa would count its bytes for Content-Length and Node encode it again to write it.
 */
export const LONG_ANSWER_CHARS = 16 * 1024;

const isBytesBody = (body: unknown): body is { bytes: Buffer } => typeof body === 'object' && body !== null && Buffer.isBuffer((body as { bytes?: unknown }).bytes);

function infoOf(registered: HostedOperation | ContainedOperation, plugin: ManifestData | undefined): OperationInfo {
  const { operation, path } = registered;
  const { definition } = operation;
  return {
    id: operation.id,
    name: `${operation.group}/${operation.name}`,
    group: operation.group,
    groupSummary: plugin?.summary,
    groupTitle: plugin?.title,
    groupCategory: plugin?.category,
    groupKeywords: plugin?.keywords,
    offload: registered.placement === 'host' ? registered.offload : 'always',
    operation: operation.name,
    path,
    summary: definition.summary,
    description: definition.description,
    requestSchema: operation.requestSchema,
    responseSchema: operation.responseSchema,
    examples: definition.examples,
    errors: registered.errors,
    upstream: definition.upstream === true,
    definition,
  };
}

function answerOf(body: string | Uint8Array, maxAnswerBytes: number): RunAnswer {
  // A string's UTF-8 size is at most three bytes per code unit: one longer than the cap in
  // characters is too large whatever its bytes, and is not encoded.
  if (typeof body === 'string' && body.length > maxAnswerBytes) throw tooLarge(body.length, maxAnswerBytes);
  const kept = typeof body === 'string' && body.length >= LONG_ANSWER_CHARS ? Buffer.from(body) : body;
  const bytes = typeof kept === 'string' ? Buffer.byteLength(kept) : kept.byteLength;
  if (bytes > maxAnswerBytes) throw tooLarge(bytes, maxAnswerBytes);
  let json: string | undefined;
  let value: unknown;
  let parsed = false;
  return {
    body: kept,
    bytes,
    get json() {
      return (json ??= typeof kept === 'string' ? kept : Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength).toString('utf8'));
    },
    value() {
      if (!parsed) {
        value = JSON.parse(this.json) as unknown;
        parsed = true;
      }
      return value;
    },
  };
}

function tooLarge(bytes: number, limit: number): UnprocessableError {
  return new UnprocessableError('output_too_large', `The answer would be ${bytes} bytes; at most ${limit} are sent`);
}

export function createExecutor(options: ExecutorOptions): HostExecutor {
  const { registry, config, logger, watchdog, pluginWorkers } = options;
  const now = options.now ?? (() => new Date());
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const maxAnswerBytes = config.server.maxAnswerBytes;
  const budgets = { reading: new ByteBudget(config.server.readingBytes), sending: new ByteBudget(config.server.sendingBytes) };
  const plugins = new Map(registry.plugins.map((plugin) => [plugin.group, plugin]));
  const infos = [...registry.operations.values()].map((registered) => infoOf(registered, plugins.get(registered.operation.group)));
  const byName = new Map(infos.map((info) => [info.name, info]));
  const names = infos.map((info) => info.name).sort();
  const notFoundMessage = notFoundMessages(names.map((name) => `/v1/${name}`), registry.disabledGroups);

  /** Runs on the main thread, within the deadline, timing its synchronous parts. */
  async function runHere(registered: HostedOperation, input: () => unknown, request: RunRequest, deadlineMs: number): Promise<string> {
    const running = watchdog.begin(registered.operation.id, request.requestId ?? '');
    try {
      const context = new HandlerContext(request.signal, registered.config, now);
      const pending = watchdog.timed(running, () => registered.operation.run(input(), context));
      const result = await withinDeadline(pending, deadlineMs, () => operationTimeout(registered.operation.id, deadlineMs), () => context.expire());
      return watchdog.timed(running, () => JSON.stringify(result));
    } finally {
      watchdog.done(running);
    }
  }

  async function runOffloaded(registered: HostedOperation | ContainedOperation, bytes: Buffer, request: RunRequest, deadlineMs: number): Promise<Uint8Array> {
    // While the answers being sent already fill their budget, a large request is refused before its work, not after.
    if (budgets.sending.inUse >= budgets.sending.limit) throw budgetSpent('sending', false);
    // Move the bytes into the worker; copy first when the buffer is shared with others (a pooled slab).
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.prototype.slice.call(bytes);
    const options = { requestBudgetMs: config.workers.requestBudgetMs, deadlineMs, signal: request.signal };
    if (registered.placement === 'host') return runOnPool(registered, own, { ...options, bulk: true });
    // A contained plugin's small request is no bulk job: it must not wait behind its large ones.
    const group = registered.operation.group;
    if (pluginWorkers === undefined) throw new Error(`${group} is contained, and this executor has no plugin workers`);
    const pool = pluginWorkers.pool(group);
    try {
      return await runOnPool(registered, own, { ...options, bulk: bytes.byteLength > config.workers.offloadBytes, pool });
    } catch (error) {
      // The operator's way to the plugin whose share is full: which plugin, why; never the body.
      if (error instanceof ServerBusyError) {
        const { workers: threads, maxQueue } = pool.options;
        const reason = pool.stats().queued >= maxQueue ? 'queue full' : 'waited past half its deadline';
        logger.warn({ plugin: group, operation: registered.operation.id, requestId: request.requestId ?? '', reason, threads, maxQueue }, 'plugin workers busy');
      }
      throw error;
    }
  }

  async function run(request: RunRequest): Promise<RunAnswer> {
    const registered = registry.operations.get(`/v1/${request.operation}`);
    if (registered === undefined) throw new HttpError(404, 'not_found', notFoundMessage(`/v1/${request.operation}`));
    const deadlineMs = Math.min(registered.deadlineMs, request.deadlineMs ?? Number.POSITIVE_INFINITY);
    const given = request.body;
    // A value is serialized once: its size decides where it runs and is held to the body cap, and a
    // worker gets the bytes, as it would from a client.
    const bytes = isBytesBody(given) ? given.bytes : Buffer.from(JSON.stringify(given ?? {}));
    if (!isBytesBody(given) && bytes.length > bodyLimit) throw new HttpError(413, 'payload_too_large', `The request body is larger than ${bodyLimit} bytes`);
    // A contained plugin has no handler on this thread to run: its every request goes to its own workers.
    const offload =
      registered.placement === 'own-workers' || registered.offload === 'always' || (registered.offload === 'auto' && bytes.length > registered.offloadBytes);
    try {
      if (offload) return answerOf(await runOffloaded(registered, bytes, request, deadlineMs), maxAnswerBytes);
      const input = isBytesBody(given) ? () => parseJsonObject(bytes) : () => given ?? {};
      return answerOf(await runHere(registered, input, request, deadlineMs), maxAnswerBytes);
    } catch (error) {
      // The operator's way to the culprit: which operation, which request; never the body.
      if (isToolshedError(error) && error.code === OPERATION_TIMEOUT) {
        logger.warn({ operation: registered.operation.id, requestId: request.requestId ?? '', deadlineMs, pool: offload }, 'operation deadline passed');
      }
      throw error;
    }
  }

  return {
    operations: () => infos,
    find: (name) => byName.get(name),
    nearest: (name) => nearestPath(`/v1/${name}`, names.map((known) => `/v1/${known}`))?.slice('/v1/'.length),
    run,
    notFoundMessage,
    budgets,
    bodyLimit,
    maxAnswerBytes,
  };
}
