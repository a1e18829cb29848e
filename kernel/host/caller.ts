/**
 * The door's side of a run, asked only when needed, so a small request that needs none of it makes
 * no signal and no listener: the HTTP door's request context is one (kernel/http/caller.ts).
 */
export interface Caller {
  /** Aborted when the caller goes away (the handler's signal fires, pool work stops); made on the first ask. */
  gone(): AbortSignal;
  /** True once the caller has gone away: asked between a composite's runs, it makes no signal. */
  left(): boolean;
  /**
   * Counts `extra` more requests against the caller's rate limit, or rejects with 429
   * `rate_limited` (counting nothing) when fewer are left: a composite that costs more than one
   * request calls it before its work. Resolves at once where the door limits nobody.
   */
  charge(extra: number): Promise<void>;
}
