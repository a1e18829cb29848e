// The README's start command, `npm start`, and SIGTERM (issue 39): the README promises a graceful
// drain on SIGTERM, and an operator sends it to the process they started, which is npm. npm passes
// SIGTERM on to its script's shell; a shell that waits on node dies of the signal and leaves node
// serving, re-parented to PID 1. The script therefore ends in `exec`, so the process npm signals
// is node itself. It runs in a copy of the checkout (support/checkout.ts): `npm start` emits a build.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyCheckout } from './support/checkout.js';
import { send } from './support/http.js';
import { offlineEnv } from './support/packages.js';
import { exitOf, listeningUrl } from './support/started-service.js';

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

describe('npm start, as the README gives it', () => {
  it('is the README\'s first command', async () => {
    assert.match(await readFile(new URL('../../README.md', import.meta.url), 'utf8'), /^npm ci && npm start\b/m);
    // What npm runs: node itself in the end, in place of the shell.
    const { scripts } = JSON.parse(await readFile(path.join(checkout, 'package.json'), 'utf8')) as { scripts: { start: string } };
    assert.match(scripts.start, /&& exec /);
  });

  it('drains and exits on SIGTERM sent to the process started, and nothing answers afterwards', { timeout: 120_000 }, async () => {
    // PORT=0: a free port; the log's `listening` line names it.
    // In a process group of its own, so that whatever it leaves behind can be ended after a failure.
    const npm = spawn('npm', ['start'], { cwd: checkout, env: offlineEnv({ PORT: '0' }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const exit = exitOf(npm);
    let url: string;
    try {
      url = await listeningUrl(npm);
      const health = await send(url, '/healthz', { method: 'GET' });
      assert.equal(health.status, 200);
    } finally {
      npm.kill('SIGTERM');
    }
    // npm waits for its script, then ends itself with the signal it passed on.
    const ended = await exit;
    assert.ok(ended.code === 0 || ended.signal === 'SIGTERM', `npm ended: ${JSON.stringify(ended)}`);
    // Without `exec`, node was still serving here, owned by PID 1 (and still in npm's group).
    const left = await answers(url);
    if (left) process.kill(-npm.pid!, 'SIGKILL');
    assert.equal(left, false, 'nothing answers on the port after npm ended');
  });
});
