/**
 * Each request's Koa context is also the executor's Caller (kernel/host/caller.ts): `gone()` makes
 * the request's abort signal and its one `close` listener when something first asks (a handler that
 * reads its signal, a job on the pool), `left()` says whether the client went away without making
 * them (a recipe between its steps), `charge()` counts a composite's extra requests against the
 * limit the request was counted under. They live on Koa's context prototype, so a request that
 * needs none of them pays for none.
 */
import type Koa from './vendor/koa.js';
import type { KernelContext, KernelState } from './types.js';

const controllers = Symbol('gone');

/** Installs `gone()` and `charge()` on every context of `app`; `charge` is the rate limit's. */
export function installCaller(app: Koa<KernelState>, charge: (ctx: KernelContext, extra: number) => Promise<void>): void {
  const context = app.context as unknown as KernelContext & { [controllers]?: AbortController };
  context.gone = function gone(this: KernelContext & { [controllers]?: AbortController }): AbortSignal {
    let controller = this[controllers];
    if (controller === undefined) {
      const made = (controller = this[controllers] = new AbortController());
      const res = this.res;
      if (res.destroyed && !res.writableFinished) made.abort();
      else res.once('close', () => {
        if (!res.writableFinished) made.abort();
      });
    }
    return controller.signal;
  };
  context.left = function left(this: KernelContext & { [controllers]?: AbortController }): boolean {
    const controller = this[controllers];
    if (controller !== undefined) return controller.signal.aborted;
    // As gone() would find it: Node marks a response destroyed when its connection closes.
    return this.res.destroyed && !this.res.writableFinished;
  };
  context.charge = function (this: KernelContext, extra: number): Promise<void> {
    return charge(this, extra);
  };
}
