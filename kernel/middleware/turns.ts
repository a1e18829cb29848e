/**
 * Operation requests take turns on the event loop. Requests read in one turn start at once until
 * that turn has worked for `TURN_MS`; later ones wait in arrival order and start in batches in the
 * following turns, each batch sized so that a turn stays near `TURN_MS`. Without this, every
 * request a busy turn had read ran back to back before any timer fired: under 200 connections one
 * turn held 200 requests' work (50–80 ms on a 2-core machine), and /healthz, deadlines and the
 * bodies of large requests all waited that long (docs/decisions.md, "Requests take turns").
 */
import type { KernelMiddleware } from '../types.js';

/** How long one turn of the event loop may spend starting requests before timers and sockets get theirs. */
export const TURN_MS = 5;
/** The largest batch of waiting requests started in one turn. */
const MAX_BATCH = 1024;

export interface TurnTaking {
  /** Undefined when the caller may start now, else a promise that resolves in a later turn. */
  take(): Promise<void> | undefined;
}

/** `clock` is `performance.now` but for tests, which count turns instead of timing them. */
export function turnTaking(turnMs = TURN_MS, clock: () => number = () => performance.now()): TurnTaking {
  const waiting: (() => void)[] = [];
  // When this turn's first request started; -1 between turns.
  let turnStarted = -1;
  const endTurn = (): void => {
    turnStarted = -1;
  };
  let pumping = false;
  let batch = 1;
  let pumpedAt = -1;
  // Runs in the check phase. The immediate it schedules runs in the next turn, after that turn's
  // timers and sockets; a batch whose turn stayed short is doubled, one whose turn ran long halved.
  const pump = (): void => {
    const now = clock();
    if (pumpedAt >= 0) batch = now - pumpedAt > turnMs ? Math.max(1, batch >> 1) : Math.min(MAX_BATCH, batch * 2);
    const starts = waiting.splice(0, batch);
    if (waiting.length > 0) {
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
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (!pumping) {
          pumping = true;
          setImmediate(pump);
        }
      });
    },
  };
}

/** Operation and MCP requests take turns; precomputed answers (health, the OpenAPI document) never wait. */
export function takeTurns(turns: TurnTaking = turnTaking()): KernelMiddleware {
  return function waitForTurn(ctx, next) {
    const route = ctx.state.route;
    if (route === undefined || route.json !== undefined) return next();
    const wait = turns.take();
    return wait === undefined ? next() : wait.then(next);
  };
}
