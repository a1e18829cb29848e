/**
 * What a handler gets besides its body (the SDK's OperationContext): an abort signal, its plugin's
 * configuration, a clock, and the host's worker threads. A class with a getter, not an object
 * literal: a literal with an accessor is rebuilt as a new hidden class on every request. The
 * signal is made only for handlers that ask for it.
 */
import type { OperationContext, RunInWorker } from '@toolshed/plugin-sdk';
import type { Caller } from './caller.js';

export class HandlerContext implements OperationContext {
  #controller: AbortController | undefined;
  #expired = false;

  /** `caller` says when the caller goes away (the client closed its connection); asked only if the handler asks for its signal. */
  constructor(
    private readonly caller: Caller | undefined,
    readonly config: unknown,
    readonly now: () => Date,
    readonly runInWorker: RunInWorker,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const gone = this.caller?.gone();
      if (this.#expired || gone?.aborted === true) controller.abort();
      else gone?.addEventListener('abort', () => controller.abort(), { once: true });
    }
    return this.#controller.signal;
  }

  /** The deadline passed: the handler's signal fires, so work it handed on (fetch, a worker job) stops. */
  expire(): void {
    this.#expired = true;
    this.#controller?.abort();
  }
}
