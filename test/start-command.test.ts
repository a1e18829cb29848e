// Every documented way to start the service stops on SIGTERM sent to the process the operator
// started (issues 39 and 47). npm passes SIGTERM on to its child only: with `npm start` that is node
// itself (the script ends in `exec`); with `npx toolshed serve` it is the shell npm runs the command
// with, which dies of it and leaves node re-parented to PID 1, still serving, unless node takes
// its parent's exit as the signal (service/parent-exit.ts). Each start below runs for real and must
// log `stopped` (a graceful stop, not a kill) and leave nothing answering. `npm start` runs in a
// copy of the checkout (support/checkout.ts): it emits a build. The other documented starts are
// held elsewhere, named in `heldElsewhere`; the last test fails on a start the docs add without one.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyCheckout } from './support/checkout.js';
import { send } from './support/http.js';
import { offlineEnv, repoRoot } from './support/packages.js';
import { fixtures } from './support/service.js';
import { exitOf, listeningUrl, type Exit } from './support/started-service.js';

let checkout: string;

before(async () => {
  checkout = await copyCheckout('toolshed-start-');
});
after(() => rm(checkout, { recursive: true, force: true }));

/** Whether anything still answers HTTP at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    await send(url, '/healthz', { method: 'GET' });
    return true;
  } catch {
    return false;
  }
}

/** SIGKILLs the process group `child` leads (it was started detached): npm or npx and every process below it. */
function endGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // the group has ended already
  }
}

/** How long the processes may take to end after SIGTERM before the test says which one did not: a hang, not a speed target. */
const GUARD_MS = 60_000;

/**
 * Starts `command` in `cwd` with PORT=0, waits until it serves, sends SIGTERM to the process
 * started, and waits until every process holding its output has ended: node inherits npm's stdout,
 * so the pipe closes only once node too has exited. Resolves with the started process's exit and
 * everything written to stdout (`log`), and that with stderr and the exit for a failure to show (`said`).
 */
