/**
 * One process of a contained plugin, as the service sees it: started from a Launch (launch.ts), in
 * a process group of its own so that ending it ends whatever it started; its stdout read as frames
 * under bounds (frames.ts); ended with SIGKILL, which no code in it can catch or delay. Why it ended
 * is kept: the service's own reason when it ended it (the deadline, the memory cap, a frame out of
 * bounds, the client gone), else the exit code or signal the system reports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { readProcStat } from '../proc-stat.js';
import { encodeFrame, FrameError, FrameReader, type Frame } from './frames.js';
import type { Launch } from './launch.js';
import { tooManyPieces } from '../pieces.js';
import { type OutputBudget, relayOutput } from './plugin-output.js';
import { MAX_HEADER_BYTES } from './protocol.js';

/** Why a process ended. `exited` is its own doing (an exit, a crash, a signal from itself or another process). */
export type EndCause =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly startError?: string }
  | { readonly kind: 'deadline' }
  | { readonly kind: 'memory'; readonly rssMb: number; readonly capMb: number }
  | { readonly kind: 'busy-idle' }
  | { readonly kind: 'protocol'; readonly problem: string }
  | { readonly kind: 'start-timeout' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'idle' }
  | { readonly kind: 'closing' };

/** How often each plugin process's resident memory (and an idle one's CPU time) is read. */
export const WATCH_MS = 100;

/** What the owner of a process hears from it. */
export interface ProcessEvents {
  frame(frame: Frame): void;
  /** Once, after the system reports the process gone. */
  ended(cause: EndCause): void;
}

/** Bounds of a process: the largest payload it may send, its niceness; and who it is, in what it prints. */
export interface ProcessOptions {
  readonly maxPayloadBytes: number;
  readonly niceness: number;
  /** `plugin <group>`: each line it prints is labelled with this and its process id (plugin-output.ts). */
  readonly label: string;
  /** What it may print, shared with the other processes of its plugin (plugin-output.ts); its own when left out. */
  readonly output?: OutputBudget;
}

export class PluginProcess {
  private readonly child: ChildProcess;
  private cause: EndCause | undefined;
  private done = false;
  /** Frames sent this turn of the event loop, written together when it ends. */
  private pending: Uint8Array[] | undefined;
  private markGone!: () => void;
  /** Settles once the system reports the process gone. */
  readonly gone = new Promise<void>((resolve) => (this.markGone = resolve));

  constructor(launch: Launch, options: ProcessOptions, private readonly events: ProcessEvents) {
    this.child = spawn(launch.command, [...launch.args], {
      env: { ...launch.env },
      cwd: launch.cwd,
      // stdin and stdout are the channel; the plugin's own output comes on stderr, relayed under a budget.
      stdio: ['pipe', 'pipe', 'pipe'],
      // A group of its own: ending it ends every process it started (with the childProcess grant), and a terminal's Ctrl-C is not its signal.
      detached: true,
      ...(launch.user === undefined ? {} : { uid: launch.user.uid, gid: launch.user.gid }),
    });
    relayOutput(this.child.stderr!, { label: `${options.label} ${this.child.pid ?? 'unstarted'}`, ...(options.output ? { budget: options.output } : {}) });
    const reader = new FrameReader({ headerBytes: MAX_HEADER_BYTES, payloadBytes: options.maxPayloadBytes });
    // Reads and bytes since the last whole frame: a frame written a byte at a time cost the main
    // thread a read per byte until the deadline (40 % of a core for 10 s), and is ended instead.
    let pieces = 0;
    let bytes = 0;
    this.child.stdout!.on('data', (chunk: Buffer) => {
      if (this.cause !== undefined) return;
      let frames: Frame[];
      try {
        frames = reader.push(chunk);
      } catch (error) {
        this.end({ kind: 'protocol', problem: error instanceof FrameError ? error.message : String(error) });
        return;
      }
      if (frames.length > 0) {
        pieces = 0;
        bytes = 0;
      } else if (tooManyPieces(++pieces, (bytes += chunk.length))) {
        this.end({ kind: 'protocol', problem: `a frame in ${pieces} pieces of ${Math.floor(bytes / pieces)} bytes on average` });
        return;
      }
      for (const frame of frames) if (this.cause === undefined) this.events.frame(frame);
    });
    // A write to a process that just died fails; its exit is what counts.
    this.child.stdin!.on('error', () => undefined);
    // It could not be started (Node not executable by its user, say): the system's code says why.
    this.child.once('error', (error: NodeJS.ErrnoException) => this.finish({ kind: 'exited', code: null, signal: null, startError: error.code ?? error.name }));
    this.child.once('exit', (code, signal) => this.finish(this.cause ?? { kind: 'exited', code, signal }));
    if (this.child.pid !== undefined) {
      lowerPriority(this.child.pid, options.niceness);
      endedFirstWhenMemoryRunsOut(this.child.pid);
    }
  }

