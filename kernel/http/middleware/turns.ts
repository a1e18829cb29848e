/**
 * Operation requests take turns on the event loop. Requests read in one turn start at once until
 * that turn has worked for `TURN_MS`; later ones wait in arrival order and start in batches in the
 * following turns, each batch sized from the length of the last one's turn so that a turn stays
 * near `TURN_MS`. Without this, every request a busy turn had read ran back to back before any
 * timer fired: under 200 connections one turn held 200 requests' work, and /healthz, deadlines
 * and the bodies of large requests all waited that long
 * (docs/decisions.md, "Requests take turns").
 */
import type { KernelMiddleware } from '../types.js';

/** How long one turn of the event loop may spend starting requests before timers and sockets get theirs. */
export const TURN_MS = 5;
/** The largest batch of waiting requests started in one turn. */
const MAX_BATCH = 1024;

export interface TurnTaking {
  /** Undefined when the caller may start now, else a promise that resolves in a later turn. */
  take(): Promise<void> | undefined;
  /** Resolves a wait of `take()` now, out of its place in the queue (its client left). */
  leave(wait: Promise<void>): void;
}

/** `clock` is `performance.now` but for tests, which count turns instead of timing them. */
export function turnTaking(turnMs = TURN_MS, clock: () => number = () => performance.now()): TurnTaking {
  const waiting: (() => void)[] = [];
  // Only for waits that may be left: taking a turn at once makes nothing.
  const starters = new WeakMap<Promise<void>, () => void>();
  // When this turn's first request started; -1 between turns.
  let turnStarted = -1;
  const endTurn = (): void => {
    turnStarted = -1;
  };
  let pumping = false;
  let batch = 1;
  // When the last batch started (-1: none is being measured), and how many it started.
  let pumpedAt = -1;
  let started = 0;
  // Runs in the check phase. The immediate it schedules runs in the next turn, after that turn's
  // timers and sockets, and measures the turn of the batch started here, the last batch of a wait
  // included. The next batch is the last one scaled by how far its turn missed `turnMs` (a 20 ms
  // turn quarters it), growing at most twofold. A batch measured only while more requests waited
  // was never measured again once it held them all: in the loadtest's attack it stayed at the size
  // it had grown to earlier, and every later wait started in one turn.
  const pump = (): void => {
    const now = clock();
    if (pumpedAt >= 0) {
      const scaled = Math.floor((started * turnMs) / Math.max(now - pumpedAt, Number.MIN_VALUE));
      batch = Math.max(1, Math.min(MAX_BATCH, batch * 2, scaled));
    }
    const starts = waiting.splice(0, batch);
    started = starts.length;
    if (started > 0) {
      pumpedAt = now;
      setImmediate(pump);
    } else {
      pumping = false;
      pumpedAt = -1;
    }
    for (const start of starts) start();
  };
  return {
    take() {
      // While requests wait, a newcomer waits behind them: arrival order is kept.
      if (!pumping) {
        const now = clock();
        if (turnStarted < 0) {
          turnStarted = now;
          setImmediate(endTurn);
          return undefined;
        }
        if (now - turnStarted < turnMs) return undefined;
      }
      let start!: () => void;
      const wait = new Promise<void>((resolve) => (start = resolve));
      waiting.push(start);
      starters.set(wait, start);
      if (!pumping) {
        pumping = true;
        setImmediate(pump);
      }
      return wait;
    },
    leave(wait) {
      const start = starters.get(wait);
      const index = start === undefined ? -1 : waiting.indexOf(start);
      if (index < 0) return;
      waiting.splice(index, 1);
      start!();
    },
  };
}

/** Operation and MCP requests take turns; precomputed answers (health, the OpenAPI document) never wait. */
export function takeTurns(turns: TurnTaking = turnTaking()): KernelMiddleware {
  return function waitForTurn(ctx, next) {
    const route = ctx.state.route;
    if (route === undefined || route.json !== undefined) return next();
    // Gone already (its connection closed before it came here): nothing to wait for.
    if (ctx.res.destroyed) return next();
    const wait = turns.take();
    if (wait === undefined) return next();
    // A client that leaves while it waits goes on at once, to be refused as its body is read: left
    // in the queue, it held its connection and all Node had parsed on it until its turn. A
    // connection cut for sending too many requests ahead (pipelined-requests.ts) held a thousand
    // of them, and under load its waits held 1 GB.
    const res = ctx.res;
    const left = (): void => turns.leave(wait);
    res.once('close', left);
    return wait.then(() => {
      res.removeListener('close', left);
      return next();
    });
  };
}
