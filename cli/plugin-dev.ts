/**
 * `toolshed plugin dev <folder>`: the service with the plugin in `folder` beside the built-ins, in a
 * child process (cli/dev-server.ts) that is started again once per build. The file events of one
 * build (it writes many files) are coalesced, and a start happens only when a file the service
 * loads differs from those the running one started with: TypeScript sources are never loaded, so
 * saving `src/*.ts` restarts nothing until its build lands in `dist/`. When `src/` is newer than
 * `dist/` (not built yet, or the build failed: with noEmitOnError a failed build writes nothing) it
 * says so, once until the next build. fs.watch with `recursive` works on Linux from Node 20 on, as
 * on macOS and Windows.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync, watch, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, UsageError, write, type CliIo } from './command.js';
import { whenParentExits } from '../service/parent-exit.js';

const server = fileURLToPath(new URL('./dev-server.js', import.meta.url));

/** Changes a build tool makes come in bursts (tsc writes each file): the folder is looked at once the burst is over. */
const SETTLE_MS = 300;

/** Folders that are not the plugin's: its dependencies and its history. */
const foreign = new Set(['node_modules', '.git']);
const ignored = (file: string | null): boolean => file !== null && /^(node_modules|\.git)([\\/]|$)/.test(file);

/** TypeScript sources and declarations: the service loads what they are built into, never them. */
const isTypeScript = (file: string): boolean => /\.[mc]?tsx?$/.test(file);

function walk(root: string, visit: (file: string, stats: Stats) => void, relative = ''): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(root, relative), { withFileTypes: true });
  } catch {
    return; // Removed meanwhile (a build cleaning dist/): the next event looks again.
  }
  for (const entry of entries) {
    const file = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!foreign.has(entry.name)) walk(root, visit, file);
    } else {
      const stats = statSync(path.join(root, file), { throwIfNoEntry: false });
      if (stats?.isFile()) visit(file, stats);
    }
  }
}

/** What the service loads from a plugin folder, and whether its sources are newer than their build. */
export interface FolderSurvey {
  /** Every file but TypeScript, by path, size and modification time: equal surveys load the same code. */
  readonly loaded: string;
  /** The newest file of `src/` when it is newer than everything in `dist/` (or there is no `dist/`). */
  readonly unbuilt?: string;
}

export function surveyFolder(folder: string): FolderSurvey {
  const loaded: string[] = [];
  let newestSource: { file: string; time: number } | undefined;
  let newestBuilt = -Infinity;
  walk(folder, (file, stats) => {
    const top = file.split(path.sep)[0];
    if (isTypeScript(file)) {
      if (top === 'src' && !/\.d\.[mc]?ts$/.test(file) && stats.mtimeMs > (newestSource?.time ?? -Infinity)) newestSource = { file, time: stats.mtimeMs };
      return;
    }
    if (top === 'dist') newestBuilt = Math.max(newestBuilt, stats.mtimeMs);
    loaded.push(`${file}\0${stats.size}\0${stats.mtimeMs}`);
  });
  const unbuilt = newestSource !== undefined && newestSource.time > newestBuilt ? newestSource.file : undefined;
  return { loaded: loaded.sort().join('\n'), ...(unbuilt === undefined ? {} : { unbuilt }) };
}

/** Serves until SIGINT or SIGTERM (or, started by npm, until npm's shell exits); resolves with the exit code. */
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
  let saidUnbuilt = false;
  const sayIfUnbuilt = async ({ unbuilt }: FolderSurvey): Promise<void> => {
    if (unbuilt === undefined || saidUnbuilt) {
      saidUnbuilt = unbuilt !== undefined;
      return;
    }
    saidUnbuilt = true;
    await write(
      io.stderr,
      `toolshed: src/ is newer than dist/ (${unbuilt}): the service runs the last build. Build it (npm run build, or keep npx tsc --watch running); a build with type errors writes nothing, so read its errors.\n`,
    );
  };
  let running = surveyFolder(folder);
  let timer: NodeJS.Timeout | undefined;
  let looking = Promise.resolve();
  const look = (): void => {
    // One look at a time; a look finds every change made before it, so the next may find none.
    looking = looking.then(async () => {
      const now = surveyFolder(folder);
      await sayIfUnbuilt(now);
      if (now.loaded === running.loaded) return;
      running = now;
      await stop();
      await write(io.stderr, `toolshed: ${folder} changed; starting again\n`);
      start();
    });
  };
  const watcher = watch(folder, { recursive: true }, (_event, file) => {
    if (ignored(file)) return;
    clearTimeout(timer);
    timer = setTimeout(look, SETTLE_MS);
  });
  await sayIfUnbuilt(running);
  start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    // `npx toolshed plugin dev`: npm's SIGTERM ends the shell between npm and this process.
    whenParentExits(io.env, resolve);
  });
  watcher.close();
  clearTimeout(timer);
  await looking;
  await stop();
  return EXIT.ok;
}
