// `toolshed plugin dev <folder>`: a scaffolded plugin served beside the built-ins, served again with
// the new code after a rebuild, and a handler's stack naming its TypeScript line. Outcomes are
// polled for (the restart takes as long as the machine needs), under one generous guard.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaffoldPlugin } from '../cli/scaffold/scaffold.js';
import { linkRegistryPackages, offlineEnv, repoRoot, runOk } from './support/packages.js';

const work = await mkdtemp(path.join(tmpdir(), 'toolshed-dev-'));
const pluginDir = path.join(work, 'plugins', 'dev-tools');
/** How long an outcome may take to appear before the test gives up: a stall, not a speed target. */
const GUARD_MS = 120_000;

let stdout = '';
let stderr = '';
let child: ReturnType<typeof spawn> | undefined;

before(async () => {
  await scaffoldPlugin({ group: 'dev-tools', dir: pluginDir });
  const nodeModules = path.join(work, 'plugins', 'node_modules');
  await mkdir(path.join(nodeModules, '@toolshed'), { recursive: true });
  await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(nodeModules, '@toolshed', 'plugin-sdk'), 'dir');
  await linkRegistryPackages(nodeModules, ['typescript', '@types/node']);
  await runOk('npm', ['run', 'build'], { cwd: pluginDir });
  // NODE_V8_COVERAGE stays (offlineEnv drops it for npm's sake), so the command counts toward coverage.
  const env: NodeJS.ProcessEnv = { ...offlineEnv(), NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE };
  for (const name of ['TOOLSHED_CONFIG', 'PORT', 'HOST']) delete env[name];
  if (env.NODE_V8_COVERAGE === undefined) delete env.NODE_V8_COVERAGE;
  child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'toolshed.js'), 'plugin', 'dev', pluginDir, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
});
after(() => child?.kill('SIGKILL'));

/** The parsed log lines so far whose message is `msg`. */
const logged = (msg: string): Record<string, unknown>[] =>
  stdout.split('\n').filter((line) => line.includes(`"msg":"${msg}"`)).map((line) => JSON.parse(line) as Record<string, unknown>);

/** Polls `probe` until it returns a value, or fails after GUARD_MS saying what was awaited. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const giveUp = Date.now() + GUARD_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** POSTs `body` to the newest listening service; undefined while none answers (it is restarting). */
async function post(operation: string, body: unknown): Promise<{ status: number; json: unknown } | undefined> {
  const url = logged('listening').at(-1)?.url;
  if (typeof url !== 'string') return undefined;
  try {
    const response = await fetch(`${url}/v1/${operation}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  } catch {
    return undefined;
  }
}

describe('toolshed plugin dev', () => {
  it('serves the plugin beside the built-in plugins', async () => {
    const answer = await eventually('the first answer', () => post('dev-tools/reverse', { text: 'stressed' }));
    assert.deepEqual(answer, { status: 200, json: { reversed: 'desserts' } });
    // "hi" in Base64 is "aGk=" (RFC 4648): the built-in base64 group is served too.
    assert.deepEqual(await post('base64/encode', { text: 'hi' }), { status: 200, json: { base64: 'aGk=' } });
  });

  it('serves the new code after the plugin is rebuilt, and a stack names the TypeScript line', async () => {
    const source = path.join(pluginDir, 'src', 'index.ts');
    const changed = (await readFile(source, 'utf8')).replace(
      "handler: ({ text }) => ({ reversed: Array.from(text).reverse().join('') }),",
      "handler: ({ text }) => {\n        if (text === 'boom') throw new Error('a bug');\n        return { reversed: Array.from(text).reverse().join('').toUpperCase() };\n      },",
    );
    await writeFile(source, changed);
    await runOk('npm', ['run', 'build'], { cwd: pluginDir });
    const answer = await eventually('the new answer', async () => {
      const candidate = await post('dev-tools/reverse', { text: 'stressed' });
      return (candidate?.json as { reversed?: string } | undefined)?.reversed === 'DESSERTS' ? candidate : undefined;
    });
    assert.deepEqual(answer, { status: 200, json: { reversed: 'DESSERTS' } });
    assert.match(stderr, /dev-tools changed; starting again/);
    const failed = await eventually('a 500', async () => {
      const candidate = await post('dev-tools/reverse', { text: 'boom' });
      return candidate?.status === 500 ? candidate : undefined;
    });
    assert.equal((failed.json as { error: { code: string } }).error.code, 'internal_error');
    const line = changed.split('\n').findIndex((text) => text.includes("throw new Error('a bug')")) + 1;
    const logLine = await eventually('the failure in the log', () => logged('request failed').at(-1));
    const frames = (logLine.error as { stack: string[] }).stack;
    assert.match(frames[0]!, new RegExp(`dev-tools/src/index\\.ts:${line}:\\d+\\)$`));
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
