/**
 * What a contained plugin's process does with one request (child-entry.ts wires it to its stdin
 * and stdout): parse the body the service checked, call the handler, and turn what comes out into
 * one message, with the built-ins frames.ts kept before the plugin was imported. Nothing here is
 * trusted by the service: the plugin's module runs in this process and may have replaced anything
 * this code relies on, so the answer travels as bytes the service parses and checks itself, and a
 * refusal as plain fields it rebuilds.
 */
import { isToolshedError, WorkerJobError, type OperationContext, type Plugin, type RunInWorker } from '@toolshed/plugin-sdk';
import { byteLength, fromJson, text, toJson, utf8 } from './frames.js';
import { framesOf, type ServingHeader } from './protocol.js';

const copy = structuredClone;

/** The plugin at `specifier`, imported and warmed. */
export async function loadServed(specifier: string): Promise<Plugin> {
  const plugin = ((await import(specifier)) as { default: Plugin }).default;
  await plugin.warm?.();
  return plugin;
}

/**
 * `context.runInWorker` in a plugin's own process: the function runs in this process's thread.
 * The process is the unit of containment: the request's deadline ends the whole process, so a job
 * needs no thread of its own to be stoppable, and a process without the `worker` grant may not
 * start threads anyway. Its own deadline still answers `timeout` for work that awaits.
 */
export const inThisProcess: RunInWorker = async <Result>(module: URL, exportName: string, args: readonly unknown[], options: { deadlineMs: number }) => {
  const loaded = (await import(module.href)) as Record<string, unknown>;
  const fn = loaded[exportName];
  if (typeof fn !== 'function') throw new WorkerJobError('failed', 'TypeError');
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new WorkerJobError('timeout')), options.deadlineMs)));
  try {
    // Arguments are copied, as they would be into a thread.
    return (await Promise.race([Promise.resolve((fn as (...values: unknown[]) => unknown)(...copy(args))), expired])) as Result;
  } finally {
    clearTimeout(timer);
  }
};

/** Never aborted: past the deadline, or when the client leaves, the service ends this whole process. */
const neverAborted = new AbortController().signal;

/** One message for the service: a header and, for an answer, its JSON bytes. */
export interface Reply {
  readonly header: ServingHeader;
  readonly payload?: Uint8Array;
}

/** A refusal as plain fields; the service rebuilds it and checks its status and code. */
function refusalOf(id: number, error: { status: number; code: string; message: string; details?: unknown }): Reply {
  const { status, code, message, details } = error;
  return { header: { kind: 'refusal', id, status, code, message, ...(details === undefined ? {} : { details }) } };
}

/**
 * Runs operation `operation` of `plugin` on `body` (JSON bytes) and returns the one reply for `id`.
 * An answer longer than `maxAnswerBytes` is not sent, only its length (the service answers 422
 * `output_too_large`); what a handler throws that is not an SDK error travels as its name and stack
 * frames, never its message, which may quote the input.
 */
export async function serveRequest(plugin: Plugin, id: number, operation: string, body: Uint8Array, config: unknown, maxAnswerBytes: number): Promise<Reply> {
  try {
    const definition = Object.hasOwn(plugin.operations, operation) ? plugin.operations[operation] : undefined;
    if (typeof definition?.handler !== 'function') return { header: { kind: 'failed', id, errorName: 'TypeError', frames: [] } };
    const input = fromJson(text(body));
    const context: OperationContext = { signal: neverAborted, config, now: () => new Date(), runInWorker: inThisProcess };
    // Called unbound, as the service calls a trusted handler: its stack then reads `at handler`, as the plugin's own tests expect.
    const { handler } = definition;
    const result: unknown = await handler(input as never, context as never);
    // undefined has no JSON: the empty payload is what the service then finds is not JSON.
    const payload = utf8(toJson(result) ?? '');
    if (byteLength(payload) > maxAnswerBytes) return { header: { kind: 'too-large', id, bytes: byteLength(payload) } };
    return { header: { kind: 'answer', id }, payload };
  } catch (error) {
    if (isToolshedError(error)) return refusalOf(id, error);
    return { header: { kind: 'failed', id, errorName: error instanceof Error ? String(error.name).slice(0, 100) : typeof error, frames: framesOf(error) } };
  }
}
