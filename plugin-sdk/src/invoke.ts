/**
 * The test helper: runs an operation through the real validation pipeline, without HTTP.
 */
import { compileOperation, resolvePluginConfig, type CompiledOperation } from './operation.js';
import type { Plugin } from './define.js';

/** Options for {@link invoke}. */
export interface InvokeOptions {
  /** The plugin's config section; validated and completed with defaults like the kernel does. */
  readonly config?: unknown;
  /** A fixed clock. */
  readonly now?: () => Date;
  /** An abort signal (default: never aborted). */
  readonly signal?: AbortSignal;
}

const compiled = new WeakMap<Plugin, Map<string, CompiledOperation>>();

function operationOf(plugin: Plugin, name: string): CompiledOperation {
  let operations = compiled.get(plugin);
  if (operations === undefined) compiled.set(plugin, (operations = new Map()));
  let operation = operations.get(name);
  if (operation === undefined) operations.set(name, (operation = compileOperation(plugin, name)));
  return operation;
}

/**
 * Calls `plugin`'s operation `name` with `body` as the kernel would: defaults, validation (a
 * mismatch throws InputError with details), handler. The response is then checked against the
 * operation's response schema, so a test fails when a handler returns a field the contract lacks.
 *
 * @example
 * const result = await invoke(base64, 'encode', { text: 'hi' });
 * assert.deepEqual(result, { base64: 'aGk=' });
 */
export async function invoke(plugin: Plugin, name: string, body: unknown, options: InvokeOptions = {}): Promise<unknown> {
  const operation = operationOf(plugin, name);
  const context = {
    signal: options.signal ?? new AbortController().signal,
    config: resolvePluginConfig(plugin, options.config),
    now: options.now ?? (() => new Date()),
  };
  // The kernel hands over a fresh parsed object; do the same so the caller's object stays untouched.
  // run() checks the answer against the response schema, as the kernel serves it.
  return operation.run(structuredClone(body), context);
}
