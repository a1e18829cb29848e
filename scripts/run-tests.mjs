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
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
 * The longest files (browser, npm and tsc runs) start first, so that none of them starts last and
 * runs on alone. Order only: a file missing here or from this list changes nothing else.
 */
const longest = [
  'dist/test/browser/docs-page.test.js',
  'dist/test/plugin-guide.test.js',
  'dist/test/plugin-dev.test.js',
  'dist/test/example-plugin.test.js',
  'dist/test/scaffold.test.js',
  'dist/test/cli.test.js',
  'dist/test/browser/tool-pages.test.js',
  'dist/plugins/data-converter/hostile.test.js',
  'dist/test/first-run.test.js',
];
const rank = (file) => (longest.includes(file) ? longest.indexOf(file) : longest.length);
const together = files.filter((file) => !alone.has(file)).sort((a, b) => rank(a) - rank(b));
const loading = files.filter((file) => underLoad.has(file));
const guarded = files.filter((file) => alone.has(file) && !underLoad.has(file));

const concurrency = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? availableParallelism() * 3));
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${new URL('file-durations-reporter.mjs', import.meta.url).pathname}`,
  '--test-reporter-destination=stdout',
];

/** Runs `batch` with node --test, `at` files at once; true when every test passed. */
function runBatch(batch, at) {
  if (batch.length === 0) return true;
  const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${at}`, ...reporters, ...batch], { stdio: 'inherit' });
  return result.status === 0;
}

console.log(`${together.length} test files, ${concurrency} at a time`);
const passedTogether = runBatch(together, concurrency);
// The hang-guarded files bound CPU-bound work, one core's worth each: as many at once as there are
// cores, so each still has one to itself. The files that load the service run after them, alone.
const cores = Math.max(1, Math.min(Number(process.env.TEST_CONCURRENCY ?? Infinity), availableParallelism()));
if (guarded.length > 0) console.log(`\n${guarded.length} test files whose CPU-bound work has a hang guard, ${cores} at a time (one per core)`);
const passedGuarded = runBatch(guarded, cores);
if (loading.length > 0) console.log(`\n${loading.length} test files that load the service themselves, one at a time`);
const passedLoading = runBatch(loading, 1);
process.exit(passedTogether && passedGuarded && passedLoading ? 0 : 1);
