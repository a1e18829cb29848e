/**
 * The one way to run an operation by name with a body. Every front door — HTTP, MCP over HTTP and
 * stdio, `toolshed call`, `plugin check`, recipes — calls `run()` and nothing else of the host:
 * parsing and validation (400), where the work runs (a built-in's small body on the main thread,
 * its large body on the host's pool, a contained plugin's handler in that plugin's own processes,
 * a composite through the plugins' operations), the deadline (504), the answer check and
 * the answer cap (422 `output_too_large`). Plugins' operations and composites are entries of one
 * table: one lookup, one nearest name, one answer type.
 */
export type { CompositeJson, CompositeOperation, CompositeRequest, Executor, OperationCatalog, OperationInfo, RunRequest } from './executor-types.js';
import { isToolshedError, UnprocessableError, workerRefusal, type RunInWorker } from '@toolshed/plugin-sdk';
import { answerOf, answerTooLarge, unreadAnswer, type Answer } from './answer.js';
import { answerJson, LONG_STRING_CHARS } from './answer-json.js';
import { byteLengthOf, movableBytes, type BodyBytes } from './body-bytes.js';
import type { ByteBudget } from './byte-budget.js';
import type { CompositeOperation, Executor, OperationCatalog, OperationInfo, RunRequest } from './executor-types.js';
import { compositeJson } from './composite-json.js';
import type { Config } from './config.js';
import { OPERATION_TIMEOUT, operationTimeout, runOnPool } from './deadline.js';
import { HandlerContext } from './handler-context.js';
import { AnswerLedger } from './held-answers.js';
import { BODY_LIMIT, parseJsonObject } from './json-body.js';
import type { Logger } from './logger.js';
import type { ManifestData } from './manifest-data.js';
import { catalogOf } from './catalog.js';
import { parseAnswer } from './plugin-process/answer-check.js';
import { isPluginRefusal } from './plugin-process/refusal-check.js';
import type { PluginProcesses } from './plugin-process/plugin-processes.js';
import type { WorkerPool } from './pool/worker-pool.js';
import { budgetSpent, payloadTooLarge, unknownOperation } from './refusals.js';
import type { ContainedOperation, HostedOperation, Registry } from './registry.js';
import type { EventLoopWatchdog } from './watchdog.js';

export interface ExecutorOptions {
  readonly registry: Registry;
  readonly config: Config;
  readonly logger: Logger;
  readonly watchdog: EventLoopWatchdog;
  /** The host's pool (left out where operations are only listed, not run). */
  readonly pool?: WorkerPool;
  /** The contained plugins' own processes (left out where operations are only listed, not run). */
  readonly pluginProcesses?: PluginProcesses;
  /** Answers produced and not yet delivered: a large request waits for none, it is refused while they fill it. */
  readonly answers?: ByteBudget;
  readonly bodyLimit?: number;
  readonly now?: () => Date;
  /** Made once the plugins' operations are known, from the catalog of those (the composition root's recipes). */
  readonly composites?: (operations: Executor) => readonly CompositeOperation[];
}

/** A table entry: what the executor runs for a name. */
type Entry =
  | { readonly kind: 'plugin'; readonly info: OperationInfo; readonly registered: HostedOperation | ContainedOperation }
  | { readonly kind: 'composite'; readonly info: OperationInfo; readonly composite: CompositeOperation };

/** Where a listed OperationInfo keeps its entry, so a door that resolved an operation once (a route) hands it back without a lookup. */
const ENTRY = Symbol('entry');
type Listed = OperationInfo & { [ENTRY]?: Entry };

function listed(entry: Entry): Entry {
  Object.defineProperty(entry.info, ENTRY, { value: entry });
  return entry;
}

