/**
 * What a contained plugin prints (its console methods and process.stdout all go to its
 * stderr, child-entry.ts) reaches the service's stderr line by line, each line labelled with the
 * plugin and its process id, and within a budget: {@link OUTPUT_BYTES_PER_MINUTE} a minute per
 * process. Past the budget the service stops reading that process's output until the minute is
 * over: what the plugin prints meanwhile waits in its own process (its writes to a pipe are
 * queued there, counted against its own memory caps), and the main thread reads no more than the
 * budget a minute, however fast the plugin prints. Before, the plugin wrote to the service's
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

export interface OutputOptions {
  /** Says who printed, at the start of each line: `plugin <group> <pid>`. */
  readonly label: string;
  /** Where the labelled lines go (the service's stderr). */
  readonly write?: (text: string) => void;
  readonly budgetBytes?: number;
  readonly windowMs?: number;
}

/** Relays `output` (a plugin process's stderr) until it ends. */
export function relayOutput(output: Readable, options: OutputOptions): void {
  const { label, write = toStderr, budgetBytes = OUTPUT_BYTES_PER_MINUTE, windowMs = MINUTE_MS } = options;
  const prefix = `[${label}] `;
  // Lines (without their last newline) as written: each after the label, control characters replaced.
  const labelled = (lines: string): string => `${prefix}${lines.replace(CONTROLS, '\uFFFD').replaceAll('\n', `\n${prefix}`)}\n`;
  let partial = '';
  let read = 0;
  let windowEnds = 0;
  let timer: NodeJS.Timeout | undefined;
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    const now = Date.now();
    if (now >= windowEnds) {
      windowEnds = now + windowMs;
      read = 0;
    }
    read += Buffer.byteLength(text);
    const held = partial + text;
    const end = held.lastIndexOf('\n');
    let whole = end < 0 ? undefined : held.slice(0, end);
    partial = held.slice(end + 1);
    const over = read >= budgetBytes;
    if (over) {
      // A line that never ends is said in the budget's pieces: what is held never passes it.
      if (partial !== '') whole = whole === undefined ? partial : `${whole}\n${partial}`;
      partial = '';
      const notice = `printed ${budgetBytes} bytes within ${windowMs / 1000} s: what it prints next waits until ${new Date(windowEnds).toISOString()}`;
      whole = whole === undefined ? notice : `${whole}\n${notice}`;
    }
    // One write for the whole read, labelled in one pass: 64 KiB of empty lines, each written on
    // its own, held the main thread 70–110 ms.
    if (whole !== undefined) write(labelled(whole));
    if (!over) return;
    output.pause();
    timer = setTimeout(() => output.resume(), windowEnds - now);
    timer.unref();
  });
  output.once('end', () => {
    if (partial !== '') write(labelled(partial));
  });
  output.once('close', () => clearTimeout(timer));
  output.on('error', () => undefined);
}
