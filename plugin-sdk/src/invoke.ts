/**
 * The test helper: runs an operation through the real validation pipeline, without HTTP.
 */
import type { Static, TSchema } from 'typebox';
import { compileOperation, resolvePluginConfig, type CompiledOperation } from './operation.js';
import type { OperationDefinition, OperationMap, Plugin } from './define.js';

/** Options for {@link invoke}. */
export interface InvokeOptions {
  /** The plugin's config section; validated and completed with defaults like the kernel does. */
  readonly config?: unknown;
  /** A fixed clock. */
  readonly now?: () => Date;
  /** An abort signal (default: never aborted). */
  readonly signal?: AbortSignal;
}

/**
 * What operation `name` of a plugin with `Operations` answers: the static type of its response
 * schema, or `unknown` for a name the type does not know (a plugin typed only as `Plugin`).
 */
export type InvokeResult<Operations extends OperationMap, Name extends string> =
  // The body and config types play no part in the answer's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  Operations[Name] extends OperationDefinition<any, infer Response extends TSchema, any> ? Static<Response> : unknown;

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
  };
  // The kernel hands over a fresh parsed object; do the same so the caller's object stays untouched.
  // run() checks the answer against the response schema, as the kernel serves it.
  return (await operation.run(structuredClone(body), context)) as InvokeResult<Operations, Name>;
}
