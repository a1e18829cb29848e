/**
 * One contained plugin's share: up to `processes` processes of its own, behind a bounded queue (the
 * pool's JobGate: a request beyond it is 503 `server_busy` at once). A process runs one request at a
 * time; once every process is started and busy, each may hold up to `pipeline` requests, sent
 * ahead and run in the order sent, so that the requests that arrive together cross to it in one
 * write and their answers come back together (a process that holds a large request holds no other).
 * Each request has its deadline, counted from its arrival (queue included) but not while its
 * process boots; past it the process is ended if it is running that request, whatever it started
 * with it, and the requests it held behind it go to a new one; a request whose deadline passes while
 * it waits in a process is answered at once and skipped by the process when its turn comes. A
 * process that ends on its own (an exit, a crash, a kill by the plugin itself) or over its memory
 * cap costs only the request it was running (502 `plugin_crashed`); after two such ends in a row the
 * share waits before it starts another, doubling the pause up to a cap, and answers 503
 * `plugin_unavailable` meanwhile, so a plugin that keeps dying costs no CPU in a loop.
 */
import { ServerBusyError, WorkerJobError } from '@toolshed/plugin-sdk';
import { answerTooLarge } from '../answer.js';
import { operationTimeout } from '../deadline.js';
import { JobGate } from '../pool/job-gate.js';
import type { Frame } from './frames.js';
import { PluginProcess, type EndCause } from './plugin-process.js';
import { monotonicMs } from './protocol.js';
import { QuietWatch } from './quiet-watch.js';
import { describeEnd, pluginCrashed, PluginUnavailableError } from './refusals.js';
import { failureOf, refusalOf } from './refusal-check.js';
import { KEEPS_FAILING, RestartPause } from './restart-pause.js';
import { OutputBudget } from './plugin-output.js';
import { AnswerSlots } from './answer-slots.js';
import type { Job, ShareOptions, ShareRunOptions, ShareStats, Slot } from './share-types.js';

export type { ShareOptions, ShareRunOptions, ShareStats } from './share-types.js';

/** How long a process may take to import and warm the plugin before it is ended (as the probe's limit). */
export const START_GUARD_MS = 30_000;
/**
 * How long a process may take to skip a request given up on once its turn comes (it answers
 * `skipped` at once) before the service takes it that the process is running it anyway, and ends it.
 */
export const OVERDUE_GRACE_MS = 100;

export class PluginShare {
  private readonly gate: JobGate<Job>;
  private readonly slots = new Set<Slot>();
  private nextId = 1;
  private closed = false;
  private readonly pause = new RestartPause();
  /** What its processes may print together: a process started again does not start a budget of its own. */
  private readonly output = new OutputBudget();
  /** Its answers' checks on the host's pool: as many at once as it has processes (answer-slots.ts). */
  readonly answerChecks: AnswerSlots;
  private readonly counters = { completed: 0, timeouts: 0, refused: 0 };
  private readonly ends: Record<string, number> = {};

  constructor(readonly options: ShareOptions) {
    this.answerChecks = new AnswerSlots(options.processes);
    // Requests sent ahead count as waiting: the share admits processes + maxQueue requests, pipelined or not.
    this.gate = new JobGate(options.processes, options.maxQueue, options.processes * (options.pipeline - 1));
  }

