/**
 * The worker side of an offloaded request: the whole of its CPU work — parse, validate, handler,
 * serialize — runs here, in a thread of the shared pool, so a 10 MiB body costs the main thread
 * only the copying of bytes. Each worker imports a plugin once and keeps its compiled operations.
 * A contained plugin is never imported here: only its large bodies and answers are checked here,
 * against its schemas read from the executor's shared data.
 */
import type { Plugin, RunInWorker } from '@toolshed/plugin-sdk';
import { operationContract, type OperationContract } from '@toolshed/plugin-sdk/contract';
import { answerValue, unreadAnswer } from './answer.js';
import { answerJson } from './answer-json.js';
import { ownsWholeBuffer, type BodyBytes } from './body-bytes.js';
import { catalogOf } from './catalog.js';
import type { OperationCatalog, OperationInfo } from './executor-types.js';
import { jsonBytes, parseJsonObject } from './json-body.js';
import { compileOperation, type CompiledOperation } from './operations.js';
import { parseAnswer } from './plugin-process/answer-check.js';
import { nestedPool } from './pool/nested-pool.js';
import { moving, type Moving } from './pool/protocol.js';

const operations = new Map<string, Promise<CompiledOperation>>();
/** Each plugin imported in this worker, warmed once whichever of its operations came first. */
const plugins = new Map<string, Promise<Plugin>>();
const neverAborted = new AbortController().signal;
/** A handler's own runInWorker here: this worker's nested pool of one thread. */
const runInWorker: RunInWorker = (module, exportName, args, options) => nestedPool()!.run(module, exportName, args, options);

function pluginOf(module: string): Promise<Plugin> {
  let plugin = plugins.get(module);
  if (plugin === undefined) {
    plugin = import(module).then(async (loaded: { default: Plugin }) => {
      await loaded.default.warm?.();
      return loaded.default;
    });
    plugins.set(module, plugin);
  }
  return plugin;
}

function operationOf(module: string, name: string): Promise<CompiledOperation> {
  const key = `${module}#${name}`;
  let operation = operations.get(key);
  if (operation === undefined) {
    operation = pluginOf(module).then((plugin) => compileOperation(plugin, name));
    operations.set(key, operation);
  }
  return operation;
}

/**
 * Runs operation `name` of the plugin at `module` on `input` and returns the JSON answer as UTF-8
 * bytes; with `unreadCap`, an answer nobody reads: only held to that cap, and no bytes returned.
 */
async function runParsed(module: string, name: string, input: unknown, config: unknown, unreadCap: number | undefined): Promise<Uint8Array> {
  const operation = await operationOf(module, name);
  const result = await operation.run(input, { signal: neverAborted, config, now: () => new Date(), runInWorker });
  if (unreadCap !== undefined) {
    unreadAnswer(result, unreadCap);
    return new Uint8Array(0);
  }
  // A whole buffer of its own, so the pool moves it to the main thread instead of copying it.
  const json = answerJson(result);
  return typeof json === 'string' ? Buffer.from(json) : json;
}

/**
 * Runs operation `name` of the plugin at `module` on the raw request body (its chunks as the main
 * thread read them: kernel/host/body-bytes.ts) and returns the JSON answer as UTF-8 bytes. SDK
 * errors (400, 422) travel back to the kernel unchanged. The deadline is the kernel's: past it
 * this thread is terminated, so the handler needs no signal of its own here.
 */
export function runOffloaded(module: string, name: string, body: BodyBytes, config: unknown, unreadCap?: number): Promise<Uint8Array> {
  // The plugin is imported before the body is parsed, as before: a parse error still costs the import once.
  return operationOf(module, name).then(() => runParsed(module, name, parseJsonObject(body), config, unreadCap));
}

/** A large body of a composite operation (identify), parsed here by the API's rules rather than on the main thread. */
export function parseJson(body: BodyBytes): unknown {
  return parseJsonObject(body);
}

