// A closed pipe ends any `toolshed` command quietly (issue 47, item 10): `toolshed openapi | head -1`
// printed an EPIPE stack trace and exited 1. Each command here writes into a pipe whose reader is
// gone before the command starts (a FIFO opened for reading, then for writing, then closed for
// reading), which is what `head` leaves behind once it has its line, without the race of a real
// `head`. The command must print nothing on the other stream and end with its own exit code.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { offlineEnv, repoRoot, run } from './support/packages.js';
import { tempFolder } from './support/temp-folder.js';

const bin = path.join(repoRoot, 'bin', 'toolshed.js');
const scratch = tempFolder('toolshed-pipe-');
let fifoCount = 0;

/** The write end of a pipe nobody reads: every write to it fails with EPIPE. */
async function pipeWithoutReader(): Promise<number> {
  const fifo = path.join(scratch, `fifo-${fifoCount++}`);
  const made = await run('mkfifo', [fifo], { cwd: scratch });
  assert.equal(made.code, 0, made.stderr);
  // Non-blocking, so that opening the reader does not wait for a writer; then the writer opens at
  // once, and the reader goes.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(fifo, constants.O_WRONLY);
  closeSync(reader);
  return writer;
}

interface Ended {
  readonly code: number | null;
  /** What the command wrote on the stream that stayed open. */
  readonly other: string;
}

/** Runs `toolshed <args>` with `closed` (stdout or stderr) a pipe without a reader. */
async function runInto(closed: 'stdout' | 'stderr', args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Ended> {
  const writer = await pipeWithoutReader();
  const stdio: ['ignore', number | 'pipe', number | 'pipe'] = closed === 'stdout' ? ['ignore', writer, 'pipe'] : ['ignore', 'pipe', writer];
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: offlineEnv(env), stdio });
  closeSync(writer);
  let other = '';
  (closed === 'stdout' ? child.stderr : child.stdout)!.on('data', (chunk: Buffer) => (other += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, other })));
}

describe('a toolshed command whose stdout reader has gone', () => {
  it('toolshed openapi ends quietly with 0, as when its whole document was read', async () => {
    assert.deepEqual(await runInto('stdout', ['openapi']), { code: 0, other: '' });
  });

  it('keeps its own exit code: config check with problems is still 1', async () => {
    const config = path.join(scratch, 'bad.yaml');
    await writeFile(config, 'server:\n  port: 70000\n');
    assert.deepEqual(await runInto('stdout', ['config', 'check', config]), { code: 1, other: '' });
  });

  it('holds for every command that writes to stdout', async () => {
    for (const args of [['--help'], ['--version'], ['keys', 'new', 'ci'], ['config', 'print'], ['call', 'base64/encode', '{"text":"hi"}'], ['identify', '0x1F']]) {
      assert.deepEqual(await runInto('stdout', args), { code: 0, other: '' }, args.join(' '));
    }
  });
});

describe('a toolshed command whose stderr reader has gone', () => {
  it('ends quietly with the exit code of what it could not say', async () => {
    assert.deepEqual(await runInto('stderr', ['call', 'base64/encode', '{"text":1}']), { code: 1, other: '' });
    assert.deepEqual(await runInto('stderr', ['no-such-command']), { code: 2, other: '' });
    assert.deepEqual(await runInto('stderr', ['serve', '--port', '70000']), { code: 1, other: '' });
  });
});
