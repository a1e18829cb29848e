/**
 * The embedded store: counters in two generations. Entries are never deleted one by one, and
 * sweeping one big Map costs time in proportion to the number of clients (past a hundred thousand
 * addresses it held every request up). Instead, once per window the current generation becomes the
 * previous one and the previous is dropped whole: an entry lives at most two windows, longer than
 * its own window, so nothing live is lost, and every request costs the same at any client count.
 *
 * Each client costs as little as it can, since one address is one entry and a busy service sees
 * hundreds of thousands: an IPv4 client's key is its address as a 32-bit integer, not a string,
 * and a window is two numbers in a typed array, not an object (the measurement is in
 * docs/decisions.md "Rate limiting through a small store").
 */
import { randomBytes } from 'node:crypto';
import { toHitResult, type HitResult, type HitStore } from './store.js';

/** Where a key's window is in a generation's cells: `[count, endsAt]` at 2 × its slot. */
type Slot = number;

/** What a client is counted under in memory: an IPv4 client's address as a number, else its key. */
type CompactKey = string | number;

/**
 * An odd multiplier of this process: V8 hashes a small-integer key without a seed, so an address
 * is multiplied by it (one to one, modulo 2^32) before it is a key, and no client can pick
 * addresses that crowd one bucket of the Map. Strings are hashed with V8's own random seed.
 */
const SCRAMBLE = randomBytes(4).readInt32LE(0) | 1;

/**
 * `ip:a.b.c.d` as a 32-bit integer, its address times {@link SCRAMBLE} (a small integer to V8: no
 * object of its own), anything else as it is. Only the canonical dotted quad (what clientKey
 * gives) is turned, so two spellings of one address cannot be two counters.
 */
export function compactKey(key: string): CompactKey {
  if (key.length < 10 || key.length > 18 || key.charCodeAt(0) !== 0x69 || key.charCodeAt(1) !== 0x70 || key.charCodeAt(2) !== 0x3a) return key;
  let address = 0;
  let octet = -1;
  let dots = 0;
  for (let index = 3; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code === 0x2e) {
      if (octet < 0 || dots === 3) return key;
      address = (address << 8) | octet;
      octet = -1;
      dots++;
    } else if (code >= 0x30 && code <= 0x39) {
      // No leading zero: "01" is not how clientKey writes an octet.
      if (octet === 0) return key;
      octet = octet < 0 ? code - 0x30 : octet * 10 + code - 0x30;
      if (octet > 255) return key;
    } else return key;
  }
  if (octet < 0 || dots !== 3) return key;
  return Math.imul((address << 8) | octet, SCRAMBLE);
}

/** One generation: each key's slot, and every slot's count and window end. */
class Generation {
  readonly slots = new Map<CompactKey, Slot>();
  cells = new Float64Array(2 * 256);

  /** A new slot for `key`, which has none here. */
  add(key: CompactKey): Slot {
    const slot = this.slots.size;
    if (2 * slot === this.cells.length) {
      const grown = new Float64Array(2 * this.cells.length);
      grown.set(this.cells);
      this.cells = grown;
    }
    this.slots.set(key, slot);
    return slot;
  }
}

/**
 * Windows per key in two generations, rotated once per window (see above). Every hit writes its
 * window into the current generation, so a live window is never dropped by a rotation.
 */
export class GenerationWindows {
  private current = new Generation();
  private previous = new Generation();

  /** Keys held in both generations (one written in both counts twice). */
  get size(): number {
    return this.current.slots.size + this.previous.slots.size;
  }

  /** The window read last, and its key's slot in the current generation (-1: none); read() sets them, so no object is made per request. */
  private count = 0;
  private endsAt = 0;
  private slot = -1;

  /** Reads `key`'s running window, or a fresh one of `windowMs` from `now` when it has none. */
  private read(key: CompactKey, now: number, windowMs: number): void {
    const here = this.current.slots.get(key);
    this.slot = here ?? -1;
    const generation = here === undefined ? this.previous : this.current;
    const slot = here ?? this.previous.slots.get(key);
    if (slot !== undefined && generation.cells[2 * slot + 1]! > now) {
      this.count = generation.cells[2 * slot]!;
      this.endsAt = generation.cells[2 * slot + 1]!;
    } else {
      this.count = 0;
      this.endsAt = now + windowMs;
    }
  }

  /** Writes `key`'s window into the current generation, where the next rotation keeps it. */
  private write(key: CompactKey, count: number): void {
    const slot = this.slot === -1 ? this.current.add(key) : this.slot;
    this.current.cells[2 * slot] = count;
    this.current.cells[2 * slot + 1] = this.endsAt;
  }

  /** Counts one request of `key` against `max` per `windowMs`. */
  hit(key: string, max: number, windowMs: number, now: number): HitResult {
    const compact = compactKey(key);
    this.read(compact, now, windowMs);
    const count = this.count + 1;
    this.write(compact, count);
    return toHitResult(count, max, this.endsAt - now);
  }

  /** Counts `amount` more requests of `key` when all fit within `max`; a refusal counts and writes nothing. */
  take(key: string, max: number, windowMs: number, amount: number, now: number): HitResult {
    const compact = compactKey(key);
    this.read(compact, now, windowMs);
    if (this.count + amount > max) return { ...toHitResult(this.count, max, this.endsAt - now), admitted: false };
    const count = this.count + amount;
    this.write(compact, count);
    return toHitResult(count, max, this.endsAt - now);
  }

  /** The previous generation is dropped; the current one becomes the previous one. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Generation();
  }

  clear(): void {
    this.current = new Generation();
    this.previous = new Generation();
  }
}

/**
 * The embedded hit store: fixed windows in GenerationWindows rotated once per window, so each
 * request costs the same at any number of clients.
 */
export function createMemoryHitStore(windowMs: number): HitStore {
  const windows = new GenerationWindows();
  const timer = setInterval(() => windows.rotate(), windowMs);
  timer.unref();
  return {
    hit: (key, max, window) => windows.hit(key, max, window, Date.now()),
    take: (key, max, window, amount) => windows.take(key, max, window, amount, Date.now()),
    async close() {
      clearInterval(timer);
      windows.clear();
    },
  };
}
