/**
 * What the service and a contained plugin's process say to each other, frame by frame
 * (frames.ts). The service sends `init` once (the plugin's configuration section), then up to
 * `plugins.workers.pipeline` `run`s at a time; the process says `ready` once its module is imported
 * and warmed, then runs them one after another in the order sent and answers each with exactly one
 * `answer`, `refusal`, `failed`, `too-large` or `skipped` for its id, in that order. A probe process
 * (the manifest, at start-up) sends one `manifest`, `problems` or `import-failed` and ends.
 * Everything the process sends is a claim the service checks: it parses the answer and checks it
 * against the response schema in its own code, and rebuilds a refusal from plain fields.
 */

/** `init`: the payload is the plugin's configuration section as JSON; answers longer than `maxAnswerBytes` are not sent. */
export interface InitHeader {
  readonly kind: 'init';
  readonly maxAnswerBytes: number;
}

/** `run`: the payload is the request body as JSON, already checked and with defaults filled by the service. */
export interface RunHeader {
  readonly kind: 'run';
  readonly id: number;
  readonly operation: string;
  /**
   * The request's deadline on the system's monotonic clock ({@link monotonicMs}), which every
   * process of the machine reads alike: a run whose turn comes after it is skipped, not started.
   */
  readonly deadline: number;
}

/** `cancel`: nobody waits for run `id` any more (its client left); skipped if it has not started. */
export interface CancelHeader {
  readonly kind: 'cancel';
  readonly id: number;
}

/** What the service sends. */
export type ServiceHeader = InitHeader | RunHeader | CancelHeader;

// Kept before a plugin's process imports the plugin, which may replace process.hrtime for its own ends.
const clock = process.hrtime.bigint;
/** Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC on Linux), the same in every process of the machine, unlike performance.now(). */
export const monotonicMs = (): number => Number(clock()) / 1e6;

/** What a plugin's process sends while it serves; `answer`'s payload is the handler's result as JSON. */
export type ServingHeader =
  | { readonly kind: 'ready' }
  | { readonly kind: 'answer'; readonly id: number }
  | { readonly kind: 'refusal'; readonly id: number; readonly status: number; readonly code: string; readonly message: string; readonly details?: unknown }
  | { readonly kind: 'failed'; readonly id: number; readonly errorName: string; readonly frames: readonly string[] }
  | { readonly kind: 'too-large'; readonly id: number; readonly bytes: number }
  /** Not started: its deadline had passed when its turn came, or it was cancelled. */
  | { readonly kind: 'skipped'; readonly id: number }
  | { readonly kind: 'load-failed'; readonly message: string };

/** What a probe process sends: `manifest`'s payload is the manifest without its functions, serialized with node:v8 (a structured clone). */
export type ProbeHeader =
  | { readonly kind: 'manifest' }
  | { readonly kind: 'problems'; readonly problems: readonly string[] }
  | { readonly kind: 'import-failed'; readonly message: string; readonly code?: string };

/** The largest header either side takes: a refusal's message and details fit with room to spare. */
export const MAX_HEADER_BYTES = 1024 * 1024;

/** The largest payload a plugin's process takes from the service: a body at the 10 MiB cap, with room for the defaults filled in. */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** How a plugin process is started: what it does (argv[2]) and what it loads (argv[3]). */
export type ProcessMode = 'serve' | 'probe';

/** Stack frames of a failure the service logs, at most this many, each cut to {@link MAX_FRAME_CHARS}. */
export const MAX_FRAMES = 20;
export const MAX_FRAME_CHARS = 300;

/** The stack frames of `error` (locations only, never its message, which may quote the input), bounded. */
export function framesOf(error: unknown): string[] {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  return stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => line.trim().slice(0, MAX_FRAME_CHARS));
}
