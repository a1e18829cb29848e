/**
 * The records of a contained plugin's share (plugin-share.ts): its options, its counters, and what
 * it keeps of each request (a job) and each process (a slot).
 */
import type { Launch } from './launch.js';
import type { Logger } from '../logger.js';
import type { PluginProcess } from './plugin-process.js';
import type { QuietWatch } from './quiet-watch.js';

export interface ShareOptions {
  readonly group: string;
  readonly processes: number;
  /** Requests one process may hold at once, the first running and the rest sent ahead (1: one at a time). */
  readonly pipeline: number;
  readonly maxQueue: number;
  /** Resident-memory cap of each process in MiB. */
  readonly rssMb: number;
  /** An idle process is ended after this long. */
  readonly idleMs: number;
  /** How long a new process may keep computing after it is ready (the operations' deadline). */
  readonly quietMs: number;
  readonly niceness: number;
  readonly maxAnswerBytes: number;
  /** The plugin's configuration section, sent to each process once. */
  readonly config: unknown;
  readonly launch: Launch;
  readonly logger: Logger;
}

/** Options of one {@link PluginShare.run}. */
export interface ShareRunOptions {
  readonly deadlineMs: number;
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  /** A whole large request: it may hold all processes but one (JobGate's bulk lane). */
  readonly bulk?: boolean;
}

/** Counters of a share, for /metrics and tests. */
export interface ShareStats {
  /** Processes alive (starting, idle or busy). */
  readonly processes: number;
  /** Their process ids. */
  readonly pids: readonly number[];
  readonly running: number;
  readonly queued: number;
  readonly completed: number;
  readonly timeouts: number;
  readonly refused: number;
  /** Processes ended, by cause (`exited`, `memory`, `deadline`, …). */
  readonly ends: Readonly<Record<string, number>>;
  /** Ends of its own in a row (0 once a process answers). */
  readonly failures: number;
  /** True while the share waits before starting a process again. */
  readonly paused: boolean;
  /** Its answers checked on the host's pool so far, and the most checked at once (at most its processes). */
  readonly answerChecks: { readonly run: number; readonly most: number };
}

export interface Job {
  readonly id: number;
  readonly operation: string;
  readonly body: Uint8Array;
  readonly bulk: boolean;
  readonly budgetMs: number;
  readonly requestId: string;
  /** performance.now() past which the job is given up; moved later by its process's boot time. */
  deadline: number;
  boundAt?: number;
  /** When it became the oldest request its process has not answered: the one it runs. */
  startedAt?: number;
  timer?: NodeJS.Timeout;
  /** Handed a slot by the gate (counted as running). */
  holding: boolean;
  slot?: Slot;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
  settled: boolean;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

export interface Slot {
  readonly process: PluginProcess;
  ready: boolean;
  /** It said its plugin failed to load (the process exits next): said once, and only before it is ready. */
  loadFailed?: boolean;
  /**
   * Its requests in the order bound: the first is the one it runs, the others wait in it; all sent
   * once it is ready (a booting process holds one). One answered already (a timeout, its client
   * gone) stays until the process answers or skips it.
   */
  readonly jobs: Job[];
  idle?: NodeJS.Timeout;
  /** Ends the process when it runs a request given up on (OVERDUE_GRACE_MS). */
  overdue?: NodeJS.Timeout;
  /** performance.now() past which an idle process must not compute: its last request's deadline. */
  quietAt: number;
  /** Whether it keeps computing while it should be quiet. */
  readonly quiet: QuietWatch;
}
