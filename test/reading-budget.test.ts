// The reading budget's rules one at a time, on a clock the test moves (kernel/http/reading-budget.ts):
// the rate floor after its grace period, counted on the bytes as sent; the share of one client
// address; what the checks' timer does when no body is being read. Bodies are pushed by hand into
// requests on unconnected sockets, so each count is visible at each step (test/slow-bodies.test.ts
// holds the same over real sockets).
import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { BODY_LIMIT } from '../kernel/host/json-body.js';
import { readBytes } from '../kernel/http/middleware/body.js';
import { RATE_CHECK_MS, ReadingBudget, type ReadingClock, type ReadingLimits } from '../kernel/http/reading-budget.js';

const KiB = 1024;

/** A clock the test sets, and the number of timers running on it. */
function testClock(): ReadingClock & { at: number; timers: number } {
  const clock = {
    at: 0,
    timers: 0,
    now: () => clock.at,
    every(ms: number) {
      assert.equal(ms, RATE_CHECK_MS);
      clock.timers++;
      return () => void clock.timers--;
    },
  };
  return clock;
}

const limits: ReadingLimits = { readingBytes: 1024 * KiB, readingBytesPerClient: 256 * KiB, minBodyBytesPerSecond: 1024, bodyRateGraceMs: 5000 };

/** A request declaring `length` bytes, optionally gzip-encoded; its body is what the test pushes. */
function request(length: number, encoding?: string): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers['content-length'] = String(length);
  if (encoding !== undefined) req.headers['content-encoding'] = encoding;
  return req;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The status and code a read was refused with, or 'read' when it was not. */
async function outcome(reading: Promise<Buffer>): Promise<string> {
  try {
    await reading;
    return 'read';
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return `${status} ${code}: ${message}`;
  }
}

