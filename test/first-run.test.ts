// An operator's first commands in a checkout that has never been built: `npm run keygen` and
// `npx toolshed` must work without `npm run build` first, and `npm start`'s emit must include the
// command line. They run on a copy of the source tree without dist/ (node_modules linked, the SDK
// the copy's own), so nothing of this checkout's build can help them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyCheckout } from './support/checkout.js';

let checkout: string;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: checkout, env: { ...process.env, npm_config_loglevel: 'silent' } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

/** The key and the digest `keys new` printed; the digest must be the key's SHA-256. */
function assertKeyPrinted(outcome: Outcome, name: string): void {
  assert.equal(outcome.code, 0, outcome.stderr);
  const key = /(tsk_[0-9A-Za-z]{32})/.exec(outcome.stdout)?.[1];
  const digest = new RegExp(`- \\{ name: ${name}, sha256: "([0-9a-f]{64})" \\}`).exec(outcome.stdout)?.[1];
  assert.ok(key !== undefined && digest !== undefined, outcome.stdout);
  assert.equal(createHash('sha256').update(key).digest('hex'), digest);
}

const notice = /^toolshed: no build in .*dist\/ yet; emitting it with esbuild/;

before(async () => {
  checkout = await copyCheckout('toolshed-checkout-');
});
after(() => rm(checkout, { recursive: true, force: true }));

describe('a checkout that was never built', () => {
  it('npm run keygen emits the build first, then prints a key', async () => {
    const outcome = await run('npm', ['run', '--silent', 'keygen', '--', 'ci']);
    assertKeyPrinted(outcome, 'ci');
    assert.match(outcome.stderr, notice);
  });

  it('npm start\'s emit includes the command line: npx toolshed then needs no build', async () => {
    // The build keygen just made is scripts/emit.mjs's, the first command of `npm start`.
    // Read from the copy's package.json, not asked of npm: a second npm process for one field.
    const { scripts } = JSON.parse(await readFile(path.join(checkout, 'package.json'), 'utf8')) as { scripts: { start: string } };
    assert.match(scripts.start, /^node scripts\/emit\.mjs && /);
    const outcome = await run(process.execPath, ['bin/toolshed.js', 'keys', 'new', 'after-start']);
    assertKeyPrinted(outcome, 'after-start');
    assert.doesNotMatch(outcome.stderr, notice);
  });

  it('npx toolshed emits the build itself when there is none', async () => {
    await rm(path.join(checkout, 'dist'), { recursive: true, force: true });
    const outcome = await run('npx', ['--no-install', 'toolshed', 'keys', 'new', 'first']);
    assertKeyPrinted(outcome, 'first');
    assert.match(outcome.stderr, notice);
  });
});
