// Runs the compiled tests. Node 20 neither expands globs nor finds .js tests below a folder on its
// own (it then exits 0 having run nothing), so the files are listed here explicitly. Arguments
// narrow the run to source folders: `node scripts/run-tests.mjs plugins/base64`.
//
// The files run side by side: most of their time is spent waiting on sockets and child processes
// (npm, tsc, a browser), so two cores keep several busy. Each file is its own process with its own
// ports (0), temp folders and pool, so they share nothing but the checkout. Two kinds of file run
// afterwards, one at a time: those that measure how the service holds up under load of their own
// making, and those that bound CPU-heavy work (10 MB inputs) by the SDK's hang guard; beside
// neighbours the first would measure the machine, and the second ran five times slower and past
// the guard. The second kind runs one file per core (each has a core, as alone); the first alone.
// TEST_CONCURRENCY sets how many files run at once (1: one at a time, as node --test).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fg from 'fast-glob';

const roots = process.argv.slice(2);
const patterns = roots.length > 0
  ? roots.map((root) => (root.startsWith('plugin-sdk') ? `${root.replace(/^plugin-sdk\/?(src\/?)?/, 'plugin-sdk/dist/')}/**/*.test.js` : `dist/${root}/**/*.test.js`))
  : ['dist/**/*.test.js', 'plugin-sdk/dist/**/*.test.js'];
const files = (await fg(patterns.map((pattern) => pattern.replace(/\/+/g, '/')), { ignore: ['**/node_modules/**'] })).sort();
if (files.length === 0) {
  console.error(`No compiled test files match ${patterns.join(', ')}; run the build first.`);
  process.exit(1);
}

/**
 * Files that assert the service keeps answering while they load it: /healthz within a margin during
 * the hostile corpus, event-loop blocks of a known length, none while 10 MiB bodies are parsed, none
 * of 50 ms from a manifest's pattern, a chain of twelve 32 MiB answers under one deadline (beside
 * five other files on two cores it took four minutes and passed its deadline).
 */
const underLoad = new Set([
  'dist/test/hostile/hostile.test.js',
  'dist/test/watchdog.test.js',
  'dist/test/large-door-bodies.test.js',
  'dist/test/manifest-patterns.test.js',
  'dist/test/amplifying-recipe.test.js',
]);
/** Files whose CPU-bound work must end within the hang guard (HANG_GUARD_MS) of the SDK. */
const hangGuarded = (file) => readFileSync(file, 'utf8').includes('HANG_GUARD_MS');
const alone = new Set(files.filter((file) => underLoad.has(file) || hangGuarded(file)));
/**
 * The longest files start first, so that none of them starts last and runs on alone: by the CPU
 * each takes (the files side by side share the cores, so CPU, not a file's time alone, is what
 * makes it long), as measured on two cores: the command-line files' many processes, the browser
 * files' Chromium, npm and tsc runs; and the runner's own test, which mostly waits (a hang guard
 * run out in a batch of its own) and, started late, was the last file running for 7 s. The
 * hang-guarded files keep the same order among themselves: data-converter's on the host threads
 * took as long as all the others on one core, and started by name it ran on alone. Order only: a
 * file missing here or from this list changes nothing else.
 */
const longest = [
  'dist/test/test-runner.test.js',
  'dist/test/host-threads/data-converter.test.js',
  'dist/test/host-threads/sql-formatter.test.js',
  'dist/test/cli.test.js',
  'dist/test/browser/tool-pages.test.js',
  'dist/test/plugin-guide.test.js',
  'dist/test/plugin-commands.test.js',
  'dist/test/browser/tool-pages-trial.test.js',
  'dist/test/browser/docs-page.test.js',
  'dist/test/browser/tool-pages-feel.test.js',
  'dist/test/scaffold.test.js',
  'dist/test/sdk-package.test.js',
  'dist/test/recipes-cli.test.js',
  'dist/test/browser/tool-pages-recipes.test.js',
  'dist/test/example-plugin.test.js',
  'dist/test/plugin-dev.test.js',
  'dist/test/systemd-install.test.js',
  'dist/test/first-run.test.js',
];
const rank = (file) => (longest.includes(file) ? longest.indexOf(file) : longest.length);
const byRank = (a, b) => rank(a) - rank(b);
const together = files.filter((file) => !alone.has(file)).sort(byRank);
const loading = files.filter((file) => underLoad.has(file));
const guarded = files.filter((file) => alone.has(file) && !underLoad.has(file)).sort(byRank);

const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? availableParallelism() * 3));

/**
 * How long one batch may run before its test processes are ended and the run fails naming them: a
 * hang guard, not a speed target (the longest batch, the files side by side, took 4 to 5 minutes
 * on two quiet cores in 2026-12, and 5 beside two busy loops). A
 * file that never ends would otherwise hold the run until whoever started it gives up, saying nothing.
 */
const BATCH_GUARD_MS = Number(process.env.TEST_BATCH_GUARD_MS ?? 30 * 60_000);

/**
 * Where a hung file's Node processes write their diagnostic report (stack, open handles) when the
 * guard below signals them; every Node process of the run may write one (NODE_OPTIONS), none does
 * unless signalled.
 */
