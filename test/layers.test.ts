// The layer rule fails on a new arrow back and on a new cycle: scripts/check-layers.mjs, the same
// command `npm test` runs over the real tree, runs here over test/fixtures/layers/, a small tree
// in the real tree's shape where each file that breaks a rule says which in its first line. Every
// rule is asserted on its own, so deleting one from .dependency-cruiser.mjs fails its test; the
// last test holds that the arrows the rules allow (service/ wiring everything, cli/ starting
// service/ and mcp/, test/ importing anything) stay allowed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { before, describe, it } from 'node:test';

interface Violation { rule: string; from: string; to: string; cycle?: string[] }
interface Report { folders: string[]; violations: Violation[] }

const root = new URL('../../', import.meta.url);
const fixture = fileURLToPath(new URL('test/fixtures/layers/', root));
const checker = fileURLToPath(new URL('scripts/check-layers.mjs', root));

/** Each violation as `from → to`; a package is named from its node_modules folder on, wherever that is. */
const arrows = (violations: Violation[]): string[] =>
  violations.map(({ from, to }) => `${from} → ${to.replace(/^.*?node_modules\//, 'node_modules/')}`).sort();

describe('layer rule over test/fixtures/layers', () => {
  let status: number | null;
  let report: Report;
  const broken = (rule: string): string[] => arrows(report.violations.filter((violation) => violation.rule === rule));

  before(() => {
    const run = spawnSync(process.execPath, [checker, '--json'], { cwd: fixture, encoding: 'utf8' });
    assert.equal(run.stderr, '');
    status = run.status;
    report = JSON.parse(run.stdout) as Report;
  });

  it('checks every source folder the tree has and fails the step', () => {
    assert.deepEqual(report.folders, ['kernel', 'plugin-sdk/src', 'plugins', 'mcp', 'tool-pages', 'cli', 'recipes', 'service', 'test']);
    assert.equal(status, 1);
  });

  it('finds a two-file cycle, one half of it a type-only import', () => {
    const cycles = report.violations.filter((violation) => violation.rule === 'no-cycle');
    assert.deepEqual(cycles.map(({ cycle }) => cycle), [['kernel/http/types.ts', 'kernel/http/dispatch.ts']]);
  });

  it('refuses the kernel importing a front door, from its code and from a test beside it', () => {
    assert.deepEqual(broken('kernel-imports-no-front-door'), ['kernel/http/app.test.ts → tool-pages/page.ts', 'kernel/http/app.ts → mcp/door.ts']);
  });

  it('refuses the host importing a transport: the HTTP door, or Node\'s HTTP server', () => {
    assert.deepEqual(broken('host-knows-no-transport'), ['kernel/host/run.ts → http', 'kernel/host/run.ts → kernel/http/types.ts']);
  });

  it('refuses a door, the HTTP door included, reaching past the host\'s entry module', () => {
    assert.deepEqual(broken('doors-enter-the-host-through-its-entry'), ['kernel/http/server.ts → kernel/host/run.ts', 'recipes/run.ts → kernel/host/run.ts']);
  });

  it('refuses the composition root or a door reaching past the HTTP door\'s entry module', () => {
    assert.deepEqual(broken('doors-enter-the-http-door-through-its-entry'), ['service/start.ts → kernel/http/app.ts']);
  });

  it('refuses anything but test/ importing a plugin', () => {
    assert.deepEqual(broken('only-tests-import-a-plugin'), ['kernel/host/discover.ts → plugins/beta/index.ts']);
  });

  it('refuses the SDK importing the host', () => {
    assert.deepEqual(broken('sdk-is-the-contract-only'), ['plugin-sdk/src/harness.ts → kernel/http/dispatch.ts']);
  });

  it('refuses worker_threads and v8 in the SDK, by node: name and by bare name', () => {
    assert.deepEqual(broken('sdk-has-no-engine-machinery'), ['plugin-sdk/src/heap.ts → v8', 'plugin-sdk/src/pool.ts → worker_threads']);
  });

  it('refuses a plugin importing the kernel', () => {
    assert.deepEqual(broken('plugin-imports-only-the-sdk'), ['plugins/alpha/index.ts → kernel/http/types.ts']);
  });

  it('refuses a plugin importing another plugin', () => {
    assert.deepEqual(broken('plugin-imports-no-other-plugin'), ['plugins/alpha/index.ts → plugins/beta/index.ts']);
  });

  it('refuses a plugin importing Koa, even for a type', () => {
    assert.deepEqual(broken('plugin-imports-no-koa'), ['plugins/alpha/index.ts → node_modules/koa/dist/koa.mjs']);
  });

  it('refuses a front door importing another front door or the composition root', () => {
    assert.deepEqual(broken('front-door-imports-no-other-front-door'), ['recipes/run.ts → service/start.ts', 'tool-pages/page.ts → mcp/door.ts']);
  });

  it('lets cli/ import service/ and mcp/ but no other front door', () => {
    assert.deepEqual(broken('cli-starts-only-the-service-or-mcp'), ['cli/main.ts → tool-pages/page.ts']);
  });

  it('refuses service/ importing cli/, which starts it', () => {
    assert.deepEqual(broken('service-is-started-by-cli'), ['service/commands.ts → cli/main.ts']);
  });

  it('refuses shipped code importing test/', () => {
    assert.deepEqual(broken('only-tests-import-tests'), ['mcp/door.ts → test/helper.ts']);
  });

  it('reports nothing else: every other arrow of the fixture is allowed', () => {
    const rules = ['no-cycle', 'kernel-imports-no-front-door', 'host-knows-no-transport', 'doors-enter-the-host-through-its-entry', 'doors-enter-the-http-door-through-its-entry', 'only-tests-import-a-plugin', 'sdk-is-the-contract-only', 'sdk-has-no-engine-machinery', 'plugin-imports-only-the-sdk', 'plugin-imports-no-other-plugin', 'plugin-imports-no-koa', 'front-door-imports-no-other-front-door', 'cli-starts-only-the-service-or-mcp', 'service-is-started-by-cli', 'only-tests-import-tests'];
    assert.deepEqual([...new Set(report.violations.map(({ rule }) => rule))].sort(), rules.sort());
    assert.equal(report.violations.length, 20);
  });
});