  /** The process id (undefined when it could not be started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True once it was ended or is gone. */
  get ending(): boolean {
    return this.cause !== undefined || this.done;
  }

  /**
   * Sends a frame with every other frame of this turn of the event loop, in one write once the turn
   * is done: the requests that arrived together reach the process together, and it wakes once for
   * them all rather than once each (bench row (f)).
   */
  send(header: object, payload?: Uint8Array): void {
    if (this.ending) return;
    if (this.pending === undefined) {
      this.pending = [];
      setImmediate(() => this.flush());
    }
    for (const part of encodeFrame(header, payload)) this.pending.push(part);
  }

  private flush(): void {
    const parts = this.pending ?? [];
    this.pending = undefined;
    if (this.ending) return;
    const stdin = this.child.stdin!;
    stdin.cork();
    for (const part of parts) stdin.write(part);
    stdin.uncork();
  }

  /** Ends the process and every process of its group at once (SIGKILL); `cause` is what its owner hears. */
  end(cause: EndCause): void {
    if (this.ending) return;
    this.cause = cause;
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone already (or was never made): the process itself then.
      this.child.kill('SIGKILL');
    }
  }

  /** Resident memory in MiB as the system counts it (Linux /proc), or undefined where it cannot be read. */
  residentMb(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined || this.done) return undefined;
    try {
      const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) / 1024;
    } catch {
      return undefined;
    }
  }

  /**
   * CPU time the process has used, user and system, in milliseconds (Linux /proc, counted in the
   * system's clock ticks of 10 ms), or undefined where it cannot be read.
   */
  cpuMs(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined || this.done) return undefined;
    return readProcStat(pid)?.cpuMs;
  }

  private finish(cause: EndCause): void {
    if (this.done) return;
    this.done = true;
    this.child.stdout?.removeAllListeners('data');
    this.child.stdin?.destroy();
    this.markGone();
    this.events.ended(cause);
  }
}

/**
 * Makes the process the one Linux's OOM killer ends first (`oom_score_adj` 1000, proc(5)), before
 * the service, whatever the sizes: its resident-memory cap is read every 100 ms, and a plugin may
 * pass it by what it allocates in between, or several processes under their caps may together pass
 * the container's limit; the killer would otherwise end the largest process, which may be the
 * service. Everything it starts inherits the score. Its process cannot lower it: under Node's
 * permission model it writes no file (without that, its own user could write it back to 0).
 */
function endedFirstWhenMemoryRunsOut(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/oom_score_adj`, '1000');
  } catch {
    // Not Linux, gone already, or not permitted: the killer weighs it by its size alone.
  }
}

/**
 * Lowers the process's CPU priority to `niceness` (never raises it), so that the service's main
 * thread wins a shared core. The plugin may lower its own further; raising it back needs a
 * privilege it does not have under another user id.
 */
function lowerPriority(pid: number, niceness: number): void {
  if (niceness <= 0) return;
  try {
    if (getPriority(pid) < niceness) setPriority(pid, niceness);
  } catch {
    // Gone already, or not permitted: it runs at the service's priority.
  }
}
