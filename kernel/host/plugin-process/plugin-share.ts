/**
 * One contained plugin's share: up to `processes` processes of its own, one request each at a time,
 * behind a bounded queue (the pool's JobGate: a request beyond it is 503 `server_busy` at once).
 * Each request has its deadline, counted from its arrival (queue included) but not while its
 * process boots; past it the process is ended, whatever it started with it, and the next request
 * gets a new one. A process that ends on its own (an exit, a crash, a kill by the plugin itself)
 * or over its memory cap costs only its own request (502 `plugin_crashed`); after two such ends in a
 * row the share waits before it starts another, doubling the pause up to a cap, and answers 503
 * `plugin_unavailable` meanwhile, so a plugin that keeps dying costs no CPU in a loop.
 */
import { ServerBusyError, WorkerJobError } from '@toolshed/plugin-sdk';
import { answerTooLarge } from '../answer.js';
import { operationTimeout } from '../deadline.js';
import type { Logger } from '../logger.js';
import { JobGate } from '../pool/job-gate.js';
import type { Frame } from './frames.js';
import type { Launch } from './launch.js';
import { PluginProcess, type EndCause } from './plugin-process.js';
import { describeEnd, pluginCrashed, PluginUnavailableError } from './refusals.js';
import { refusalOf } from './refusal-check.js';

/** How long a process may take to import and warm the plugin before it is ended (as the probe's limit). */
export const START_GUARD_MS = 30_000;
/** The first pause after two ends in a row, doubled after each further one, up to {@link MAX_PAUSE_MS}. */
export const FIRST_PAUSE_MS = 500;
export const MAX_PAUSE_MS = 30_000;
/** Ends in a row after which the log says, once, that the plugin keeps failing. */
const KEEPS_FAILING = 5;

export interface ShareOptions {
  readonly group: string;
  readonly processes: number;
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
}

interface Job {
  readonly id: number;
  readonly operation: string;
  readonly body: Uint8Array;
  readonly bulk: boolean;
  readonly budgetMs: number;
  readonly requestId: string;
  /** performance.now() past which the job is given up; moved later by its process's boot time. */
  deadline: number;
  boundAt?: number;
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

interface Slot {
  readonly process: PluginProcess;
  ready: boolean;
  job?: Job;
  idle?: NodeJS.Timeout;
  /** performance.now() past which an idle process must not compute: its last request's deadline. */
  quietAt: number;
  /** Its CPU time at the last watch, and the CPU time it used in each of the last watches while it should be quiet. */
  cpuMs?: number;
  quietUse: number[];
}

/**
 * An idle process past its last deadline that used this much CPU over {@link QUIET_WINDOW} watches
 * is still computing (a thread or a timer a handler left spinning) and is ended: a tenth of a core,
 * far above what an idle Node process uses, and far below what a loop gets on a busy machine.
 */
const QUIET_WINDOW = 10;
const BUSY_SHARE = 0.1;

export class PluginShare {
  private readonly gate: JobGate<Job>;
  private readonly slots = new Set<Slot>();
  private nextId = 1;
  private closed = false;
  private failures = 0;
  private pausedUntil = 0;
  private readonly counters = { completed: 0, timeouts: 0, refused: 0 };
  private readonly ends: Record<string, number> = {};

  constructor(readonly options: ShareOptions) {
    this.gate = new JobGate(options.processes, options.maxQueue);
  }