async function startAndTerminate(command: string, args: readonly string[], cwd: string): Promise<{ exit: Exit; log: string; said: string; url: string }> {
  // In a process group of its own, so that whatever it leaves behind can be ended after a failure.
  const child: ChildProcess = spawn(command, args, { cwd, env: offlineEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exit = exitOf(child);
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let url: string;
  try {
    url = await listeningUrl(child);
    assert.equal((await send(url, '/healthz', { method: 'GET' })).status, 200);
  } catch (error) {
    // It failed before it served: what npm or npx started (node, the service) ends with it, not after the test.
    endGroup(child);
    throw error;
  } finally {
    child.kill('SIGTERM');
  }
  let guard: NodeJS.Timeout | undefined;
  const ended = await Promise.race([closed.then(() => true), new Promise<false>((resolve) => (guard = setTimeout(() => resolve(false), GUARD_MS)))]);
  clearTimeout(guard);
  if (!ended) {
    const left = await answers(url);
    endGroup(child);
    assert.fail(`${command} ${args.join(' ')}: its output was still open ${GUARD_MS} ms after SIGTERM${left ? ', and the service still answered' : ''}\n${log}`);
  }
  const exited = await exit;
  return { exit: exited, log, said: `${log}\n(stderr)\n${errors}\n(exit) ${JSON.stringify(exited)}`, url };
}

/** The `msg` of every JSON log line. */
const messages = (log: string): string[] => log.split('\n').filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('npm start, as the README gives it', () => {
  it('is the README\'s first command', async () => {
    assert.match(await readFile(new URL('../../README.md', import.meta.url), 'utf8'), /^npm ci && npm start\b/m);
    // What npm runs: node itself in the end, in place of the shell.
    const { scripts } = JSON.parse(await readFile(path.join(checkout, 'package.json'), 'utf8')) as { scripts: { start: string } };
    assert.match(scripts.start, /&& exec /);
  });

  it('drains and exits on SIGTERM sent to the process started, and nothing answers afterwards', { timeout: 180_000 }, async () => {
    const { exit, log, said, url } = await startAndTerminate('npm', ['start'], checkout);
    // npm waits for its script, then ends itself with the signal it passed on.
    assert.ok(exit.code === 0 || exit.signal === 'SIGTERM', said);
    assert.ok(messages(log).includes('stopped'), said);
    // Without `exec`, node was still serving here, owned by PID 1 (and still in npm's group).
    assert.equal(await answers(url), false, 'nothing answers on the port after npm ended');
  });
});

describe('npx toolshed serve, as docs/cli.md and docs/writing-a-plugin.md give it', () => {
  it('drains and exits on SIGTERM sent to npx, though npm passes it only to its shell', { timeout: 120_000 }, async () => {
    const { log, said, url } = await startAndTerminate('npx', ['toolshed', 'serve'], repoRoot);
    const lines = log.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { msg: string; signal?: string });
    // The shell npm ran died of the signal; node saw its parent go and stopped as on SIGTERM.
    assert.deepEqual(lines.find((line) => line.msg === 'shutting down')?.signal, 'parent exited', said);
    assert.ok(messages(log).includes('stopped'), said);
    assert.equal(await answers(url), false, 'nothing answers on the port after npx ended');
  });

  it('and `npx toolshed plugin dev <folder>` ends with its service the same way', { timeout: 120_000 }, async () => {
    const folder = path.join(fixtures, 'external-plugins', 'greeting');
    const { log, said, url } = await startAndTerminate('npx', ['toolshed', 'plugin', 'dev', folder], repoRoot);
    assert.ok(messages(log).includes('stopped'), said);
    assert.equal(await answers(url), false, 'nothing answers on the port after npx ended');
  });
});

/**
 * Every documented start, as the docs write it, and the test that sends it SIGTERM: this file's,
 * or another file's where that start is its subject already.
 */
const startsTested: readonly [RegExp, string][] = [
  [/^npm start$/, 'here'],
  [/^(npx )?toolshed serve$/, 'here'],
  [/^(npx )?toolshed plugin dev$/, 'here'],
  [/^node dist\/service\/main\.js$/, 'test/process.test.ts: "finishes 20 in-flight requests on SIGTERM, refuses new connections, and exits 0"'],
  [/^node \/opt\/toolshed\/dist\/service\/main\.js$/, 'test/systemd-install.test.ts: the installed unit\'s ExecStart "stops on SIGTERM"'],
  [/^CMD \["node", "dist\/service\/main\.js"\]$/, 'test/deployment.test.ts: the exec form, node itself as PID 1 (no Docker engine runs here to send it SIGTERM)'],
];

describe('every documented way to start the service', () => {
  it('is one whose SIGTERM a test sends', async () => {
    const files = ['README.md', 'docs/deployment.md', 'docs/cli.md', 'docs/writing-a-plugin.md', 'docs/configuration.md', 'docs/mcp.md', 'Dockerfile', 'deploy/toolshed.service'];
    // A command that starts a server: npm start, toolshed serve or plugin dev, node on the service's entry.
    const start = /npm start\b|(?:npx )?toolshed (?:serve|plugin dev)\b|node [^`\n]*?(?:dist\/service\/main\.js|bin\/toolshed\.js serve)|CMD \["node", "dist\/service\/main\.js"\]/g;
    const found = new Set<string>();
    for (const file of files) for (const [match] of (await readFile(path.join(repoRoot, file), 'utf8')).matchAll(start)) found.add(match);
    const untested = [...found].filter((command) => !startsTested.some(([form]) => form.test(command)));
    assert.deepEqual(untested, [], 'documented starts that no test sends SIGTERM');
    // Each form is still documented: a form no document gives any more is dropped here too.
    for (const [form] of startsTested) assert.ok([...found].some((command) => form.test(command)), `${form} is no longer documented`);
  });
});
