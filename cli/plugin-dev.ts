/**
 * `toolshed plugin dev <folder>`: the service with the plugin in `folder` beside the built-ins, in a
 * child process (cli/dev-server.ts) that is started again whenever a file in the folder changes.
 * fs.watch with `recursive` works on Linux from Node 20 on, as on macOS and Windows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync, watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, UsageError, write, type CliIo } from './command.js';

const server = fileURLToPath(new URL('./dev-server.js', import.meta.url));

/** Changes a build tool makes come in bursts (tsc writes each file): one restart after the last. */
const SETTLE_MS = 300;

/** Files whose changes are not the plugin's: its dependencies and its history. */
const ignored = (file: string | null): boolean => file !== null && /^(node_modules|\.git)([\\/]|$)/.test(file);

/** Serves until SIGINT or SIGTERM; resolves with the exit code. */
export async function devCommand(argument: string, options: { config?: string; port?: string }, io: CliIo): Promise<number> {
  const folder = path.resolve(argument);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`There is no folder ${argument}.`);
  const env: NodeJS.ProcessEnv = { ...io.env };
  if (options.config !== undefined) env.TOOLSHED_CONFIG = options.config;
  if (options.port !== undefined) env.PORT = options.port;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = (): void => {
    const started = spawn(process.execPath, ['--enable-source-maps', server, folder], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    started.stdout.pipe(io.stdout, { end: false });
    started.stderr.pipe(io.stderr, { end: false });
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    child = started;
  };
  const stop = async (): Promise<void> => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let timer: NodeJS.Timeout | undefined;
  let restarting = Promise.resolve();
  let queued = false;
  const restart = (): void => {
    // Changes made while a start is queued are picked up by that start.
    if (queued) return;
    queued = true;
    restarting = restarting.then(async () => {
      queued = false;
      await stop();
      await write(io.stderr, `toolshed: ${folder} changed; starting again\n`);
      start();
    });
  };
  const watcher = watch(folder, { recursive: true }, (_event, file) => {
    if (ignored(file)) return;
    clearTimeout(timer);
    timer = setTimeout(restart, SETTLE_MS);
  });
  start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  watcher.close();
  clearTimeout(timer);
  await restarting;
  await stop();
  return EXIT.ok;
}
