/**
 * The embedded store: counters in two generations of Maps. Entries are never deleted one by one,
 * and sweeping one big Map costs time in proportion to the number of clients (past a hundred
 * thousand addresses it held every request up). Instead, once per window the current Map becomes the
 * previous one and the previous is dropped whole: an entry lives at most two windows, longer than
 * its own window, so nothing live is lost, and every request costs the same at any client count.
 */
import { toHitResult, type HitStore } from './store.js';

/**
 * A Map that forgets, in O(1), everything not written during the last two generations. It extends
 * Map so it can stand wherever a Map is expected; its own storage stays unused.
 */
export class GenerationMap<K, V> extends Map<K, V> {
  private current = new Map<K, V>();
  private previous = new Map<K, V>();

  override get(key: K): V | undefined {
    return this.current.get(key) ?? this.previous.get(key);
  }

  override has(key: K): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  override set(key: K, value: V): this {
    this.current.set(key, value);
    return this;
  }

  override delete(key: K): boolean {
    return this.current.delete(key) || this.previous.delete(key);
  }

  /** Entries held in both generations. */
  override get size(): number {
    return this.current.size + this.previous.size;
  }

  override clear(): void {
    this.current = new Map();
    this.previous = new Map();
  }

  /** The previous generation is dropped; the current one becomes the previous one. */
  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

interface Window {
  count: number;
  /** Date.now() at which the window ends. */
  endsAt: number;
}

/**
 * The embedded hit store: fixed windows in a GenerationMap rotated once per window, so each
 * request costs the same at any number of clients (see memory-store.ts). Every hit rewrites its
 * entry into the current generation, so a live window is never dropped by a rotation.
 */
export function createMemoryHitStore(windowMs: number): HitStore {
  const windows = new GenerationMap<string, Window>();
  const timer = setInterval(() => windows.rotate(), windowMs);
  timer.unref();
  return {
    hit(key, max, window) {
      const now = Date.now();
      let entry = windows.get(key);
      if (entry === undefined || entry.endsAt <= now) entry = { count: 0, endsAt: now + window };
      entry.count++;
      windows.set(key, entry);
      return toHitResult(entry.count, max, entry.endsAt - now);
    },
    take(key, max, window, amount) {
      const now = Date.now();
      let entry = windows.get(key);
      if (entry === undefined || entry.endsAt <= now) entry = { count: 0, endsAt: now + window };
      if (entry.count + amount > max) return { ...toHitResult(entry.count, max, entry.endsAt - now), admitted: false };
      entry.count += amount;
      windows.set(key, entry);
      return toHitResult(entry.count, max, entry.endsAt - now);
    },
    async close() {
      clearInterval(timer);
      windows.clear();
    },
  };
}
