// Requests take turns on the event loop (kernel/http/middleware/turns.ts). Outcomes are counted in turns
// of the loop, never timed: the clock is the test's, and a chain of immediates numbers the turns.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { takeTurns, turnTaking, type TurnTaking } from '../kernel/http/middleware/turns.js';
import type { KernelContext } from '../kernel/http/types.js';

/** Numbers the turns of the event loop from now on: an immediate schedules the next one, one per turn. */
function countTurns(): { now: () => number; stop: () => void } {
  let turn = 0;
  let handle = setImmediate(function tick() {
    turn++;
    handle = setImmediate(tick);
  });
  return { now: () => turn, stop: () => clearImmediate(handle) };
}

/** A clock that gives `values` in order, then the last one for ever. */
function readings(values: readonly number[]): () => number {
  let read = 0;
  return () => values[Math.min(read++, values.length - 1)]!;
}

/** How many requests started in each turn, turn by turn. */
function perTurn(turns: readonly number[]): number[] {
  return [...turns.reduce((counts, turn) => counts.set(turn, (counts.get(turn) ?? 0) + 1), new Map<number, number>()).values()];
}

/** Takes a turn `count` times now and resolves with the turn each caller started in, in the order they started. */
async function startsOf(turns: TurnTaking, count: number, turn: () => number): Promise<{ order: number[]; turns: number[] }> {
  const order: number[] = [];
  const started: number[] = [];
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      await turns.take();
      order.push(index);
      started.push(turn());
    }),
  );
  return { order, turns: started };
}

