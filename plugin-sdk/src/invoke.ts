/**
 * The test helper: runs an operation through the real validation pipeline, without HTTP.
 */
import type { Static, TSchema } from 'typebox';
import { operationContract, resolvePluginConfig, type OperationContract } from './operation.js';
import { WorkerJobError, type RunInWorker, type RunInWorkerOptions } from './worker-errors.js';
import type { OperationDefinition, OperationMap, Plugin } from './define.js';

/** Options for {@link invoke}. */
export interface InvokeOptions {
  /** The plugin's config section; validated and completed with defaults like the kernel does. */
  readonly config?: unknown;
  /** A fixed clock. */
  readonly now?: () => Date;
  /** An abort signal (default: never aborted). */
  readonly signal?: AbortSignal;
  /**
   * What the handler's `context.runInWorker` does: the host's worker threads when the test hands
   * them in (`import { runInWorker } from 'toolshed/testing'`), so a deadline stops even a
   * synchronous loop as in the service; by default the function runs in this thread (see
   * {@link inThisThread}).
   */
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
 * send bodies the schema refuses, to see the refusal. The answer's type is `NoInfer`: destructured
 * (`const { roman } = await invoke(…)`), TypeScript would otherwise infer the plugin back from the
 * pattern through TypeBox's `Static`, about ten seconds of a plugin's `tsc`.
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
): Promise<NoInfer<InvokeResult<Operations, Name>>> {
  const operation = operationOf(plugin, name);
  const context = {
    signal: options.signal ?? new AbortController().signal,
    config: resolvePluginConfig(plugin, options.config),
    now: options.now ?? (() => new Date()),
    runInWorker: options.runInWorker ?? inThisThread,
  };
  // The host hands over a fresh parsed object; do the same so the caller's object stays untouched.
  return (await operation.run(structuredClone(body), context)) as InvokeResult<Operations, Name>;
}

/**
 * Runs the function in this thread, in the test's own process, as the host's pool would answer:
 * it imports the module and calls the export, and rejects with WorkerJobError `timeout` once the
 * deadline passes and `aborted` once the signal fires. A synchronous loop cannot be interrupted
 * here: it answers when it ends.
 */
const inThisThread: RunInWorker = async <Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions) => {
  const { deadlineMs, signal } = options;
  const loaded = (await import(module.href)) as Record<string, (...args: readonly unknown[]) => unknown>;
  const fn = loaded[exportName];
  if (typeof fn !== 'function') throw new WorkerJobError('failed', 'TypeError');
  // Checked after the import, in the same turn as the listener below: no abort falls between them.
  if (signal?.aborted === true) throw new WorkerJobError('aborted');
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WorkerJobError('timeout')), deadlineMs);
    signal?.addEventListener('abort', (onAbort = () => reject(new WorkerJobError('aborted'))), { once: true });
  });
  try {
    return (await Promise.race([Promise.resolve(fn(...args)), stopped])) as Result;
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
};

/** What {@link workerJobRecorder} gives: the runner to hand to {@link invoke}, and the jobs it ran. */
export interface WorkerJobRecorder {
  readonly runInWorker: RunInWorker;
  /** The export of each job run so far, in order. */
  readonly jobs: readonly string[];
}

/**
 * A `runInWorker` for {@link invoke} that runs each job in this thread, as invoke's own does, and
 * records its export: a test that an operation keeps small inputs where it is and hands large ones
 * to the pool reads `jobs` after each call.
 */
export function workerJobRecorder(): WorkerJobRecorder {
  const jobs: string[] = [];
  const runInWorker: RunInWorker = <Result>(module: URL, exportName: string, args: readonly unknown[], options: RunInWorkerOptions) => {
    jobs.push(exportName);
    return inThisThread<Result>(module, exportName, args, options);
  };
  return { runInWorker, jobs };
}
