/**
 * The embedded store: one in-process Map. koa-ratelimit never deletes from it, so expired windows
 * are swept every window and whenever the Map passes `maxEntries` (many distinct client IPs), which
 * keeps memory bounded.
 */
import type { RateLimitStore } from './store.js';

interface Entry {
  /** Window end, Unix seconds. */
  reset: number;
}

export function createMemoryStore(windowMs: number, maxEntries = 100_000): RateLimitStore {
  const db = new Map<string, Entry>();
  const sweep = (): void => {
    const now = Date.now() / 1000;
    for (const [key, entry] of db) if (entry.reset <= now) db.delete(key);
  };
  const timer = setInterval(sweep, windowMs);
  timer.unref();
  return {
    driver: { driver: 'memory', db },
    touch() {
      if (db.size > maxEntries) sweep();
    },
    async close() {
      clearInterval(timer);
      db.clear();
    },
  };
}
