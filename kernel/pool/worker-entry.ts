/**
 * The script every pool worker runs: it imports the module a job names (once; later jobs reuse it),
 * says the job started, calls the named export and posts the answer. Only SDK errors travel back with their message;
 * other errors travel as their name, because their message may quote the input.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { preferBundle } from '../bundles.js';
import { contractFaultOf, isToolshedError } from '@toolshed/plugin-sdk';
import type { WorkerMessage, WorkerRequest } from './worker-protocol.js';

const post = (message: WorkerMessage): void => parentPort?.postMessage(message);

/** What each job module is imported by in this worker: decided once, since import() keeps the module anyway. */
const specifiers = new Map<string, string>();
function specifierOf(module: string): string {
  let specifier = specifiers.get(module);
  if (specifier === undefined) specifiers.set(module, (specifier = preferBundle(module)));
  return specifier;
}

/**
 * Lowers this thread's CPU priority alone. Linux schedules threads as tasks with their own
 * niceness; /proc/thread-self names the calling thread's task id. Elsewhere (no /proc) the pool
 * runs at normal priority.
 */
function lowerPriority(niceness: number): void {
  if (niceness <= 0) return;
  try {
    const task = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // Only ever lower: a service already started with `nice` keeps its own, lower priority.
    if (Number.isInteger(task) && task > 0 && getPriority(task) < niceness) setPriority(task, niceness);
  } catch {
    // Not Linux, or /proc is not mounted: nothing to lower.
  }
}
lowerPriority((workerData as { toolshedPool?: { niceness?: number } } | null)?.toolshedPool?.niceness ?? 0);

async function answer(request: WorkerRequest): Promise<WorkerMessage> {
  try {
    // The job module's single-file build when it has a fresh one: the first job after a worker starts is faster.
    const module = (await import(specifierOf(request.module))) as Record<string, unknown>;
    // From here on the job's own clock runs: booting and importing were not its doing.
    post({ kind: 'started', id: request.id });
    const fn = module[request.exportName];
    if (typeof fn !== 'function') return { kind: 'failed', id: request.id, errorName: 'TypeError' };
    const value: unknown = await (fn as (...args: readonly unknown[]) => unknown)(...request.args);
    return { kind: 'result', id: request.id, value };
  } catch (error) {
    if (isToolshedError(error)) {
      const { status, code, message, details } = error;
      return { kind: 'sdk-error', id: request.id, error: { status, code, message, details: details === undefined ? undefined : [...details] } };
    }
    // A plugin's broken contract travels with its fault (operation, code, pointers: nothing of the input).
    const fault = contractFaultOf(error);
    // The stack's frames (code locations, never the message, which may quote the input) let the
    // log name where a contained plugin failed.
    const frames = error instanceof Error ? (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).map((line) => line.trim()) : [];
    return { kind: 'failed', id: request.id, errorName: error instanceof Error ? error.name : typeof error, frames, ...(fault ? { fault } : {}) };
  }
}

/**
 * A result that is a whole Uint8Array (not a slice of a shared pool) moves to the caller instead of
 * being copied: a 30 MB answer then exists once, not twice.
 */
function movable(message: WorkerMessage): ArrayBuffer[] {
  if (message.kind !== 'result' || !(message.value instanceof Uint8Array)) return [];
  const bytes = message.value;
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}

parentPort?.on('message', (request: WorkerRequest) => {
  void answer(request).then((message) => {
    try {
      parentPort?.postMessage(message, movable(message));
    } catch {
      // The value could not be cloned (a function, a symbol): a bug of the plugin's function.
      post({ kind: 'failed', id: request.id, errorName: 'DataCloneError' });
    }
  });
});
