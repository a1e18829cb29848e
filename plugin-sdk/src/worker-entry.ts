/**
 * The script every pool worker runs: it imports the module a job names (once; later jobs reuse it),
 * says the job started, calls the named export and posts the answer. Only SDK errors travel back with their message;
 * other errors travel as their name, because their message may quote the input.
 */
import { parentPort } from 'node:worker_threads';
import { isToolshedError } from './errors.js';
import type { WorkerMessage, WorkerRequest } from './worker-protocol.js';

const post = (message: WorkerMessage): void => parentPort?.postMessage(message);

async function answer(request: WorkerRequest): Promise<WorkerMessage> {
  try {
    const module = (await import(request.module)) as Record<string, unknown>;
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
    return { kind: 'failed', id: request.id, errorName: error instanceof Error ? error.name : typeof error };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  void answer(request).then((message) => {
    try {
      post(message);
    } catch {
      // The value could not be cloned (a function, a symbol): a bug of the plugin's function.
      post({ kind: 'failed', id: request.id, errorName: 'DataCloneError' });
    }
  });
});
