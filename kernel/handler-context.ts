/**
 * What a handler gets besides its body (the SDK's OperationContext): an abort signal, its plugin's
 * configuration, a clock, and the host's worker threads. A class with a getter, not an object
 * literal: a literal with an accessor is rebuilt as a new hidden class on every request. The
 * signal is made only for handlers that ask for it.
 */
import type { OperationContext, RunInWorker } from '@toolshed/plugin-sdk';
import { workerPool } from './pool/process-pool.js';

/** `context.runInWorker`: the host's pool (in a pool worker, that worker's own nested one). */
export const runInWorker: RunInWorker = (module, exportName, args, options) => workerPool().run(module, exportName, args, options);

export class HandlerContext implements OperationContext {
  #controller: AbortController | undefined;
  #expired = false;
  readonly runInWorker = runInWorker;

  /** `caller` is aborted when the caller goes away (the client closed its connection). */
  constructor(
    private readonly caller: AbortSignal | undefined,
    readonly config: unknown,
    readonly now: () => Date,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#expired || this.caller?.aborted === true) controller.abort();
      else this.caller?.addEventListener('abort', () => controller.abort(), { once: true });
    }
    return this.#controller.signal;
  }

  /** The deadline passed: the handler's signal fires, so work it handed on (fetch, a worker job) stops. */
  expire(): void {
    this.#expired = true;
    this.#controller?.abort();
  }
}