const reports = mkdtempSync(path.join(tmpdir(), 'toolshed-test-reports-'));
process.on('exit', () => rmSync(reports, { recursive: true, force: true }));
/** Where the reporter writes each file's duration (file-durations-reporter.mjs). */
const durations = path.join(reports, 'durations.jsonl');
const env = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --report-on-signal --report-directory=${reports}`.trim(),
  TEST_DURATIONS_FILE: durations,
};

/**
 * The slowest files of the whole run and how long each took (files side by side overlap: where the
 * minutes go, not a sum), then every failed test with its error, last, where a log cut to its tail
 * still shows why.
 */
function printClosing() {
  let rows;
  try {
    rows = readFileSync(durations, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    return; // no file ended
  }
  const failures = rows.filter((row) => row.failed !== undefined);
  rows = rows.filter((row) => row.seconds !== undefined);
  rows.sort((a, b) => b.seconds - a.seconds);
  const shown = Number(process.env.TEST_SLOWEST ?? 15);
  console.log(`\nSlowest test files (seconds each; ${rows.length} files):`);
  for (const row of rows.slice(0, shown)) console.log(`  ${row.seconds.toFixed(1).padStart(7)} s  ${row.passed ? '' : 'FAILED '}${row.file}`);
  if (failures.length === 0) return;
  console.log(`\nFailed tests (${failures.length}), each with the first lines of its error:`);
  for (const { failed, file, message } of failures) console.log(`  ${file}: ${failed}\n${message.replace(/^/gm, '      ')}`);
}

/** What a diagnostic report says of a process: its JavaScript stack and its active handles. */
function summary(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const stack = (report.javascriptStack?.stack ?? []).slice(0, 12).map((line) => `      ${line.trim()}`);
  const handles = (report.libuv ?? []).filter((handle) => handle.is_active && !['async', 'check', 'prepare', 'idle', 'loop', 'signal'].includes(handle.type)).map((handle) => `      ${handle.type}${handle.remoteEndpoint ? ` to ${handle.remoteEndpoint.host}:${handle.remoteEndpoint.port}` : ''}${handle.localEndpoint ? ` at ${handle.localEndpoint.host}:${handle.localEndpoint.port}` : ''}${handle.firesInMsFromNow !== undefined ? ` in ${handle.firesInMsFromNow} ms` : ''}`);
  return [`    pid ${report.header?.processId}: ${report.javascriptStack?.message ?? ''}`, ...stack, '    active handles:', ...handles].join('\n');
}

/** Reports what every Node process below the batch is doing, then ends them (not the runner). */
async function endHung(child) {
  // From the build, as the tests are: the same walk over /proc that the browser tests use.
  const { descendantsOf } = await import(new URL('../dist/test/support/process-tree.js', import.meta.url).href);
  const left = descendantsOf(child.pid);
  console.error(`\nThe batch ran past ${Math.round(BATCH_GUARD_MS / 1000)} s; ending what it started:`);
  // The end of a command line names the file (Node 26 puts many flags before it).
  for (const { pid, command } of left) console.error(`  ${pid} ${command.length > 300 ? `…${command.slice(-300)}` : command}`);
  for (const { pid, command } of left) {
    if (!/\bnode\b/.test(command.split(' ')[0])) continue;
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      // ended meanwhile
    }
  }
  await sleep(5000);
  for (const file of readdirSync(reports).filter((name) => name.startsWith('report.'))) {
    try {
      console.error(summary(path.join(reports, file)));
    } catch {
      // not written whole: nothing to say
    }
  }
  // The files' processes, not the runner: it then reports each file it was waiting for as
  // failed, with the output of every other file. Given a minute for that, it ends too.
  for (const { pid } of left.reverse()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended meanwhile
    }
  }
  setTimeout(() => child.kill('SIGKILL'), 60_000).unref();
}

/**
 * Runs `batch` in its order, `at` files at once, as node --test would (scripts/run-batch.mjs: node
 * --test itself sorts the files by name); true when every test passed. A file's process ends when
 * its tests have (--test-force-exit): a handle left open after them (a browser's pipe, a socket)
 * cannot keep it, and the run, waiting.
 */
function runBatch(batch, at) {
  if (batch.length === 0) return Promise.resolve(true);
  const child = spawn(process.execPath, [new URL('run-batch.mjs', import.meta.url).pathname, String(at), ...batch], { stdio: 'inherit', env });
  return new Promise((resolve) => {
    const guard = setTimeout(() => void endHung(child), BATCH_GUARD_MS);
    child.once('close', (code) => {
      clearTimeout(guard);
      resolve(code === 0);
    });
  });
}

console.log(`${together.length} test files, ${concurrency} at a time`);
const passedTogether = await runBatch(together, concurrency);
// The hang-guarded files bound CPU-bound work, one core's worth each: as many at once as there are
// cores, so each still has one to itself. The files that load the service run after them, alone.
const cores = Math.max(1, Math.min(Number(process.env.TEST_CONCURRENCY ?? Infinity), availableParallelism()));
if (guarded.length > 0) console.log(`\n${guarded.length} test files whose CPU-bound work has a hang guard, ${cores} at a time (one per core)`);
const passedGuarded = await runBatch(guarded, cores);
if (loading.length > 0) console.log(`\n${loading.length} test files that load the service themselves, one at a time`);
const passedLoading = await runBatch(loading, 1);
printClosing();
process.exit(passedTogether && passedGuarded && passedLoading ? 0 : 1);