describe('requests taking turns', () => {
  it('starts every request read in a turn at once while that turn has worked less than turnMs', () => {
    const turns = turnTaking(5, () => 3);
    assert.equal(turns.take(), undefined);
    assert.equal(turns.take(), undefined);
    assert.equal(turns.take(), undefined);
  });

  it('makes a request read after the turn has worked turnMs wait for the sockets of that turn and start after them', async () => {
    let time = 0;
    const turns = turnTaking(5, () => time);
    assert.equal(turns.take(), undefined, 'the turn’s first request starts at once');
    time = 5;
    const waiting = turns.take();
    assert.ok(waiting instanceof Promise, 'the turn has worked 5 ms: the next one waits');
    let started = false;
    void waiting.then(() => (started = true));
    await Promise.resolve();
    assert.equal(started, false, 'not in the same turn');
    await waiting;
  });

  it('starts waiting requests one turn apart while each turn runs long, in arrival order', async () => {
    // Every reading of the clock is 10 ms after the last: each batch's turn ran long, so no batch grows.
    let time = 0;
    const turns = turnTaking(5, () => (time += 10));
    assert.equal(turns.take(), undefined);
    const counter = countTurns();
    try {
      const { order, turns: started } = await startsOf(turns, 4, counter.now);
      assert.deepEqual(order, [0, 1, 2, 3]);
      assert.deepEqual(started.map((turn) => turn - started[0]!), [0, 1, 2, 3], 'one start per turn');
    } finally {
      counter.stop();
    }
  });

  it('doubles a batch while the turns stay short', async () => {
    let time = 0;
    const turns = turnTaking(5, () => time);
    assert.equal(turns.take(), undefined);
    time = 10; // past the first turn's share: everything from here waits; then every turn is short
    const counter = countTurns();
    try {
      const { order, turns: started } = await startsOf(turns, 7, counter.now);
      assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6]);
      assert.deepEqual(started.map((turn) => turn - started[0]!), [0, 1, 1, 2, 2, 2, 2], 'batches of 1, 2 and 4');
    } finally {
      counter.stop();
    }
  });

  it('scales a batch down by how far its turn ran past turnMs', async () => {
    // Clock readings in order: the first take (0), the take that finds the turn spent (10), then one
    // per pump. Batches of 1, 2, 4 and 8 run in turns of 0 ms; the 8's turn then reads 20 ms, four
    // times turnMs, so the next batch is 8 × 5 / 20 = 2; its turn of 0 ms doubles it again.
    const turns = turnTaking(5, readings([0, 10, 10, 10, 10, 10, 30]));
    assert.equal(turns.take(), undefined);
    const counter = countTurns();
    try {
      const { order, turns: started } = await startsOf(turns, 19, counter.now);
      assert.deepEqual(order, Array.from({ length: 19 }, (_, index) => index));
      assert.deepEqual(perTurn(started), [1, 2, 4, 8, 2, 2], 'halving would have started 4 after the long turn');
    } finally {
      counter.stop();
    }
  });

  it('measures the turn of the batch that ended a wait too, and sizes the next wait by it', async () => {
    // The first wait: batches of 1, 2, 4 and 8 in turns of 0 ms; the 8 end it and their turn reads
    // 20 ms (30 − 10), so the batch becomes 2. The second wait (a new turn at 30, spent at 40) starts
    // its 4 requests two by two; a batch left at 8, unmeasured, would have started all 4 at once.
    const turns = turnTaking(5, readings([0, 10, 10, 10, 10, 10, 30, 30, 40]));
    assert.equal(turns.take(), undefined);
    const counter = countTurns();
    try {
      assert.deepEqual(perTurn((await startsOf(turns, 15, counter.now)).turns), [1, 2, 4, 8]);
      await new Promise((resolve) => setImmediate(resolve)); // the pump that measures the 8's turn
      await new Promise((resolve) => setImmediate(resolve)); // a new turn of the loop
      assert.equal(turns.take(), undefined, 'a fresh turn starts its first request at once');
      assert.deepEqual(perTurn((await startsOf(turns, 4, counter.now)).turns), [2, 2]);
    } finally {
      counter.stop();
    }
  });

  it('lets no newcomer pass the requests already waiting, even when its own turn is fresh', async () => {
    let time = 0;
    const turns = turnTaking(5, () => time);
    assert.equal(turns.take(), undefined);
    time = 10;
    const first = turns.take();
    time = 0; // a reading that alone would let the newcomer start at once
    const second = turns.take();
    assert.ok(first instanceof Promise && second instanceof Promise);
    const order: string[] = [];
    await Promise.all([first.then(() => order.push('first')), second.then(() => order.push('second'))]);
    assert.deepEqual(order, ['first', 'second']);
  });

  it('starts a wait that is left at once, out of its place, and keeps the order of the rest', async () => {
    let time = 0;
    const turns = turnTaking(5, () => time);
    assert.equal(turns.take(), undefined);
    time = 10;
    const waits = [turns.take(), turns.take(), turns.take()];
    assert.ok(waits.every((wait) => wait instanceof Promise));
    const order: number[] = [];
    const all = Promise.all(waits.map((wait, index) => wait!.then(() => order.push(index))));
    turns.leave(waits[2]!);
    await Promise.resolve();
    assert.deepEqual(order, [2], 'the left wait starts in this turn, before the pump');
    // Left again, or after it started: nothing changes.
    turns.leave(waits[2]!);
    await all;
    assert.deepEqual(order, [2, 0, 1]);
  });

  it('lets a request whose connection closes while it waits go on at once, and one closed before it came never wait', async () => {
    let time = 0;
    const turns = turnTaking(5, () => time);
    turns.take();
    time = 10; // the turn is spent: every operation from here waits
    const middleware = takeTurns(turns);
    let reached = 0;
    const next = () => {
      reached++;
      return Promise.resolve();
    };
    const operation = { method: 'POST', public: false, respond: () => Promise.resolve() } as const;
    const context = (res: EventEmitter & { destroyed: boolean }) => ({ state: { route: operation }, res }) as unknown as KernelContext;
    const open = Object.assign(new EventEmitter(), { destroyed: false });
    const waiting = middleware(context(open), next);
    await Promise.resolve();
    assert.equal(reached, 0, 'it waits for its turn');
    open.destroyed = true;
    open.emit('close');
    // Microtasks only: its turn (the pump, an immediate) has not come yet.
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(reached, 1, 'it went on as its connection closed');
    await waiting;
    assert.equal(open.listenerCount('close'), 0);
    const closed = middleware(context(Object.assign(new EventEmitter(), { destroyed: true })), next);
    await Promise.resolve();
    assert.equal(reached, 2, 'closed before it came: it never waited');
    await closed;
  });

  it('never holds a precomputed answer (health, the OpenAPI document), only operations', async () => {
    const never: TurnTaking = { take: () => new Promise<void>(() => undefined), leave: () => undefined };
    const middleware = takeTurns(never);
    let reached = 0;
    const next = () => {
      reached++;
      return Promise.resolve();
    };
    const context = (route: KernelContext['state']['route']) => ({ state: { route }, res: Object.assign(new EventEmitter(), { destroyed: false }) }) as unknown as KernelContext;
    await middleware(context({ method: 'GET', public: true, json: '{"status":"ok"}' }), next);
    await middleware(context(undefined), next);
    assert.equal(reached, 2, 'health and an unknown path go on at once');
    void middleware(context({ method: 'POST', public: false, respond: () => Promise.resolve() }), next);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reached, 2, 'an operation waits for its turn');
  });
});