/** A large value a composite writes (a recipe step's body), written here (kernel/host/composite-json.ts). */
export function writeJson(value: unknown): Uint8Array {
  return jsonBytes(value);
}

/** A large answer a composite reads (an earlier step's, for a `$from`), parsed here. */
export function readJson(bytes: Uint8Array): unknown {
  return answerValue({ body: bytes, bytes: bytes.byteLength });
}

/** The plugins' operations as the executor shared them, read once per worker. */
const catalogs = new Map<string, OperationCatalog>();

/** The executor's shared copy of the plugins' operations. */
interface SharedCatalog {
  readonly key: string;
  readonly buffer: SharedArrayBuffer;
}

function catalogFrom(shared: SharedCatalog): OperationCatalog {
  let catalog = catalogs.get(shared.key);
  if (catalog === undefined) {
    catalog = catalogOf(JSON.parse(Buffer.from(shared.buffer).toString('utf8')) as OperationInfo[]);
    catalogs.set(shared.key, catalog);
  }
  return catalog;
}

/** Contained operations' contracts made from their shared data, by catalog and name. */
const contracts = new Map<string, OperationContract>();

/** The contract of operation `name` (`group/operation`) from its data alone: its handler is in the plugin's processes. */
function contractOf(name: string, shared: SharedCatalog): OperationContract {
  const key = `${shared.key}#${name}`;
  let contract = contracts.get(key);
  if (contract === undefined) {
    const info = catalogFrom(shared).find(name);
    if (info === undefined) throw new Error(`${name} is not in the shared operations`);
    // Reads the schemas only; the definition's missing handler is never called.
    contract = operationContract({ group: info.group, operations: { [info.operation]: info.definition } } as unknown as Plugin, info.operation);
    contracts.set(key, contract);
  }
  return contract;
}

/** A contained operation's large body, parsed and checked (defaults filled) here; the JSON its process gets. */
export function acceptContained(body: BodyBytes, name: string, shared: SharedCatalog): Uint8Array {
  return Buffer.from(JSON.stringify(contractOf(name, shared).accept(parseJsonObject(body))));
}

/** A contained operation's large answer, parsed and checked against its response schema here, and written again. */
export function checkContainedAnswer(answer: Uint8Array, name: string, shared: SharedCatalog): Uint8Array {
  const contract = contractOf(name, shared);
  return Buffer.from(JSON.stringify(contract.answer(parseAnswer(answer, contract.id))));
}

/**
 * A large body of a composite operation (a recipe) parsed and checked here: `exportName` of
 * `module` (the composite's own check) gets the parsed body, the plugins' operations, read from
 * the executor's shared copy, and the composite's `data`; its result goes back to the main thread,
 * the byte arrays it made (a recipe's step bodies written here) moved there rather than copied.
 */
export async function checkComposite(body: BodyBytes, module: string, exportName: string, shared: SharedCatalog, data?: unknown): Promise<Moving> {
  const catalog = catalogFrom(shared);
  const check = ((await import(module)) as Record<string, (body: unknown, operations: OperationCatalog, data: unknown) => unknown>)[exportName];
  if (typeof check !== 'function') throw new Error(`${module} has no export ${exportName}`);
  const checked = check(parseJsonObject(body), catalog, data);
  return moving(checked, ownBuffers(checked));
}

/**
 * The buffers of the byte arrays in `value` that are each the whole of their own buffer: made by
 * this job, held by nothing else here. Walked without recursion; strings end the walk at once.
 */
function ownBuffers(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const seen = new Set<object>();
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    if (next instanceof Uint8Array) {
      if (ownsWholeBuffer(next)) found.add(next.buffer as ArrayBuffer);
    } else if (!ArrayBuffer.isView(next)) for (const child of Object.values(next)) stack.push(child);
  }
  return [...found];
}

/** The warm-up's job (kernel/host/warm-up.ts): answering it proves a pool worker is up. */
export const ready = (): boolean => true;
