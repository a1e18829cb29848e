/**
 * The task every worker of the host's pool runs (piscina imports this file once per thread): it
 * imports the module a job names (import() keeps it for later jobs), says the job started, calls the
 * named export and returns the answer. Only SDK errors travel back with their message; anything else
 * travels as its name and stack frames, because its message may quote the input.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { contractFaultOf } from '@toolshed/plugin-sdk/contract';
import { ownsWholeBuffer } from '../body-bytes.js';
import { freshBundle } from '../bundles.js';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { isMoving, movingBuffers, type JobAnswer, type JobRequest, type JobStarted, type PoolWorkerData } from './protocol.js';

// A thread's own switch (the main thread's does not reach it): stacks of the modules this worker
// imports name their TypeScript lines when they ship source maps, as on the main thread under
// `serve`, `plugin check` and `plugin dev` (docs/decisions.md).
process.setSourceMapsEnabled(true);

/**
 * Lowers this thread's CPU priority alone. Linux schedules threads as tasks with their own
 * niceness; /proc/thread-self names the calling thread's task id. Elsewhere (no /proc) the pool
 * runs at normal priority. piscina's own `niceIncrement` is not used: it adds to the niceness through
 * an optional native module, where this only ever lowers to the configured value.
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
lowerPriority((workerData as Partial<PoolWorkerData> | null)?.toolshedPool?.niceness ?? 0);

/** What each job module is imported by in this worker: its fresh single-file build when it has one. */
const specifiers = new Map<string, string>();
function specifierOf(module: string): string {
  let specifier = specifiers.get(module);
  if (specifier === undefined) {
    const bundle = module.startsWith('file:') && !/[?#]/.test(module) ? freshBundle(fileURLToPath(module)) : undefined;
    specifiers.set(module, (specifier = bundle === undefined ? module : pathToFileURL(bundle).href));
  }
  return specifier;
}

async function answer(request: JobRequest): Promise<JobAnswer> {
  try {
    const module = (await import(specifierOf(request.module))) as Record<string, unknown>;
    const started: JobStarted = { toolshedJobStarted: request.id };
    parentPort?.postMessage(started);
    const fn = module[request.exportName];
    if (typeof fn !== 'function') return { kind: 'failed', errorName: 'TypeError', frames: [] };
    const value: unknown = await (fn as (...args: readonly unknown[]) => unknown)(...request.args);
    // piscina would fail to post it, and its worker die with an error that says nothing: a bug of the function.
    if (!cloneable(value)) return { kind: 'failed', errorName: 'DataCloneError', frames: [] };
    return { kind: 'result', value };
  } catch (error) {
    if (isToolshedError(error)) {
      const { status, code, message, details } = error;
      return { kind: 'sdk-error', error: { status, code, message, details: details === undefined ? undefined : [...details] } };
    }
    // A plugin's broken contract travels with its fault (operation, code, pointers: nothing of the input).
    const fault = contractFaultOf(error);
    // Code locations only, never the message, which may quote the input.
    const frames = error instanceof Error ? (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).map((line) => line.trim()) : [];
    return { kind: 'failed', errorName: error instanceof Error ? error.name : typeof error, frames, ...(fault ? { fault } : {}) };
  }
}

/**
 * False when `value` holds what postMessage cannot clone: a function, a symbol, a promise or a weak
 * collection. Walked without copying; bytes and strings end the walk at once.
 */
function cloneable(value: unknown, seen = new Set<object>()): boolean {
  if (typeof value === 'function' || typeof value === 'symbol') return false;
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || seen.has(value)) return true;
  if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet || value instanceof WeakRef) return false;
  seen.add(value);
  const children = value instanceof Map ? [...value.keys(), ...value.values()] : value instanceof Set ? [...value] : Object.values(value);
  return children.every((child) => cloneable(child, seen));
}

/**
 * A result that is a whole Uint8Array (not a slice of a shared buffer) moves to the caller instead of
 * being copied: a 30 MB answer then exists once, not twice; so do the buffers a job names in a
 * `moving()` value (protocol.ts). piscina transfers what a task returns through `move()`: the
 * answer rides as the value, its buffers as the transferables.
 */
function movable(result: JobAnswer): unknown {
  if (result.kind !== 'result') return result;
  const { value } = result;
  if (isMoving(value)) return moved({ kind: 'result', value: value.value }, movingBuffers(value));
  return value instanceof Uint8Array && ownsWholeBuffer(value) ? moved(result, [value.buffer as ArrayBuffer]) : result;
}

/** `answer` with `buffers` handed to piscina as its transferables. */
function moved(answer: JobAnswer, buffers: readonly ArrayBuffer[]): unknown {
  return buffers.length === 0 ? answer : move({ [transferableSymbol]: [...buffers], [valueSymbol]: answer });
}

/** piscina's task: never rejects (see protocol.ts). */
export default async function runJob(request: JobRequest): Promise<unknown> {
  return movable(await answer(request));
}
