/**
 * Giving V8's young generation back: the trim the kernel runs on its main thread once the service
 * falls quiet (kernel/idle-collection.ts), and each pool worker runs once it has been idle a moment
 * (worker-entry.ts). One implementation serves both.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collection, without starting Node with --expose-gc: the flag gives `gc` to contexts
 * created while it is set, so it is set for one new context and cleared again; the service's own
 * global scope (and every plugin's) never gets a `gc`.
 */
export function fullCollection(): Collector | undefined {
  setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as Collector) : undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** V8's `gc`: a full collection, or with `{ type: 'minor' }` a scavenge of the young generation only. */
export type Collector = (options?: { type: 'major' | 'minor' }) => void;

/**
 * The young generation's trim: at most `maxScavenges` scavenges `gapMs` apart, until it holds at
 * most `goalBytes` (V8's initial size, both semi-spaces, is 2 MiB on Node 20 and 24). Measured from
 * a 16–22 MiB young generation: Node 20 shrinks it at the 11th–13th scavenge whatever the gap (its
 * rate is over the last ten collections); Node 24 after ~0.9 s of them (its rate is averaged over
 * time): 17 scavenges at this gap, 42 at 20 ms.
 */
export const YOUNG_GENERATION_TRIM = { goalBytes: 2 * 2 ** 20, gapMs: 50, maxScavenges: 40 } as const;

export interface YoungGenerationTrimOptions {
  readonly goalBytes: number;
  readonly gapMs: number;
  readonly maxScavenges: number;
  /** V8's gc (tests record the calls); default fullCollection's. */
  readonly gc?: Collector;
  /** Bytes the young generation holds now; default V8's new space. */
  readonly youngBytes?: () => number;
  /** True once the trim should end (the service is stopping; in a pool worker, a job came): it ends at its next step. */
  readonly stopped?: () => boolean;
}

/** Bytes V8's young generation (its new space) holds now. */
export const youngGenerationBytes = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;

/**
 * Gives the young generation back; resolves to the scavenges it ran. While plugins load, the
 * warm-up runs or requests come in, V8 doubles the young generation's semi-spaces (to 16 MiB of RSS
 * on Node 20) and, on Node 20, keeps them once the service is idle: a collection shrinks them only
 * when the allocation rate V8 measured over its last ten collections is low, and an idle service
 * collects nothing, so that rate is never measured. Scavenges a little apart, while the service is
 * quiet, are collections with next to nothing allocated between them: V8 sees the low rate and
 * shrinks the space. Each is a scavenge of a near-empty space (well under 1 ms); requests that come
 * in meanwhile raise the rate, and the trim gives up after maxScavenges. No full collection
 * follows: what the scavenges promoted waits for the next one (the growth rule of the quiet looks,
 * or V8's own), because one right after the warm-up threw away code the warm-up had optimised
 * (the bench's first qr-code-generator.create came 29–40 ms over its hundredth instead of < 10).
 */
export async function trimYoungGeneration(options: YoungGenerationTrimOptions = YOUNG_GENERATION_TRIM): Promise<number> {
  const youngBytes = options.youngBytes ?? youngGenerationBytes;
  if (youngBytes() <= options.goalBytes) return 0;
  const gc = options.gc ?? fullCollection();
  if (gc === undefined) return 0;
  let scavenges = 0;
  while (youngBytes() > options.goalBytes && scavenges < options.maxScavenges && options.stopped?.() !== true) {
    await new Promise((resolve) => setTimeout(resolve, options.gapMs));
    gc({ type: 'minor' });
    scavenges++;
  }
  return scavenges;
}
