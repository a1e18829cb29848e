/**
 * The HTTP door's reading budget: the request body bytes held at once over all requests
 * (`server.readingBytes`, 503 past it), the share of them one client address may hold
 * (`server.readingBytesPerClient`, 429 past it), and the slowest a body may arrive
 * (`server.minBodyBytesPerSecond` once `server.bodyRateGraceMs` have passed, 408 below it). A body
 * holds what has arrived of it, never what it declares; a body alone always fits, so a budget or a
 * share smaller than the largest body does not lock that body out for good.
 */
import { ByteBudget, Roster, type RosterMember } from '../host/index.js';
import { ClientShares } from './client-shares.js';
import { HttpError } from './http-error.js';

export interface ReadingLimits {
  readonly readingBytes: number;
  readonly readingBytesPerClient: number;
  /** 0: no floor. */
  readonly minBodyBytesPerSecond: number;
  readonly bodyRateGraceMs: number;
}

/** The time the rate floor is measured with; tests hand in their own. */
export interface ReadingClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

const realClock: ReadingClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    // Bodies still being read never keep a stopping process alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** How often bodies being read are checked against the rate floor. */
export const RATE_CHECK_MS = 1000;

/** What the reading budget holds now, for tests and the loadtest. */
export interface ReadingStats {
  /** Body bytes held, over all requests. */
  readonly bytes: number;
  /** Client addresses holding any. */
  readonly clients: number;
  /** The most one client address holds. */
  readonly largestClientBytes: number;
  /** Bodies being read now. */
  readonly reading: number;
}

/** One body's hold on the budget, from its first byte until it is read (and, if read, until it is freed). */
export class BodyHold implements RosterMember {
  /** Decoded bytes held (what memory the body takes). */
  held = 0;
  /** Bytes arrived on the wire (what the rate floor counts). */
  received = 0;
  rosterIndex = -1;
  constructor(
    readonly client: string,
    readonly started: number,
    /** Ends the reading with the refusal (the rate floor's 408). */
    readonly cut: (error: HttpError) => void,
  ) {}
}

export class ReadingBudget {
  /** Bytes held, over all requests and per client address. */
  private readonly held: ClientShares;
  /** Bodies being read, for the rate floor. */
  private readonly watched = new Roster<BodyHold>();
  private reading = 0;
  private stopTicking: (() => void) | undefined;

  constructor(
    readonly limits: ReadingLimits,
    private readonly clock: ReadingClock = realClock,
  ) {
    this.held = new ClientShares(new ByteBudget(limits.readingBytes), limits.readingBytesPerClient);
  }

  /** Body bytes held now, over all requests. */
  get inUse(): number {
    return this.held.total.inUse;
  }

  /** Starts counting a body `client` sends; `cut` ends its reading when it arrives below the floor. */
  open(client: string, cut: (error: HttpError) => void): BodyHold {
    const hold = new BodyHold(client, this.clock.now(), cut);
    this.reading++;
    if (this.limits.minBodyBytesPerSecond > 0) {
      this.watched.add(hold);
      // The check runs while bodies are being read, and stops at the first check that finds none.
      this.stopTicking ??= this.clock.every(RATE_CHECK_MS, () => this.checkRates());
    }
    return hold;
  }

  /**
   * Counts `bytes` more of the body: the refusal when they do not fit the client's share (429) or
   * the budget (503), each of which the body's own earlier bytes never count against.
   */
  take(hold: BodyHold, bytes: number): HttpError | undefined {
    const passed = this.held.take(hold.client, bytes, hold.held);
    if (passed !== undefined) return passed === 'share' ? shareSpent(this.held.share) : readingSpent();
    hold.held += bytes;
    return undefined;
  }

  /** The body is read (its bytes stay held until {@link give}) or refused (`kept` false: given back now). */
  end(hold: BodyHold, kept: boolean): void {
    this.reading--;
    this.watched.remove(hold);
    if (!kept) this.give(hold.client, hold.held);
  }

  /** Gives back `bytes` of a body `client` sent, once they are consumed. */
  give(client: string, bytes: number): void {
    this.held.give(client, bytes);
  }

  /**
   * Cuts every body being read for longer than the grace period that has arrived slower than the
   * floor on average since its reading began. Runs every {@link RATE_CHECK_MS}; a test calls it itself.
   */
  checkRates(): void {
    if (this.watched.size === 0) {
      this.stopTicking?.();
      this.stopTicking = undefined;
      return;
    }
    const now = this.clock.now();
    const { minBodyBytesPerSecond: floor, bodyRateGraceMs: grace } = this.limits;
    // A cut takes its hold out of the roster: the holds are visited from a copy.
    for (const hold of this.watched.list()) {
      const elapsed = now - hold.started;
      if (elapsed >= grace && hold.received * 1000 < floor * elapsed) hold.cut(tooSlow(floor));
    }
  }

  stats(): ReadingStats {
    const { clients, largest } = this.held.holders();
    return { bytes: this.held.total.inUse, clients, largestClientBytes: largest, reading: this.reading };
  }
}

// Each refusal closes the connection: the rest of the body is never read as a next request.

/** 503: the bodies of all clients together are at the budget. */
const readingSpent = (): HttpError =>
  new HttpError(503, 'server_busy', 'The service is reading too much data at once; retry shortly', { 'Retry-After': '1', Connection: 'close' });

/** 429: this address's bodies are at its share; the others' are not refused for it. */
const shareSpent = (share: number): HttpError =>
  new HttpError(429, 'rate_limited', `This client address is sending more than ${share} bytes of request bodies at once; retry in 1 s`, { 'Retry-After': '1', Connection: 'close' });

const tooSlow = (floor: number): HttpError =>
  new HttpError(408, 'request_timeout', `The request body arrived slower than ${floor} bytes per second`, { Connection: 'close' });