function infoOf(registered: HostedOperation | ContainedOperation, plugin: ManifestData | undefined): OperationInfo {
  const { operation } = registered;
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

const offloadModule = new URL('./offload.js', import.meta.url);

/**
 * A contained operation's body or answer up to this size that breaks its schema is described on the
 * main thread; a larger one on the pool (see acceptHere): at the largest fan a manifest may have,
 * describing 8 KiB costs a few milliseconds.
 */
export const DESCRIBED_HERE_BYTES = 8 * 1024;

export function createExecutor(options: ExecutorOptions): Executor {
  const { registry, config, logger, watchdog, pool, pluginProcesses, answers } = options;
  const now = options.now ?? (() => new Date());
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const maxAnswerBytes = config.server.maxAnswerBytes;
  const manifests = new Map(registry.plugins.map((plugin) => [plugin.group, plugin]));
  const table = new Map<string, Entry>();
  for (const registered of registry.operations.values()) {
    const info = infoOf(registered, manifests.get(registered.operation.group));
    table.set(info.name, listed({ kind: 'plugin', info, registered }));
  }
  const pluginCatalog = catalogOf([...table.values()].map((entry) => entry.info));
  const hostPool = (): WorkerPool => {
    if (pool === undefined) throw new Error('This executor lists operations and runs none');
    return pool;
  };
  /** A handler's `context.runInWorker`: the host's pool. */
  const runInWorker: RunInWorker = (module, exportName, args, jobOptions) => hostPool().run(module, exportName, args, jobOptions);

  /**
   * Runs on the main thread, within the deadline, timing its synchronous parts. The answer of a
   * body from LONG_STRING_CHARS bytes is written by answerJson, which costs a short answer a few
   * tenths of a microsecond more than JSON.stringify: small requests keep JSON.stringify alone.
   */
  async function runHere(registered: HostedOperation, input: unknown, request: RunRequest, deadlineMs: number, large: boolean): Promise<string | Uint8Array> {
    const id = registered.operation.id;
    const running = watchdog.begin(id, request.requestId ?? '');
    try {
      const context = new HandlerContext(request.caller, registered.config, now, runInWorker);
      let started = performance.now();
      const pending = registered.operation.run(input, context);
      watchdog.took(running, started);
      const result = await watchdog.within(running, pending, deadlineMs, () => {
        context.expire();
        return operationTimeout(id, deadlineMs);
      });
      started = performance.now();
      // A long answer comes as its bytes, written once (kernel/host/answer-json.ts); one nobody reads is not written.
      const json = request.unread === true ? unreadAnswer(result, maxAnswerBytes).body : large ? answerJson(result) : JSON.stringify(result);
      watchdog.took(running, started);
      return json;
    } finally {
      watchdog.done(running);
    }
  }

  async function runOffloaded(registered: HostedOperation, bytes: BodyBytes, request: RunRequest, deadlineMs: number): Promise<Uint8Array> {
    // While the answers being sent already fill their budget, a large request is refused before its work, not after.
    if (answers !== undefined && answers.inUse >= answers.limit) throw budgetSpent('sending');
    const jobOptions = { requestBudgetMs: config.workers.requestBudgetMs, deadlineMs, signal: request.caller?.gone() };
    // The body moves as it is, its chunks unjoined (kernel/host/body-bytes.ts).
    return runOnPool(registered, bytes, { ...jobOptions, bulk: true, pool: hostPool(), unreadCap: request.unread === true ? maxAnswerBytes : undefined });
  }

  /**
   * A contained plugin's request: the body checked here (defaults filled: the plugin only ever sees
   * a body its schema takes), the handler run in the plugin's own processes, and its answer, which
   * crosses as bytes, parsed and checked against the response schema here and written again by the
   * host, so nothing the plugin patched in its own process reaches a client. A large body or answer
   * is checked on the host's pool, not on the main thread.
   */
  async function runContained(registered: ContainedOperation, bytes: BodyBytes, input: unknown, request: RunRequest, deadlineMs: number): Promise<Answer> {
    const { operation } = registered;
    if (pluginProcesses === undefined) throw new Error(`${operation.group} is contained, and this executor has no plugin processes`);
    const large = byteLengthOf(bytes) > config.workers.offloadBytes;
    if (large && answers !== undefined && answers.inUse >= answers.limit) throw budgetSpent('sending');
    const accepted = large ? await checkOnPool('acceptContained', bytes, registered, request) : await acceptHere(registered, bytes, input, request);
    let answer: Uint8Array;
    try {
      answer = await pluginProcesses.run(operation.group, operation.name, accepted, { deadlineMs, signal: request.caller?.gone(), requestId: request.requestId, bulk: large });
    } catch (error) {
      // A 422 of the plugin's own with a code its operation does not declare is its bug (500).
      throw isPluginRefusal(error) ? operation.refusal(error) : error;
    }
    // Checked on the pool within the plugin's share of such checks: a plugin that answers all its pipelined requests at once cannot fill the pool.
    const checkOnItsShare = (): Promise<Uint8Array> => pluginProcesses.checkAnswer(operation.group, () => checkOnPool('checkContainedAnswer', answer, registered, request));
    if (answer.byteLength > config.workers.offloadBytes) return answerOf(await checkOnItsShare(), maxAnswerBytes);
    const value = parseAnswer(answer, operation.id);
    if (operation.answerFits(value)) return answerOf(JSON.stringify(value), maxAnswerBytes);
    // What is wrong with it is told on the pool when it is not small (acceptHere), else here.
    if (answer.byteLength > DESCRIBED_HERE_BYTES) return answerOf(await checkOnItsShare(), maxAnswerBytes);
    return answerOf(JSON.stringify(operation.answer(value)), maxAnswerBytes);
  }

  /**
   * A contained operation's body of at most `workers.offloadBytes`, checked here. Why one breaks
   * the schema is told here only when the body is small: describing it costs about the schema's
   * fan times its size (plugin-sdk/src/check-cost.ts), the schema is the plugin's, and a crafted
   * 63 KiB body cost 44–56 ms to describe. A larger one is described on the pool.
   */
  async function acceptHere(registered: ContainedOperation, bytes: BodyBytes, input: unknown, request: RunRequest): Promise<Uint8Array> {
    const { operation } = registered;
    const parsed = input ?? parseJsonObject(bytes);
    const accepted = operation.acceptedOrNot(parsed);
    if (accepted !== undefined) return Buffer.from(JSON.stringify(accepted));
    if (byteLengthOf(bytes) > DESCRIBED_HERE_BYTES) return checkOnPool('acceptContained', bytes, registered, request);
    return Buffer.from(JSON.stringify(operation.accept(parsed)));
  }

  /**
   * Job `job` of offload.ts on the host's pool: a large request's parsing, checking or writing, as
   * a bulk job within the request's budget. `transfer`, buffers no one else holds, move there.
   */
  async function onPool<T>(job: string, args: readonly unknown[], request: Pick<RunRequest, 'caller' | 'deadlineMs'>, transfer: readonly ArrayBuffer[] = []): Promise<T> {
    const deadlineMs = Math.min(config.workers.requestBudgetMs, request.deadlineMs ?? Number.POSITIVE_INFINITY);
    try {
      return await hostPool().run<T>(offloadModule, job, args, { deadlineMs, signal: request.caller?.gone(), transfer, bulk: true });
    } catch (error) {
      throw workerRefusal(error, {
        timeout: () => new UnprocessableError('input_too_complex', `The input needs more than ${deadlineMs} ms of work`),
        crashed: () => new UnprocessableError('input_too_complex', 'The input needs more memory than one request may use'),
      });
    }
  }

  /** A contained operation's large body or answer, checked and written again on the pool, with the plugins' operations as shared data. */
  function checkOnPool(job: 'acceptContained' | 'checkContainedAnswer', bytes: BodyBytes, registered: ContainedOperation, request: RunRequest): Promise<Uint8Array> {
    const { body, transfer } = movableBytes(bytes);
    return onPool(job, [body, `${registered.operation.group}/${registered.operation.name}`, catalogData()], request, transfer);
  }

  /** The body size over which a request to `operation` does its work on the pool. */
  function offloadBoundOf(operation: OperationInfo): number {
    const entry = table.get(operation.name);
    return entry?.kind === 'plugin' && entry.registered.placement === 'host' ? entry.registered.offloadBytes : config.workers.offloadBytes;
  }

  async function runPlugin(registered: HostedOperation | ContainedOperation, request: RunRequest): Promise<Answer> {
    const deadlineMs = request.deadlineMs === undefined ? registered.deadlineMs : Math.min(registered.deadlineMs, request.deadlineMs);
    let bytes: BodyBytes | undefined = request.bytes;
    let input: unknown;
    if (bytes === undefined) {
      // A value is serialized once: its size decides where it runs and is held to the body cap.
      input = request.body ?? {};
      bytes = Buffer.from(JSON.stringify(input));
      if (bytes.byteLength > bodyLimit) throw payloadTooLarge(bodyLimit);
    }
    // A contained plugin has no handler on this thread to run: its handler runs in its own processes.
    const contained = registered.placement === 'own-processes';
    const size = byteLengthOf(bytes);
    const offload = contained || registered.offload === 'always' || (registered.offload === 'auto' && size > registered.offloadBytes);
    try {
      if (contained) return await runContained(registered, bytes, input, request, deadlineMs);
      if (offload) return answerOf(await runOffloaded(registered, bytes, request, deadlineMs), maxAnswerBytes);
      return answerOf(await runHere(registered, input ?? parseJsonObject(bytes), request, deadlineMs, size >= LONG_STRING_CHARS), maxAnswerBytes);
    } catch (error) {
      // The operator's way to the culprit: which operation, which request; never the body.
      if (isToolshedError(error) && error.code === OPERATION_TIMEOUT) {
        logger.warn({ operation: registered.operation.id, requestId: request.requestId ?? '', deadlineMs, pool: offload }, 'operation deadline passed');
      }
      throw error;
    }
  }

  async function runComposite(composite: CompositeOperation, info: OperationInfo, request: RunRequest): Promise<Answer> {
    const { bytes } = request;
    const { check } = composite;
    let body: unknown;
    if (bytes === undefined || byteLengthOf(bytes) <= config.workers.offloadBytes) {
      // Timed under the composite's own name: a block here is the composite's, not a step's.
      const running = watchdog.begin(info.id, request.requestId ?? '');
      try {
        body = watchdog.timed(running, () => {
          const parsed = bytes === undefined ? (request.body ?? {}) : parseJsonObject(bytes);
          return check === undefined ? parsed : check.here(parsed, pluginCatalog);
        });
      } finally {
        watchdog.done(running);
      }
    } else {
      // A large body is parsed and checked on the pool: the main thread only moves its bytes, unjoined.
      const { body: moving, transfer } = movableBytes(bytes);
      const [job, args] = check === undefined ? ['parseJson', [moving]] : ['checkComposite', [moving, check.module.href, check.exportName, catalogData(), check.data]];
      const running = watchdog.begin(info.id, request.requestId ?? '');
      try {
        body = await onPool(job, args, request, transfer);
      } finally {
        watchdog.done(running);
      }
    }
    const held = new AnswerLedger(answers, maxAnswerBytes);
    // The JSON it writes and reads between its runs is placed as those runs' own work is.
    const json = compositeJson(offloadBoundOf, (job, args, transfer) => onPool(job, args, request, transfer));
    try {
      const answer = await composite.run(body, { caller: request.caller, requestId: request.requestId, deadlineMs: request.deadlineMs, held, json }, pluginOperations);
      if (answer.bytes > maxAnswerBytes) throw answerTooLarge(answer.bytes, maxAnswerBytes);
      return answer;
    } finally {
      held.close();
    }
  }

  let shared: { key: string; buffer: SharedArrayBuffer } | undefined;
  /** The plugins' operations as data a pool worker reads once (kernel/host/offload.ts): shared, so a large request copies none of it. */
  function catalogData(): { key: string; buffer: SharedArrayBuffer } {
    if (shared === undefined) {
      const json = Buffer.from(JSON.stringify(pluginCatalog.operations()));
      const buffer = new SharedArrayBuffer(json.byteLength);
      json.copy(Buffer.from(buffer));
      shared = { key: `${process.pid}:${performance.timeOrigin}:${Math.random()}`, buffer };
    }
    return shared;
  }

  /** An executor over all operations, or over the plugins' only (a composite's steps). */
  function executorOf(within: OperationCatalog): Executor {
    const pluginsOnly = within === pluginCatalog;
    return {
      ...within,
      run(request) {
        const { operation } = request;
        const entry = typeof operation === 'string' ? table.get(operation) : ((operation as Listed)[ENTRY] ?? table.get(operation.name));
        if (entry === undefined || (pluginsOnly && entry.kind === 'composite')) {
          const name = typeof operation === 'string' ? operation : operation.name;
          throw unknownOperation(name, within.nearest(name));
        }
        return entry.kind === 'plugin' ? runPlugin(entry.registered, request) : runComposite(entry.composite, entry.info, request);
      },
    };
  }

  const pluginOperations = executorOf(pluginCatalog);
  const composites = options.composites?.(pluginOperations) ?? [];
  for (const composite of composites) {
    const info: OperationInfo = { ...composite.info, composite: true };
    if (table.has(info.name)) throw new Error(`The composite operation ${info.name} is served already`);
    table.set(info.name, listed({ kind: 'composite', info, composite }));
  }
  return executorOf(catalogOf([...table.values()].map((entry) => entry.info)));
}
