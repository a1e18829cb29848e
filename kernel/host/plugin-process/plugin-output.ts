/**
 * What a contained plugin prints (its console methods and process.stdout all go to its
 * stderr, child-entry.ts) reaches the service's stderr line by line, each line labelled with the
 * plugin and its process id, and within a budget: {@link OUTPUT_BYTES_PER_MINUTE} a minute for all
 * the processes of one plugin (an {@link OutputBudget} its share holds: a process that prints, then
 * exits to be started again, starts with what is left). Past the budget the service stops reading
 * the plugin's output until the minute is over: what the plugin prints meanwhile waits in its own
 * process (its writes to a pipe are queued there, counted against its own memory caps), and the
 * main thread reads no more than the budget a minute, however fast the plugin prints. Before, the plugin wrote to the service's
 * stderr itself: unlabelled, and as much as it liked.
 */
import type { Readable } from 'node:stream';
import { LogDestination } from '../log-destination.js';

/** What one plugin process may print in a minute before its output waits. */
export const OUTPUT_BYTES_PER_MINUTE = 64 * 1024;
const MINUTE_MS = 60_000;

/**
 * The service's stderr, written as its log is (asynchronously, whole lines, dropped past 16 MiB
 * waiting): a reader of stderr that stops reading never blocks the event loop or grows memory.
 */
let stderr: LogDestination | undefined;
function toStderr(text: string): void {
  stderr ??= new LogDestination(2);
  stderr.write(text);
  stderr.flush();
}

/** Control characters other than tab: a carriage return or an escape sequence could hide a line's label on a terminal. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** What the processes of one plugin may print in a window, and what they printed in this one. */
export class OutputBudget {
  read = 0;
  windowEnds = 0;
  constructor(
    readonly budgetBytes = OUTPUT_BYTES_PER_MINUTE,
    readonly windowMs = MINUTE_MS,
  ) {}

  /** Counts `bytes` read at `now`: whether the budget is spent. */
  count(bytes: number, now: number): boolean {
    if (now >= this.windowEnds) {
      this.windowEnds = now + this.windowMs;
      this.read = 0;
    }
    this.read += bytes;
    return this.read >= this.budgetBytes;
  }

  /** Whether the budget is spent at `now`, before anything more is read. */
  spent(now: number): boolean {
    return now < this.windowEnds && this.read >= this.budgetBytes;
  }
}

export interface OutputOptions {
  /** Says who printed, at the start of each line: `plugin <group> <pid>`. */
  readonly label: string;
  /** Where the labelled lines go (the service's stderr). */
  readonly write?: (text: string) => void;
  /** The plugin's budget, shared by its processes; a budget of this process's own when left out. */
  readonly budget?: OutputBudget;
}

/** Relays `output` (a plugin process's stderr) until it ends. */
export function relayOutput(output: Readable, options: OutputOptions): void {
  const { label, write = toStderr, budget = new OutputBudget() } = options;
  const prefix = `[${label}] `;
  // Lines (without their last newline) as written: each after the label, control characters replaced.
  const labelled = (lines: string): string => `${prefix}${lines.replace(CONTROLS, '\uFFFD').replaceAll('\n', `\n${prefix}`)}\n`;
  let partial = '';
  let timer: NodeJS.Timeout | undefined;
  const waitForWindow = (now: number): void => {
    output.pause();
    timer = setTimeout(() => output.resume(), budget.windowEnds - now);
    timer.unref();
  };
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    const now = Date.now();
    const over = budget.count(Buffer.byteLength(text), now);
    const held = partial + text;
    const end = held.lastIndexOf('\n');
    let whole = end < 0 ? undefined : held.slice(0, end);
    partial = held.slice(end + 1);
    if (over) {
      // A line that never ends is said in the budget's pieces: what is held never passes it.
      if (partial !== '') whole = whole === undefined ? partial : `${whole}\n${partial}`;
      partial = '';
      const notice = `printed ${budget.budgetBytes} bytes within ${budget.windowMs / 1000} s: what it prints next waits until ${new Date(budget.windowEnds).toISOString()}`;
      whole = whole === undefined ? notice : `${whole}\n${notice}`;
    }
    // One write for the whole read, labelled in one pass: 64 KiB of empty lines, each written on
    // its own, held the main thread 70–110 ms.
    if (whole !== undefined) write(labelled(whole));
    if (over) waitForWindow(now);
  });
  // A process started when its plugin's budget is spent reads nothing until the window is over.
  const now = Date.now();
  if (budget.spent(now)) waitForWindow(now);
  output.once('end', () => {
    if (partial !== '') write(labelled(partial));
  });
  output.once('close', () => clearTimeout(timer));
  output.on('error', () => undefined);
}
