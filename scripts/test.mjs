// The test command (`npm test`): first the programs the tests need besides Node (redis-server,
// Debian's chromium: scripts/test-prerequisites.mjs installs them on Debian or Ubuntu as root and
// otherwise stops here with one line naming them), then lint, the layer rule, typecheck and build, every test
// under c8 with the coverage of plugins/, and the coverage check on kernel/ and plugin-sdk/. Every step runs even when an earlier one
// fails, so one failure never hides the rest of the summary; the exit code is non-zero when any
// step failed. Run from the repository root.
import { spawnSync } from 'node:child_process';
import { providePrerequisites } from './test-prerequisites.mjs';

console.log('> redis-server and chromium');
const missing = providePrerequisites();
if (missing !== undefined) {
  console.error(missing);
  process.exit(1);
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const steps = [
  ['lint', [npx, 'eslint', '.']],
  // The real tree against .dependency-cruiser.mjs (docs/decisions.md, "Layers"); reads sources, needs no build.
  ['layers: front doors → kernel → plugin-sdk ← plugins, no import cycle', [process.execPath, 'scripts/check-layers.mjs']],
  ['typecheck and build', [npx, 'tsc', '-b']],
  // The tests run on what ships: the SDK's TypeBox as one bundle, each built-in plugin as one.
  ['bundle dependencies', [process.execPath, 'scripts/bundle-dependencies.mjs']],
  ['bundle the built-in plugins', [process.execPath, 'scripts/bundle-plugins.mjs']],
  ['bundle the tool pages\' script and stylesheet', [process.execPath, 'scripts/bundle-tool-pages.mjs']],
  // c8 reports once when the tests end, whatever it is told: that report is the coverage of
  // plugins/, so that the raw coverage (every test process's) is read twice, not three times.
  ['tests, then the coverage of plugins/', [npx, 'c8', '--check-coverage=false', '--reporter=text-summary', '--include', 'plugins/**', '--exclude', '**/*.test.ts', 'node', 'scripts/run-tests.mjs']],
  // Thresholds and the kernel/SDK scope come from .c8rc.json.
  ['coverage of kernel/ and plugin-sdk/', [npx, 'c8', 'check-coverage']],
];

const outcomes = [];
for (const [name, [command, ...args]] of steps) {
  console.log(`\n> ${name}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit' });
  const seconds = Math.round((performance.now() - started) / 1000);
  outcomes.push([name, `${result.status === 0 ? 'passed' : `FAILED (exit ${result.status ?? result.signal})`} in ${seconds} s`]);
}
console.log('\nSummary');
for (const [name, outcome] of outcomes) console.log(`  ${name}: ${outcome}`);
process.exit(outcomes.every(([, outcome]) => outcome.startsWith('passed')) ? 0 : 1);
