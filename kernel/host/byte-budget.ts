/**
 * A shared allowance of bytes (bodies being read, answers being sent): a request that would pass
 * it is refused with 503 at once instead of letting a handful of clients hold gigabytes.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get inUse(): number {
    return this.used;
  }

  /**
   * Takes `bytes`, or returns false when they do not fit. One request alone always fits, so an
   * allowance smaller than the largest body does not lock that body out for good: `own` is what the
   * caller holds already (a body's earlier chunks), which does not count as someone else's.
   */
  tryTake(bytes: number, own = 0): boolean {
    if (this.used > own && this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}
