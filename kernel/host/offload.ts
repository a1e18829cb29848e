/**
 * The worker side of an offloaded request: the whole of its CPU work — parse, validate, handler,
 * serialize — runs here, in a thread of the shared pool, so a 10 MiB body costs the main thread
 * only the copying of bytes. Each worker imports a plugin once and keeps its compiled operations.
 */
import type { Plugin, RunInWorker } from '@toolshed/plugin-sdk';
import { catalogOf } from './catalog.js';
import type { OperationCatalog, OperationInfo } from './executor-types.js';
import { parseJsonObject } from './json-body.js';
import { compileOperation, type CompiledOperation } from './operations.js';
import { nestedPool } from './pool/nested-pool.js';

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

/** Runs operation `name` of the plugin at `module` on `input` and returns the JSON answer as UTF-8 bytes. */
async function runParsed(module: string, name: string, input: unknown, config: unknown): Promise<Uint8Array> {
  const operation = await operationOf(module, name);
  const result = await operation.run(input, { signal: neverAborted, config, now: () => new Date(), runInWorker });
  // A whole buffer of its own, so the pool moves it to the main thread instead of copying it.
  return Buffer.from(JSON.stringify(result));
}

/**
 * Runs operation `name` of the plugin at `module` on the raw request body and returns the JSON
 * answer as UTF-8 bytes. SDK errors (400, 422) travel back to the kernel unchanged. The deadline is
 * the kernel's: past it this thread is terminated, so the handler needs no signal of its own here.
 */
export function runOffloaded(module: string, name: string, body: Uint8Array, config: unknown): Promise<Uint8Array> {
  // The plugin is imported before the body is parsed, as before: a parse error still costs the import once.
  return operationOf(module, name).then(() => runParsed(module, name, parseJsonObject(body), config));
}

/** A large body of a composite operation (identify), parsed here by the API's rules rather than on the main thread. */
export function parseJson(body: Uint8Array): unknown {
  return parseJsonObject(body);
}

/** The plugins' operations as the executor shared them, read once per worker. */
const catalogs = new Map<string, OperationCatalog>();

/**
 * A large body of a composite operation (a recipe) parsed and checked here: `exportName` of
 * `module` (the composite's own check) gets the parsed body and the plugins' operations, read from
 * the executor's shared copy; its result goes back to the main thread.
 */
export async function checkComposite(body: Uint8Array, module: string, exportName: string, shared: { key: string; buffer: SharedArrayBuffer }): Promise<unknown> {
  let catalog = catalogs.get(shared.key);
  if (catalog === undefined) {
    catalog = catalogOf(JSON.parse(Buffer.from(shared.buffer).toString('utf8')) as OperationInfo[]);
    catalogs.set(shared.key, catalog);
  }
  const check = ((await import(module)) as Record<string, (body: unknown, operations: OperationCatalog) => unknown>)[exportName];
  if (typeof check !== 'function') throw new Error(`${module} has no export ${exportName}`);
  return check(parseJsonObject(body), catalog);
}

/** The warm-up's job (kernel/host/warm-up.ts): answering it proves a pool worker is up. */
export const ready = (): boolean => true;