  /** Runs `operation` on `body` (JSON the service checked) and resolves to the answer's JSON bytes, unchecked. */
  run(operation: string, body: Uint8Array, options: ShareRunOptions): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const { group, logger, processes, maxQueue } = this.options;
      if (this.closed || options.signal?.aborted === true) return reject(new WorkerJobError('aborted'));
      const waitMs = this.pausedUntil - performance.now();
      if (waitMs > 0 && !this.hasFreeProcess()) return reject(new PluginUnavailableError(group, this.failures, waitMs));
      const bulk = options.bulk === true;
      if (!this.gate.admits(bulk)) {
        this.counters.refused++;
        logger.warn({ plugin: group, operation: `${group}.${operation}`, requestId: options.requestId ?? '', reason: 'queue full', processes, maxQueue }, 'plugin processes busy');
        return reject(new ServerBusyError());
      }
      const job: Job = {
        id: this.nextId++,
        operation,
        body,
        bulk,
        budgetMs: options.deadlineMs,
        requestId: options.requestId ?? '',
        deadline: performance.now() + options.deadlineMs,
        holding: false,
        signal: options.signal,
        onAbort: () => this.abandon(job),
        settled: false,
        resolve,
        reject,
      };
      options.signal?.addEventListener('abort', job.onAbort, { once: true });
      this.arm(job, 0);
      this.gate.enqueue(job);
      this.dispatch();
    });
  }

  stats(): ShareStats {
    return {
      processes: this.slots.size,
      pids: [...this.slots].flatMap((slot) => (slot.process.pid === undefined ? [] : [slot.process.pid])),
      running: this.gate.running,
      queued: this.gate.queued,
      ...this.counters,
      ends: { ...this.ends },
      failures: this.failures,
      paused: this.pausedUntil > performance.now(),
    };
  }

  /**
   * Each live process's resident memory against the cap, and each idle one's CPU time past its last
   * request's deadline (threads or timers a handler left running): one over the cap, or using more
   * than {@link BUSY_SHARE} of a core over {@link QUIET_WINDOW} watches, is ended. `everyMs`: the
   * time since the last watch.
   */
  watch(everyMs: number): void {
    const { group, logger, rssMb: capMb } = this.options;
    const now = performance.now();
    for (const slot of this.slots) {
      const rssMb = slot.process.residentMb();
      if (rssMb !== undefined && rssMb > capMb) {
        logger.warn({ plugin: group, pid: slot.process.pid, rssMb: Math.ceil(rssMb), capMb }, 'plugin process over its memory cap');
        slot.process.end({ kind: 'memory', rssMb, capMb });
        continue;
      }
      if (slot.job !== undefined || now < slot.quietAt) {
        slot.cpuMs = undefined;
        slot.quietUse = [];
        continue;
      }
      const cpuMs = slot.process.cpuMs();
      if (cpuMs !== undefined && slot.cpuMs !== undefined) slot.quietUse = [...slot.quietUse.slice(1 - QUIET_WINDOW), cpuMs - slot.cpuMs];
      slot.cpuMs = cpuMs;
      const used = slot.quietUse.reduce((sum, ms) => sum + ms, 0);
      if (slot.quietUse.length < QUIET_WINDOW || used < BUSY_SHARE * QUIET_WINDOW * everyMs) continue;
      logger.warn({ plugin: group, pid: slot.process.pid }, 'plugin process computing after its deadline');
      slot.process.end({ kind: 'busy-idle' });
    }
  }

  /** Ends every process; queued and running requests answer `aborted`, and so does any later one. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.gate.drain()) this.settle(job, new WorkerJobError('aborted'));
    const slots = [...this.slots];
    for (const slot of slots) {
      if (slot.job !== undefined) this.settle(slot.job, new WorkerJobError('aborted'));
      slot.process.end({ kind: 'closing' });
    }
    await Promise.all(slots.map((slot) => slot.process.gone));
  }

  private hasFreeProcess(): boolean {
    return this.freeSlot() !== undefined;
  }

  /** A process without a request, a ready one first; undefined when all are busy. One being ended (idle, say) is not free: it would never send the request. */
  private freeSlot(): Slot | undefined {
    let booting: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.job !== undefined || slot.process.ending) continue;
      if (slot.ready) return slot;
      booting ??= slot;
    }
    return booting;
  }

  /** Hands waiting jobs to processes while the gate lets them run and a process is free or may be started. */
  private dispatch(): void {
    if (this.closed) return;
    while (this.gate.queued > 0) {
      const free = this.freeSlot();
      if (free === undefined && (this.slots.size >= this.options.processes || this.pausedUntil > performance.now())) return;
      const job = this.gate.next();
      if (job === undefined) return;
      job.holding = true;
      this.bind(job, free ?? this.start());
    }
  }

  private bind(job: Job, slot: Slot): void {
    clearTimeout(slot.idle);
    slot.job = job;
    job.slot = slot;
    if (slot.ready) return this.send(job, slot);
    // Booting the process and importing the plugin are not the job's time: its clock stops until the process is ready.
    job.boundAt = performance.now();
    this.arm(job, START_GUARD_MS);
  }

  private send(job: Job, slot: Slot): void {
    job.startedAt = performance.now();
    if (job.boundAt !== undefined) job.deadline += job.startedAt - job.boundAt;
    // Whatever the request starts must be done by its deadline, answered or not.
    slot.quietAt = job.deadline;
    // Its timer from run() still stands unless it waited for a boot (its deadline moved, its timer was the start guard).
    if (job.boundAt !== undefined) this.arm(job, 0);
    slot.process.send({ kind: 'run', id: job.id, operation: job.operation }, job.body);
  }

  /** A new process; the share's config goes to it first. */
  private start(): Slot {
    const { launch, niceness, maxAnswerBytes, config } = this.options;
    // Its events come later (a process's output and exit are asynchronous), once the slot exists.
    const made: { slot?: Slot } = {};
    const process = new PluginProcess(launch, { maxPayloadBytes: maxAnswerBytes, niceness }, {
      frame: (frame) => this.heard(made.slot!, frame),
      ended: (cause) => this.ended(made.slot!, cause),
    });
    const slot: Slot = (made.slot = { process, ready: false, quietAt: Number.POSITIVE_INFINITY, quietUse: [] });
    this.slots.add(slot);
    process.send({ kind: 'init', maxAnswerBytes }, Buffer.from(JSON.stringify(config ?? null)));
    return slot;
  }

  private heard(slot: Slot, { header, payload }: Frame): void {
    const job = slot.job;
    if (header.kind === 'ready' && !slot.ready) {
      slot.ready = true;
      slot.quietAt = performance.now() + this.options.quietMs;
      if (job !== undefined) this.send(job, slot);
      else this.idle(slot);
      return;
    }
    if (header.kind === 'load-failed') {
      const message = typeof header.message === 'string' ? header.message.slice(0, 2000) : '';
      this.options.logger.error({ plugin: this.options.group, pid: slot.process.pid, message }, 'plugin failed to load in its process');
      return;
    }
    // Anything else must answer the one request the process has, once.
    if (job === undefined || job.startedAt === undefined || header.id !== job.id) {
      slot.process.end({ kind: 'protocol', problem: `an unexpected ${String(header.kind).slice(0, 20)} message` });
      return;
    }
    this.failures = 0;
    if (header.kind === 'answer') {
      this.counters.completed++;
      this.settle(job, undefined, payload);
    } else if (header.kind === 'refusal') this.settle(job, refusalOf(`${this.options.group}.${job.operation}`, header));
    else if (header.kind === 'too-large') this.settle(job, answerTooLarge(Number(header.bytes) || 0, this.options.maxAnswerBytes));
    else if (header.kind === 'failed') this.settle(job, failureOf(header));
    else return slot.process.end({ kind: 'protocol', problem: `an unknown ${String(header.kind).slice(0, 20)} message` });
    this.release(slot);
  }

  /** The process's request is done: it serves the next, or waits idle (its idle timer is armed only then, not between two requests). */
  private release(slot: Slot): void {
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) this.free(job);
    this.dispatch();
    if (!this.closed && !slot.process.ending) this.idle(slot);
  }

  private idle(slot: Slot): void {
    if (slot.job !== undefined) return;
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => slot.process.end({ kind: 'idle' }), this.options.idleMs);
    slot.idle.unref();
    this.dispatch();
  }

  private free(job: Job): void {
    if (!job.holding) return;
    job.holding = false;
    job.slot = undefined;
    this.gate.finished(job);
  }

  private ended(slot: Slot, cause: EndCause): void {
    this.slots.delete(slot);
    clearTimeout(slot.idle);
    const { group } = this.options;
    this.ends[cause.kind] = (this.ends[cause.kind] ?? 0) + 1;
    const job = slot.job;
    slot.job = undefined;
    if (job !== undefined) {
      this.settle(job, pluginCrashed(group, cause));
      this.free(job);
    }
    // Ends the service chose for one request (its deadline, its client gone) or for the share say nothing about the plugin.
    if (cause.kind === 'exited' || cause.kind === 'memory' || cause.kind === 'protocol' || cause.kind === 'start-timeout' || cause.kind === 'busy-idle') {
      if (!this.closed) this.failed(slot, cause);
    }
    this.dispatch();
  }

  /** One more end of the plugin's own doing: log it, and pause new starts after two in a row. */
  private failed(slot: Slot, cause: EndCause): void {
    const { group, logger } = this.options;
    this.failures++;
    const pauseMs = this.failures < 2 ? 0 : Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.failures - 2));
    this.pausedUntil = performance.now() + pauseMs;
    logger.warn({ plugin: group, pid: slot.process.pid, cause: describeEnd(cause), failures: this.failures, pauseMs }, 'plugin process ended');
    if (this.failures === KEEPS_FAILING) logger.error({ plugin: group, failures: this.failures }, 'plugin keeps failing');
    if (pauseMs === 0 || this.hasFreeProcess()) return;
    // Nothing can run them before the pause ends: they are told now, not at their deadlines.
    for (const waiting of this.gate.drain()) this.settle(waiting, new PluginUnavailableError(group, this.failures, pauseMs));
  }

  private arm(job: Job, graceMs: number): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => this.expire(job), Math.max(0, job.deadline - performance.now()) + graceMs);
  }

  /** The job's time is up: waiting, it leaves the queue; booting, its process is given up; running, its process is ended. */
  private expire(job: Job): void {
    if (job.settled) return;
    const slot = job.slot;
    if (slot !== undefined && job.startedAt === undefined) {
      slot.process.end({ kind: 'start-timeout' });
      return;
    }
    const ranMs = job.startedAt === undefined ? 0 : performance.now() - job.startedAt;
    const { group, logger, processes, maxQueue } = this.options;
    if (ranMs < job.budgetMs / 2) {
      // Most of its time went waiting for a process: the share's shortage, not the plugin's loop.
      logger.warn({ plugin: group, operation: `${group}.${job.operation}`, requestId: job.requestId, reason: 'waited past half its deadline', processes, maxQueue }, 'plugin processes busy');
      this.settle(job, new ServerBusyError('The request spent most of its time waiting for the plugin; retry shortly'));
    } else {
      this.counters.timeouts++;
      this.settle(job, operationTimeout(`${group}.${job.operation}`, job.budgetMs));
    }
    if (slot === undefined) this.gate.remove(job);
    else slot.process.end({ kind: 'deadline' });
  }

  /** The client went away: a waiting job leaves the queue, a booting one its process, a running one's process is ended. */
  private abandon(job: Job): void {
    if (job.settled) return;
    this.settle(job, operationTimeout(`${this.options.group}.${job.operation}`, job.budgetMs));
    const slot = job.slot;
    if (slot === undefined) this.gate.remove(job);
    else if (job.startedAt === undefined) {
      slot.job = undefined;
      this.free(job);
      this.idle(slot);
    } else slot.process.end({ kind: 'aborted' });
  }

  private settle(job: Job, error: Error | undefined, bytes?: Uint8Array): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    job.signal?.removeEventListener('abort', job.onAbort);
    if (error !== undefined) job.reject(error);
    else job.resolve(bytes!);
  }
}

/** A handler's bug as the process reported it: its name and stack frames, bounded, never its message. */
function failureOf(header: Readonly<Record<string, unknown>>): WorkerJobError {
  const name = typeof header.errorName === 'string' ? header.errorName.slice(0, 100) : 'Error';
  const frames = Array.isArray(header.frames) ? header.frames.filter((frame): frame is string => typeof frame === 'string').slice(0, 20).map((frame) => frame.slice(0, 300)) : [];
  return new WorkerJobError('failed', name, false, undefined, frames);
}

