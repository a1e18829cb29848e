// The runner of the test command (scripts/run-tests.mjs) on files that would hold a run: one whose
// tests end but which leaves a handle open, and one whose hook never ends. Each run is in a folder
// of its own laid out as the checkout is (dist/<root>/*.test.js), so the runner finds only these.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempFolder } from './support/temp-folder.js';

const runner = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
const batchRunner = fileURLToPath(new URL('../../scripts/run-batch.mjs', import.meta.url));

/** Runs the runner on `files` (name → source) as dist/fixture/<name>; its exit code and output. */
function runOn(files: Record<string, string>, env: Record<string, string> = {}): { status: number | null; output: string } {
  const folder = tempFolder('toolshed-runner-');
  mkdirSync(path.join(folder, 'dist', 'fixture'), { recursive: true });
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(folder, 'dist', 'fixture', name), source);
  // Not a file of this run's: node --test marks its files' environment, and would then run none.
  const outside = { ...process.env };
  delete outside.NODE_TEST_CONTEXT;
  // A guard no fixture here reaches unless it hangs (two minutes for a file of one empty test): the
  // test is about outcomes, not speed.
  const result = spawnSync(process.execPath, [runner, 'fixture'], { cwd: folder, env: { ...outside, TEST_BATCH_GUARD_MS: '120000', ...env }, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

const passing = "import { it } from 'node:test';\nit('passes', () => {});\n";

describe('the test runner', () => {
  it('ends a file whose tests passed though a handle is still open, and passes', () => {
    const lingering = "import { it } from 'node:test';\nsetInterval(() => {}, 1000);\nit('passes and leaves a timer', () => {});\n";
    const { status, output } = runOn({ 'lingering.test.js': lingering, 'passing.test.js': passing });
    assert.equal(status, 0, output);
    assert.match(output, /✔ passes and leaves a timer/);
  });

  it('closes the run with its slowest files and their durations, though each file\'s process ends with its tests', () => {
    const { status, output } = runOn({ 'first.test.js': passing, 'second.test.js': passing });
    assert.equal(status, 0, output);
    assert.match(output, /\nSlowest test files \(seconds each; 2 files\):\n(?: +\d+\.\d s {2}dist\/fixture\/(?:first|second)\.test\.js\n){2}/);
  });

  it('closes the run with each failed test and the first lines of its error, after the slowest files', () => {
    const failing = "import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\ndescribe('a suite', () => {\n  it('fails', () => assert.equal(1, 2, 'one is not two'));\n  it('passes', () => {});\n});\n";
    const { status, output } = runOn({ 'failing.test.js': failing, 'passing.test.js': passing });
    assert.equal(status, 1, output);
    // The test's own error, once: not its suite's "1 subtest failed".
    assert.match(output, /\nSlowest test files[^]*\nFailed tests \(1\), each with the first lines of its error:\n {2}dist\/fixture\/failing\.test\.js: fails\n {6}one is not two\n(?: {6}\S.*\n)*$/);
  });

  it('starts a batch\'s files in the order it is given (the longest first), not by name as node --test does', () => {
    const folder = tempFolder('toolshed-runner-');
    const names = ['z-long.test.js', 'a-short.test.js', 'm-short.test.js'];
    for (const name of names) writeFileSync(path.join(folder, name), `import { it } from 'node:test';\nit('${name} ran', () => {});\n`);
    const outside = { ...process.env };
    delete outside.NODE_TEST_CONTEXT;
    // Nor of this run's list of durations (the runner names its own for each run).
    delete outside.TEST_DURATIONS_FILE;
    const result = spawnSync(process.execPath, [batchRunner, '1', ...names], { cwd: folder, env: outside, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual([...result.stdout.matchAll(/✔ (\S+) ran/g)].map(([, name]) => name), names);
  });

  it('ends a batch past its guard: names the file that hung, what its process was waiting on, and fails with the other files reported', () => {
    const hanging = "import { before, it } from 'node:test';\nimport { createServer } from 'node:net';\nbefore(() => new Promise((resolve) => createServer().listen(0, '127.0.0.1')));\nit('never runs', () => {});\n";
    // The guard leaves the passing file's processes (the batch runner's, then the file's) ten seconds
    // to start and end beside the run's busiest files, which start with this one.
    const { status, output } = runOn({ 'hanging.test.js': hanging, 'passing.test.js': passing }, { TEST_BATCH_GUARD_MS: '10000' });
    assert.equal(status, 1, output);
    assert.match(output, /The batch ran past 10 s; ending what it started:\n {2}\d+ .*dist\/fixture\/hanging\.test\.js\n/);
    // Its diagnostic report: the server it was holding open.
    assert.match(output, /active handles:\n(?: {6}.*\n)* {6}tcp at [^:\s]+:\d+\n/);
    assert.match(output, /✔ passes/);
    assert.match(output, /✖ .*hanging\.test\.js/);
  });
});