  /** Runs `operation` on `body` (JSON the service checked) and resolves to the answer's JSON bytes, unchecked. */
  run(operation: string, body: Uint8Array, options: ShareRunOptions): Promise<Uint8Array> {
    return new Promise<Uint8Array>((resolve, reject) => {
      const { group, logger, processes, maxQueue } = this.options;
      if (this.closed || options.signal?.aborted === true) return reject(new WorkerJobError('aborted'));
      const waitMs = this.pause.leftMs(performance.now());
      if (waitMs > 0 && !this.hasRoom()) return reject(new PluginUnavailableError(group, this.pause.failures, waitMs));
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
      failures: this.pause.failures,
      paused: this.pause.leftMs(performance.now()) > 0,
      answerChecks: { ...this.answerChecks.counts },
    };
  }

  /**
   * Each live process's resident memory against the cap, and each idle one's CPU time past its last
   * request's deadline (threads or timers a handler left running): one over the cap, or still
   * computing (quiet-watch.ts), is ended. `everyMs`: the time since the last watch.
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
      if (slot.jobs.length > 0 || now < slot.quietAt) {
        slot.quiet.reset();
        continue;
      }
      if (!slot.quiet.computing(slot.process.cpuMs(), everyMs)) continue;
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
      for (const job of slot.jobs) this.settle(job, new WorkerJobError('aborted'));
      slot.process.end({ kind: 'closing' });
    }
    await Promise.all(slots.map((slot) => slot.process.gone));
  }

  /** True when a small request could go to a process now. */
  private hasRoom(): boolean {
    return typeof this.placeFor({ bulk: false }) === 'object';
  }

  /**
   * Where `job` can go now: a ready process without requests; one still booting without requests;
   * a new process while the share has fewer than `processes`; else the ready process holding the
   * fewest requests, if it holds fewer than `pipeline` and no large one (a large request is never
   * sent ahead, nor anything behind one). A process being ended (idle, say) takes nothing: it would
   * never send the request.
   */
  private placeFor(job: { readonly bulk: boolean }): Slot | 'start' | undefined {
    const { processes, pipeline } = this.options;
    let booting: Slot | undefined;
    let shortest: Slot | undefined;
    for (const slot of this.slots) {
      if (slot.process.ending) continue;
      const held = slot.jobs.length;
      if (held === 0) {
        if (slot.ready) return slot;
        booting ??= slot;
      } else if (slot.ready && held < pipeline && !slot.jobs.some((other) => other.bulk) && (shortest === undefined || held < shortest.jobs.length)) {
        shortest = slot;
      }
    }
    if (booting !== undefined) return booting;
    if (this.slots.size < processes && this.pause.leftMs(performance.now()) <= 0) return 'start';
    return job.bulk ? undefined : shortest;
  }

  /** Hands waiting jobs to processes while the gate lets them run and a process can take them. */
  private dispatch(): void {
    if (this.closed) return;
    while (this.gate.queued > 0) {
      // The gate asks of each waiting job in turn and takes the first with a place: that job's place is the last asked for.
      let place: Slot | 'start' | undefined;
      const job = this.gate.next((waiting) => (place = this.placeFor(waiting)) !== undefined);
      if (job === undefined || place === undefined) return;
      job.holding = true;
      this.bind(job, place === 'start' ? this.start() : place);
    }
  }

  private bind(job: Job, slot: Slot): void {
    clearTimeout(slot.idle);
    slot.jobs.push(job);
    job.slot = slot;
    if (slot.ready) return this.send(job, slot);
    // Booting the process and importing the plugin are not the job's time: its clock stops until the process is ready.
    job.boundAt = performance.now();
    this.arm(job, START_GUARD_MS);
  }

  private send(job: Job, slot: Slot): void {
    const now = performance.now();
    if (job.boundAt !== undefined) {
      job.deadline += now - job.boundAt;
      job.boundAt = undefined;
      // Its timer was the start guard: it is its deadline again, moved by the boot.
      this.arm(job, 0);
    }
    if (slot.jobs[0] === job) job.startedAt = now;
    // Whatever the requests it holds start must be done by the last of their deadlines, answered or not.
    slot.quietAt = slot.jobs.length === 1 ? job.deadline : Math.max(slot.quietAt, job.deadline);
    slot.process.send({ kind: 'run', id: job.id, operation: job.operation, deadline: monotonicMs() + (job.deadline - now) }, job.body);
  }

  /** A new process; the share's config goes to it first. */
  private start(): Slot {
    const { launch, niceness, maxAnswerBytes, config } = this.options;
    // Its events come later (a process's output and exit are asynchronous), once the slot exists.
    const made: { slot?: Slot } = {};
    const process = new PluginProcess(launch, { maxPayloadBytes: maxAnswerBytes, niceness, label: `plugin ${this.options.group}`, output: this.output }, {
      frame: (frame) => this.heard(made.slot!, frame),
      ended: (cause) => this.ended(made.slot!, cause),
    });
    const slot: Slot = (made.slot = { process, ready: false, jobs: [], quietAt: Number.POSITIVE_INFINITY, quiet: new QuietWatch() });
    this.slots.add(slot);
    process.send({ kind: 'init', maxAnswerBytes }, Buffer.from(JSON.stringify(config ?? null)));
    return slot;
  }

  private heard(slot: Slot, { header, payload }: Frame): void {
    if (header.kind === 'ready' && !slot.ready) {
      slot.ready = true;
      slot.quietAt = performance.now() + this.options.quietMs;
      for (const job of slot.jobs) this.send(job, slot);
      if (slot.jobs.length === 0) this.idle(slot);
      else this.dispatch();
      return;
    }
    // Once, before it is ready; any other is ended below as unexpected. A plugin that wrote this
    // message on its channel without end made the service log 800 MB in 3 s, on a whole core.
    if (header.kind === 'load-failed' && !slot.ready && slot.loadFailed !== true) {
      slot.loadFailed = true;
      const message = typeof header.message === 'string' ? header.message.slice(0, 2000) : '';
      this.options.logger.error({ plugin: this.options.group, pid: slot.process.pid, message }, 'plugin failed to load in its process');
      return;
    }
    // Anything else must answer the oldest request the process holds, once.
    const job = slot.jobs[0];
    if (job === undefined || !slot.ready || header.id !== job.id) {
      slot.process.end({ kind: 'protocol', problem: `an unexpected ${String(header.kind).slice(0, 20)} message` });
      return;
    }
    this.pause.answered();
    if (header.kind === 'answer') {
      if (!job.settled) this.counters.completed++;
      this.settle(job, undefined, payload);
    } else if (header.kind === 'refusal') this.settle(job, refusalOf(`${this.options.group}.${job.operation}`, header));
    else if (header.kind === 'too-large') this.settle(job, answerTooLarge(Number(header.bytes) || 0, this.options.maxAnswerBytes));
    else if (header.kind === 'failed') this.settle(job, failureOf(header));
    // Its deadline passed by the process's reading of the clock before the service's timer fired: answered as that timer would.
    else if (header.kind === 'skipped') this.timeUp(job);
    else return slot.process.end({ kind: 'protocol', problem: `an unknown ${String(header.kind).slice(0, 20)} message` });
    this.release(slot);
  }

  /** The process's oldest request is done: the next it holds is now the one it runs; it takes more, or waits idle (its idle timer is armed only then). */
  private release(slot: Slot): void {
    const done = slot.jobs.shift();
    if (done !== undefined) this.free(done);
    clearTimeout(slot.overdue);
    const next = slot.jobs[0];
    if (next !== undefined) {
      next.startedAt = performance.now();
      // Given up on while it waited: the process skips it at once; if it runs it instead, it is ended.
      if (next.settled) slot.overdue = setTimeout(() => slot.jobs[0] === next && slot.process.end({ kind: 'deadline' }), OVERDUE_GRACE_MS);
    }
    this.dispatch();
    if (!this.closed && !slot.process.ending) this.idle(slot);
  }

  private idle(slot: Slot): void {
    if (slot.jobs.length > 0) return;
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
    clearTimeout(slot.overdue);
    const { group } = this.options;
    this.ends[cause.kind] = (this.ends[cause.kind] ?? 0) + 1;
    const [running, ...waiting] = slot.jobs.splice(0);
    if (running !== undefined) {
      this.settle(running, pluginCrashed(group, cause));
      this.free(running);
    }
    // Those it held behind the one it ran had not started: a new process runs them, their deadlines unchanged.
    const again: Job[] = [];
    for (const job of waiting) {
      if (job.settled) {
        this.free(job);
        continue;
      }
      job.holding = false;
      job.slot = undefined;
      job.startedAt = undefined;
      again.push(job);
    }
    this.gate.requeue(again);
    // Ends the service chose for one request (its deadline, its client gone) or for the share say nothing about the plugin.
    if (cause.kind === 'exited' || cause.kind === 'memory' || cause.kind === 'protocol' || cause.kind === 'start-timeout' || cause.kind === 'busy-idle') {
      if (!this.closed) this.failed(slot, cause);
    }
    this.dispatch();
  }

  /** One more end of the plugin's own doing: log it, and pause new starts after two in a row. */
  private failed(slot: Slot, cause: EndCause): void {
    const { group, logger } = this.options;
    const pauseMs = this.pause.failed(performance.now());
    const { failures } = this.pause;
    logger.warn({ plugin: group, pid: slot.process.pid, cause: describeEnd(cause), failures, pauseMs }, 'plugin process ended');
    if (failures === KEEPS_FAILING) logger.error({ plugin: group, failures }, 'plugin keeps failing');
    if (pauseMs === 0 || this.hasRoom()) return;
    // Nothing can run them before the pause ends: they are told now, not at their deadlines.
    for (const waiting of this.gate.drain()) this.settle(waiting, new PluginUnavailableError(group, failures, pauseMs));
  }

  private arm(job: Job, graceMs: number): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => this.expire(job), Math.max(0, job.deadline - performance.now()) + graceMs);
  }

  /**
   * The job's time is up: waiting, it leaves the queue; booting, its process is given up; running,
   * its process is ended; sent ahead, it is answered now and its process skips it.
   */
  private expire(job: Job): void {
    if (job.settled) return;
    const slot = job.slot;
    if (slot !== undefined && !slot.ready) {
      slot.process.end({ kind: 'start-timeout' });
      return;
    }
    this.timeUp(job);
    if (slot === undefined) this.gate.remove(job);
    else if (slot.jobs[0] === job) slot.process.end({ kind: 'deadline' });
  }

  /** Answers a job whose time is up: 503 when most of it went waiting for a process (the share's shortage, not the plugin's loop), else 504. */
  private timeUp(job: Job): void {
    if (job.settled) return;
    const ranMs = job.startedAt === undefined ? 0 : performance.now() - job.startedAt;
    const { group, logger, processes, maxQueue } = this.options;
    if (ranMs < job.budgetMs / 2) {
      logger.warn({ plugin: group, operation: `${group}.${job.operation}`, requestId: job.requestId, reason: 'waited past half its deadline', processes, maxQueue }, 'plugin processes busy');
      this.settle(job, new ServerBusyError('The request spent most of its time waiting for the plugin; retry shortly'));
    } else {
      this.counters.timeouts++;
      this.settle(job, operationTimeout(`${group}.${job.operation}`, job.budgetMs));
    }
  }

  /** The client went away: a waiting job leaves the queue, a booting one its process, a running one's process is ended, one sent ahead is cancelled. */
  private abandon(job: Job): void {
    if (job.settled) return;
    this.settle(job, operationTimeout(`${this.options.group}.${job.operation}`, job.budgetMs));
    const slot = job.slot;
    if (slot === undefined) this.gate.remove(job);
    else if (!slot.ready) {
      slot.jobs.splice(slot.jobs.indexOf(job), 1);
      this.free(job);
      this.idle(slot);
    } else if (slot.jobs[0] === job) slot.process.end({ kind: 'aborted' });
    else slot.process.send({ kind: 'cancel', id: job.id });
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
