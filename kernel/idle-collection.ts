/**
 * Gives memory back once a busy service falls quiet. V8 collects garbage when JavaScript allocates,
 * so a service that goes idle after a burst of large requests keeps their dead buffers (tens of MB
 * of RSS: `npm run loadtest` measured 191 MB after the load against 158 idle) until traffic
 * returns. Every `everyMs` the service looks back: when its event loop was nearly idle all along
 * and its heap and buffers grew by `growthBytes` since the last collection, one full collection
 * runs then, while nobody waits for it.
 *
 * The same quiet looks (and the end of the warm-up) give the young generation back: see
 * trimYoungGeneration.
 */
import { performance } from 'node:perf_hooks';
import { fullCollection, trimYoungGeneration, YOUNG_GENERATION_TRIM } from '@toolshed/plugin-sdk';

// The trim itself lives in the SDK, where pool workers run it too; its tests import it from here.
export { fullCollection, trimYoungGeneration, YOUNG_GENERATION_TRIM, youngGenerationBytes, type Collector, type YoungGenerationTrimOptions } from '@toolshed/plugin-sdk';

/**
 * The service's settings: a look every 10 s; quiet means the loop worked at most 5 % of that
 * (a load balancer's health checks are far below it); 16 MiB of growth is worth a collection of
 * ~10–30 ms that nobody waits for.
 */
export const SERVICE_IDLE_COLLECTION = { everyMs: 10_000, growthBytes: 16 * 2 ** 20, quietUtilization: 0.05 } as const;

export interface IdleCollectionOptions {
  /** How often to look back (and the period whose event-loop use is measured). */
  readonly everyMs: number;
  /** Growth of heapUsed + external (bytes) since the last collection that is worth a collection. */
  readonly growthBytes: number;
  /** Event-loop utilization (0–1) over the period at or below which the service counts as quiet. */
  readonly quietUtilization: number;
  /** A full collection (tests count calls); default V8's, see fullCollection. */
  readonly collect?: () => void;
  /** Gives the young generation back, resolving to the scavenges it took; default trimYoungGeneration with V8's. */
  readonly trim?: () => Promise<number>;
  /** Bytes of heap in use plus memory held outside it (buffers). */
  readonly memory?: () => number;
  /** Event-loop utilization since the previous call. */
  readonly utilization?: () => number;
}

function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return used;
  };
}

export interface IdleCollection {
  /** Looks back once (what the timer calls). */
  check(): void;
  /** Gives the young generation back now, unless a trim is already running (then its result). */
  trim(): Promise<number>;
  stop(): void;
}

export function startIdleCollection(options: IdleCollectionOptions): IdleCollection {
  // One V8 gc serves both defaults: each fullCollection() call makes a new context.
  const v8Gc = options.collect === undefined || options.trim === undefined ? fullCollection() : undefined;
  const collect = options.collect ?? v8Gc;
  const memory = options.memory ?? (() => {
    const { heapUsed, external } = process.memoryUsage();
    return heapUsed + external;
  });
  const utilization = options.utilization ?? loopUtilization();
  let stopped = false;
  const trimNow = options.trim ?? (() => trimYoungGeneration({ ...YOUNG_GENERATION_TRIM, gc: v8Gc, stopped: () => stopped }));
  let trimming: Promise<number> | undefined;
  const trim = (): Promise<number> => {
    trimming ??= trimNow().finally(() => (trimming = undefined));
    return trimming;
  };
  // The lowest reading since the last collection: garbage V8 collected on its own is not growth,
  // and the buffers a collection found dead, freed behind it on another thread, lower it later.
  let base = memory();
  const check = (): void => {
    const quiet = utilization() <= options.quietUtilization;
    const used = memory();
    if (used < base) base = used;
    if (!quiet) return;
    void trim();
    if (used - base < options.growthBytes || collect === undefined) return;
    collect();
    base = memory();
  };
  const timer = setInterval(check, options.everyMs);
  timer.unref();
  return {
    check,
    trim,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
