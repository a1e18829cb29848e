// The test command (`npm test`): first the programs the tests need besides Node (redis-server,
// Debian's chromium: scripts/test-prerequisites.mjs installs them on Debian or Ubuntu as root and
// otherwise stops here with one line naming them), then lint, the layer rule, typecheck and build, every test
// with its raw coverage collected, the coverage of plugins/ and the coverage check on kernel/ and plugin-sdk/
// (on the engines floor's Node; on later ones every test runs without coverage, scripts/coverage-leg.mjs). Every step runs even when an earlier one
// fails, so one failure never hides the rest of the summary; the exit code is non-zero when any
// step failed. Run from the repository root.
//
// Steps that need nothing of each other run side by side, each on a core: lint and the layer rule
// read sources only, beside the build (tsc -b alone keeps one core busy for most of a minute on a
// fresh clone); the two coverage reports read the same raw coverage, trimmed first to the scripts
// they can count (scripts/trim-coverage.mjs). A step that runs beside
// another prints its output as one block when it ends; the tests print as they go.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { coverageHere } from './coverage-leg.mjs';
import { providePrerequisites } from './test-prerequisites.mjs';

console.log('> redis-server and chromium');
const missing = providePrerequisites();
if (missing !== undefined) {
  console.error(missing);
  process.exit(1);
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const coverage = coverageHere();
if (!coverage) console.log(`Node ${process.versions.node}: every test runs, without coverage; the coverage check runs on the engines floor's Node (scripts/coverage-leg.mjs)`);
/** Where every test process writes its raw coverage (NODE_V8_COVERAGE), as c8 would: c8's own temporary folder, read by `c8 report` and `c8 check-coverage`. */
const rawCoverage = path.resolve('coverage', 'tmp');

/** One step: its name, its command, and the environment it adds. */
const step = (name, command, env = {}) => ({ name, command, env });
/**
 * The steps in order; a list inside the list is a group whose members run side by side, each of
 * them a step or a chain of steps one after another.
 */
const plan = [
  [
    // --cache: a file whose text and configuration did not change since the last lint is not linted
    // again (no rule here reads types, so a file's result depends on that file alone): the next
    // `npm test` on the same checkout lints in 2 s instead of 15-25. The cache does not carry over
    // to another Node version (CI's second leg lints again).
    step('lint', [npx, 'eslint', '--cache', '--cache-location', '.eslintcache', '.']),
    // The real tree against .dependency-cruiser.mjs (docs/decisions.md, "Layers"); reads sources, needs no build.
    step('layers: front doors → kernel → plugin-sdk ← plugins, no import cycle', [process.execPath, 'scripts/check-layers.mjs']),
    [
      step('typecheck and build', [npx, 'tsc', '-b']),
      // The tests run on what ships: the SDK's TypeBox as one bundle, each built-in plugin as one.
      step('bundle dependencies', [process.execPath, 'scripts/bundle-dependencies.mjs']),
      step('bundle the built-in plugins', [process.execPath, 'scripts/bundle-plugins.mjs']),
      step('bundle the tool pages\' script and stylesheet', [process.execPath, 'scripts/bundle-tool-pages.mjs']),
    ],
  ],
  // Coverage is collected on the engines floor's Node only (scripts/coverage-leg.mjs says why).
  step('tests', [process.execPath, 'scripts/run-tests.mjs'], coverage ? { NODE_V8_COVERAGE: rawCoverage } : {}),
  ...(coverage
    ? [
        // What the reports below cannot count goes first: both read every raw coverage file.
        step('coverage: keep what the reports count', [process.execPath, 'scripts/trim-coverage.mjs', rawCoverage]),
        [
          // The tests' coverage of plugins/ (the report c8 reads the raw coverage for)...
          step('coverage of plugins/', [npx, 'c8', 'report', '--check-coverage=false', '--reporter=text-summary', '--include', 'plugins/**', '--exclude', '**/*.test.ts']),
          // ...and the threshold check: its thresholds and the kernel/SDK scope come from .c8rc.json.
          step('coverage of kernel/ and plugin-sdk/', [npx, 'c8', 'check-coverage']),
        ],
      ]
    : []),
];

/** Runs one step; its output goes straight through, or into one block printed when it ends. */
function run({ name, command: [command, ...args], env }, together) {
  const started = performance.now();
  if (!together) console.log(`\n> ${name}`);
  const child = spawn(command, args, { stdio: together ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code, signal) => {
      if (together) process.stdout.write(`\n> ${name}\n${Buffer.concat(output).toString()}`);
      const seconds = Math.round((performance.now() - started) / 1000);
      resolve([name, `${code === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`} in ${seconds} s`]);
    });
  });
}

/** Runs a step or a chain of steps one after another; the outcome of each. */
async function runLane(lane, together) {
  const outcomes = [];
  for (const one of Array.isArray(lane) ? lane : [lane]) outcomes.push(await run(one, together));
  return outcomes;
}

// The raw coverage of an earlier run would be counted again: c8 empties its folder before a run.
rmSync(rawCoverage, { recursive: true, force: true });
mkdirSync(rawCoverage, { recursive: true });

const outcomes = [];
for (const item of plan) {
  const lanes = Array.isArray(item) ? item : [item];
  // Listed in the plan's order, whichever ends first.
  for (const laneOutcomes of await Promise.all(lanes.map((lane) => runLane(lane, lanes.length > 1)))) outcomes.push(...laneOutcomes);
}
console.log('\nSummary');
for (const [name, outcome] of outcomes) console.log(`  ${name}: ${outcome}`);
process.exit(outcomes.every(([, outcome]) => outcome.startsWith('passed')) ? 0 : 1);