/** Settled or not, without waiting for it. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await tick();
  return done;
}

describe('the rate floor (server.minBodyBytesPerSecond, server.bodyRateGraceMs)', { timeout: 10_000 }, () => {
  it('leaves a body alone during the grace period, then cuts it once its average falls below the floor: 408', async () => {
    const clock = testClock();
    const budget = new ReadingBudget(limits, clock);
    const req = request(100 * KiB);
    const reading = readBytes(req, BODY_LIMIT, budget, 'a');
    req.push(Buffer.alloc(1000, 0x20));
    await tick();
    clock.at = 4999;
    budget.checkRates();
    assert.equal(await settled(reading), false, '1000 bytes in 4.999 s: still within the grace period');
    clock.at = 5000;
    budget.checkRates();
    // 1000 bytes in 5 s is 200 bytes per second.
    assert.equal(await outcome(reading), '408 request_timeout: The request body arrived slower than 1024 bytes per second');
    assert.deepEqual(budget.stats(), { bytes: 0, clients: 0, largestClientBytes: 0, reading: 0 }, 'what it held is given back');
  });

  it('keeps a body that averages the floor exactly, and cuts it when a later check finds it below', async () => {
    const clock = testClock();
    const budget = new ReadingBudget(limits, clock);
    const req = request(100 * KiB);
    const reading = readBytes(req, BODY_LIMIT, budget, 'a');
    req.push(Buffer.alloc(5 * 1024, 0x20));
    await tick();
    clock.at = 5000;
    budget.checkRates();
    assert.equal(await settled(reading), false, '5120 bytes in 5 s is the floor');
    clock.at = 6000;
    budget.checkRates();
    assert.match(await outcome(reading), /^408 request_timeout/);
  });

  it('counts the bytes as sent, not as decompressed: a small gzip body of a large text is cut', async () => {
    const clock = testClock();
    const budget = new ReadingBudget(limits, clock);
    const packed = gzipSync(JSON.stringify({ text: 'a'.repeat(200 * KiB) }));
    assert.ok(packed.length < 1024, `${packed.length} bytes sent`);
    const req = request(packed.length + 1, 'gzip');
    const reading = readBytes(req, BODY_LIMIT, budget, 'a');
    // All but the last byte: the decompressed text is held, far above 1 KiB a second in 5 s.
    req.push(packed.subarray(0, packed.length - 1));
    // zlib works off the main thread: wait for its output (a guard of 10 s against a hang only).
    for (const giveUp = Date.now() + 10_000; budget.inUse < 100 * KiB; await new Promise((resolve) => setTimeout(resolve, 1))) {
      assert.ok(Date.now() < giveUp, `only ${budget.inUse} bytes decompressed`);
    }
    clock.at = 5000;
    budget.checkRates();
    assert.match(await outcome(reading), /^408 request_timeout/);
  });

  it('runs its timer only while bodies are being read, and none at all with the floor at 0', async () => {
    const clock = testClock();
    const budget = new ReadingBudget(limits, clock);
    const first = request(2);
    const second = request(2);
    const readings = [readBytes(first, BODY_LIMIT, budget, 'a'), readBytes(second, BODY_LIMIT, budget, 'b')];
    assert.equal(clock.timers, 1, 'one timer for every body');
    for (const req of [first, second]) {
      req.push(Buffer.from('{}'));
      req.push(null);
    }
    assert.deepEqual(await Promise.all(readings.map(outcome)), ['read', 'read']);
    assert.equal(clock.timers, 1, 'stopped by the first check that finds no body, not before');
    budget.checkRates();
    assert.equal(clock.timers, 0);

    const unlimited = new ReadingBudget({ ...limits, minBodyBytesPerSecond: 0 }, clock);
    const req = request(10);
    const reading = readBytes(req, BODY_LIMIT, unlimited, 'a');
    assert.equal(clock.timers, 0);
    clock.at = 3_600_000;
    unlimited.checkRates();
    assert.equal(await settled(reading), false, 'an hour for nothing: no floor, no cut');
    req.push(null);
    // An empty body is read; the parser says it is empty.
    assert.equal(await outcome(reading), 'read');
  });
});

describe("one client address's share (server.readingBytesPerClient)", { timeout: 10_000 }, () => {
  it("refuses a body that takes its address past the share (429) while another address's body is read", async () => {
    const budget = new ReadingBudget(limits, testClock());
    const held = request(300 * KiB);
    const heldReading = readBytes(held, BODY_LIMIT, budget, 'a');
    held.push(Buffer.alloc(200 * KiB, 0x20));
    await tick();
    const second = request(100 * KiB);
    const secondReading = readBytes(second, BODY_LIMIT, budget, 'a');
    second.push(Buffer.alloc(56 * KiB, 0x20));
    await tick();
    assert.equal(budget.stats().largestClientBytes, 256 * KiB, 'exactly the share');
    second.push(Buffer.alloc(1, 0x20));
    assert.equal(await outcome(secondReading), '429 rate_limited: This client address is sending more than 262144 bytes of request bodies at once; retry in 1 s');
    const other = request(300 * KiB);
    const otherReading = readBytes(other, BODY_LIMIT, budget, 'b');
    other.push(Buffer.alloc(300 * KiB, 0x20));
    other.push(null);
    assert.equal(await outcome(otherReading), 'read');
    assert.deepEqual(budget.stats(), { bytes: 500 * KiB, clients: 2, largestClientBytes: 300 * KiB, reading: 1 });
    // Alone, a body may pass its address's share: its own bytes never count against it.
    held.push(Buffer.alloc(100 * KiB, 0x20));
    held.push(null);
    assert.equal(await outcome(heldReading), 'read');
    budget.give('a', 300 * KiB);
    budget.give('b', 300 * KiB);
    assert.deepEqual(budget.stats(), { bytes: 0, clients: 0, largestClientBytes: 0, reading: 0 }, 'an address holding nothing leaves no entry');
  });

  it('refuses with 503 server_busy when the budget, not the share, is what the bytes would pass', async () => {
    const budget = new ReadingBudget({ ...limits, readingBytes: 1024 * KiB, readingBytesPerClient: 1024 * KiB }, testClock());
    const first = request(900 * KiB);
    const firstReading = readBytes(first, BODY_LIMIT, budget, 'a');
    first.push(Buffer.alloc(900 * KiB, 0x20));
    await tick();
    const second = request(200 * KiB);
    const secondReading = readBytes(second, BODY_LIMIT, budget, 'b');
    second.push(Buffer.alloc(200 * KiB, 0x20));
    assert.equal(await outcome(secondReading), '503 server_busy: The service is reading too much data at once; retry shortly');
    first.push(null);
    assert.equal(await outcome(firstReading), 'read');
  });
});
