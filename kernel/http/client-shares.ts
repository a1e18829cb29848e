/**
 * A byte budget every client draws on, of which one client address may hold only a share: the
 * bodies being read (kernel/http/reading-budget.ts) and the answers being sent (kernel/http/http-body.ts).
 * What a request holds already never counts against it, so a request alone always fits, however
 * small the budget or the share.
 */
import type { ByteBudget } from '../host/index.js';

/** Which bound `take` found passed: the address's share, or the budget of all. */
export type SharePassed = 'share' | 'total';

export class ClientShares {
  /** Bytes held per client address; an address holding nothing has no entry. */
  private readonly clients = new Map<string, number>();

  constructor(
    readonly total: ByteBudget,
    readonly share: number,
  ) {}

  /** Bytes `client` holds now. */
  heldBy(client: string): number {
    return this.clients.get(client) ?? 0;
  }

  /** Takes `bytes` for `client`, or names the bound they would pass; `own` is what the same request holds already. */
  take(client: string, bytes: number, own = 0): SharePassed | undefined {
    const held = this.heldBy(client);
    if (held > own && held + bytes > this.share) return 'share';
    if (!this.total.tryTake(bytes, own)) return 'total';
    this.clients.set(client, held + bytes);
    return undefined;
  }

  give(client: string, bytes: number): void {
    this.total.give(bytes);
    const left = this.heldBy(client) - bytes;
    if (left > 0) this.clients.set(client, left);
    // 150,000 addresses a minute must not leave 150,000 entries behind.
    else this.clients.delete(client);
  }

  /** Client addresses holding any, and the most one holds. */
  holders(): { readonly clients: number; readonly largest: number } {
    let largest = 0;
    for (const bytes of this.clients.values()) largest = Math.max(largest, bytes);
    return { clients: this.clients.size, largest };
  }
}
