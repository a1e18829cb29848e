/**
 * The `toolshed` command line two ways. `toolshed` runs bin/toolshed.js in a child process, as an
 * operator does: for the tests whose subject is the process (its exit code as the shell sees it,
 * stdin, signals, a server). `toolshedInProcess` runs the same runCli that cli/main.ts hands the
 * process's streams to, with streams of its own: for the tests whose subject is what a command
 * answers. A child process costs half a second of CPU, its coverage written out again each time;
 * in process, the modules are loaded once for every command of a file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../cli/run.js';

/** What a command printed and how it ended. */
export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

export const bin = fileURLToPath(new URL('../../../bin/toolshed.js', import.meta.url));

/** The test runner's environment without what a command reads its configuration from (as `serve` does). */
export const cliEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['TOOLSHED_CONFIG', 'PORT', 'HOST'].includes(name)));

const children: ChildProcess[] = [];
// A failed test must not leave a server running: its open pipes would keep the test process alive.
after(() => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL')));

/** How a child is started: `stdin`, when given, is written to it and closed; `node` holds Node's own options. */
interface ChildOptions {
  readonly stdin?: string;
  readonly node?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts bin/toolshed.js with `args`. */
export function startToolshed(args: readonly string[], { stdin, node = [], env = {} }: ChildOptions = {}): { child: ChildProcess; outcome: Promise<CliOutcome> } {
  const child = spawn(process.execPath, [...node, bin, ...args], { env: { ...cliEnv, ...env }, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (stdin !== undefined) child.stdin!.end(stdin);
  const outcome = new Promise<CliOutcome>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return { child, outcome };
}

/** bin/toolshed.js run to its end in a child process. */
export const toolshed = (args: readonly string[], stdin?: string): Promise<CliOutcome> => startToolshed(args, { stdin }).outcome;

/** A stream that keeps what is written to it as text. */
function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/** The command line `args` run by runCli in this process; stdin holds `stdin`, or ends at once (a child's ignored stdin). */
export async function toolshedInProcess(args: readonly string[], stdin?: string): Promise<CliOutcome> {
  const stdout = collector();
  const stderr = collector();
  const code = await runCli(args, { stdout: stdout.stream, stderr: stderr.stream, stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]), env: cliEnv });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
