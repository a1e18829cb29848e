/**
 * The test helper: runs an operation through the real validation pipeline, without HTTP.
 */
import type { Static, TSchema } from 'typebox';
import { importHost } from './harness.js';
import { operationContract, resolvePluginConfig, type OperationContract } from './operation.js';
import { WorkerJobError, type RunInWorker } from './worker-errors.js';
import type { OperationDefinition, OperationMap, Plugin } from './define.js';

/** Options for {@link invoke}. */
export interface InvokeOptions {
  /** The plugin's config section; validated and completed with defaults like the kernel does. */
  readonly config?: unknown;
  /** A fixed clock. */
  readonly now?: () => Date;
  /** An abort signal (default: never aborted). */
  readonly signal?: AbortSignal;
  /** What the handler's `context.runInWorker` does (default: see {@link testWorkerRunner}). */
  readonly runInWorker?: RunInWorker;
}

/**
 * What operation `name` of a plugin with `Operations` answers: the static type of its response
 * schema, or `unknown` for a name the type does not know (a plugin typed only as `Plugin`).
 */
export type InvokeResult<Operations extends OperationMap, Name extends string> =
  // The body and config types play no part in the answer's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Operations[Name] extends OperationDefinition<any, infer Response extends TSchema, any> ? Static<Response> : unknown;

const compiled = new WeakMap<Plugin, Map<string, OperationContract>>();

function operationOf(plugin: Plugin, name: string): OperationContract {
  let operations = compiled.get(plugin);
  if (operations === undefined) compiled.set(plugin, (operations = new Map()));
  let operation = operations.get(name);
  if (operation === undefined) operations.set(name, (operation = operationContract(plugin, name)));
  return operation;
}

/**
 * Calls `plugin`'s operation `name` with `body` as the kernel would: defaults, validation (a
 * mismatch throws InputError with details), handler. The response is then checked against the
 * operation's response schema, so a test fails when a handler returns a field the contract lacks.
 * The answer is typed from the operation's response schema. `body` is deliberately `unknown`: tests
 * send bodies the schema refuses, to see the refusal.
 *
 * @example
 * const { base64: encoded } = await invoke(base64, 'encode', { text: 'hi' });
 * assert.equal(encoded, 'aGk=');
 */
export async function invoke<Operations extends OperationMap, Name extends string>(
  plugin: Plugin<Operations>,
  name: Name,
  body: unknown,
  options: InvokeOptions = {},
): Promise<InvokeResult<Operations, Name>> {
  const operation = operationOf(plugin, name);
  const context = {
    signal: options.signal ?? new AbortController().signal,
    config: resolvePluginConfig(plugin, options.config),
    now: options.now ?? (() => new Date()),
    // Looked up when first called: the handler starts before invoke() yields, as in the service.
    runInWorker: options.runInWorker ?? inTestWorker,
  };
  // The host hands over a fresh parsed object; do the same so the caller's object stays untouched.
  return (await operation.run(structuredClone(body), context)) as InvokeResult<Operations, Name>;
}

/**
 * Runs the function in this thread, in the test's own process: it imports the module and calls
 * the export, and answers WorkerJobError `timeout` once the deadline passes (a synchronous loop
 * cannot be interrupted here).
 */
const inThisThread: RunInWorker = async <Result>(module: URL, exportName: string, args: readonly unknown[], options: { deadlineMs: number }) => {
  const loaded = (await import(module.href)) as Record<string, (...args: readonly unknown[]) => unknown>;
  const fn = loaded[exportName];
  if (typeof fn !== 'function') throw new WorkerJobError('failed', 'TypeError');
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new WorkerJobError('timeout')), options.deadlineMs)));
  try {
    return (await Promise.race([Promise.resolve(fn(...args)), expired])) as Result;
  } finally {
    clearTimeout(timer);
  }
};

let runner: Promise<RunInWorker> | undefined;

const inTestWorker: RunInWorker = async (module, exportName, args, options) => (await testWorkerRunner())(module, exportName, args, options);

/**
 * The `context.runInWorker` that `invoke()` hands a handler: the Toolshed host's own worker threads
 * when the host is installed beside the plugin (as `startTestKernel` needs it too), so deadlines
 * interrupt even a catastrophic regex exactly as in the service; otherwise the function runs in
 * this thread.
 */
export function testWorkerRunner(): Promise<RunInWorker> {
  return (runner ??= importHost().then(
    (host) => host?.runInWorker ?? inThisThread,
    () => inThisThread,
  ));
}
