// `toolshed plugin dev <folder>`: a scaffolded plugin served beside the built-ins, served again with
// the new code after a rebuild (once per build, however many files it writes), a note when src/ is
// newer than dist/, and a handler's stack naming its TypeScript line. Outcomes are
// polled for (the restart takes as long as the machine needs), under one generous guard.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaffoldPlugin } from '../cli/scaffold/scaffold.js';
import { linkRegistryPackages, linkToolshed, offlineEnv, repoRoot, runOk } from './support/packages.js';
import { logLinesWith } from './support/log-lines.js';
import { tempFolder } from './support/temp-folder.js';

const work = tempFolder('toolshed-dev-');
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
  // The scaffold's own test imports toolshed/testing: Toolshed is linked as its dev dependency.
  await linkToolshed(nodeModules);
  await runOk('npm', ['run', 'build'], { cwd: pluginDir });
  // NODE_V8_COVERAGE stays (offlineEnv turns it off for npm's sake), so the command counts toward coverage.
  const env: NodeJS.ProcessEnv = { ...offlineEnv(), NODE_V8_COVERAGE: process.env.NODE_V8_COVERAGE };
  for (const name of ['TOOLSHED_CONFIG', 'PORT', 'HOST']) delete env[name];
  if (env.NODE_V8_COVERAGE === undefined) delete env.NODE_V8_COVERAGE;
  child = spawn(process.execPath, [path.join(repoRoot, 'bin', 'toolshed.js'), 'plugin', 'dev', pluginDir, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
});
after(() => child?.kill('SIGKILL'));

/** The parsed log lines so far whose message is `msg`. */
const logged = (msg: string): Record<string, unknown>[] => logLinesWith(stdout, msg);

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

/** The answer to "stressed" once the `services`-th service started (counted from 1) answers `reversed`. */
async function served(reversed: string, services: number): Promise<{ status: number; json: unknown } | undefined> {
  if (logged('listening').length < services) return undefined;
  const candidate = await post('dev-tools/reverse', { text: 'stressed' });
  return (candidate?.json as { reversed?: string } | undefined)?.reversed === reversed ? candidate : undefined;
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
    // A pool worker that had not imported the plugin yet may answer with the new code before the
    // restart: the answer is awaited from the service started after the build.
    const answer = await eventually('the new answer from the restarted service', () => served('DESSERTS', 2));
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

  // Restarts so far, counted from the lines plugin dev prints for each.
  const restarts = (): number => stderr.split('\n').filter((line) => line.endsWith('changed; starting again')).length;
  const unbuiltNotes = (): number => stderr.split('\n').filter((line) => line.startsWith('toolshed: src/ is newer than dist/ (src/index.ts)')).length;
  let restartsBefore = 0;

  it('says when src/ is newer than dist/, and restarts nothing for a saved source', async () => {
    restartsBefore = restarts();
    const notesBefore = unbuiltNotes();
    const source = path.join(pluginDir, 'src', 'index.ts');
    // Saved again, not built: newer than everything in dist/.
    await writeFile(source, await readFile(source, 'utf8'));
    await eventually('the note that src/ is newer than dist/', () => (unbuiltNotes() > notesBefore ? true : undefined));
    // That no restart followed is counted by the next test, which restarts exactly twice more.
  });

  it('restarts once for a build that writes many files', async () => {
    const dist = path.join(pluginDir, 'dist');
    const compiled = await readFile(path.join(dist, 'index.js'), 'utf8');
    assert.ok(compiled.includes('.toUpperCase()'), 'the build of the previous test');
    /** What a build does: every file written at once, the entry module last, as tsc writes them. */
    const build = (mark: string): void => {
      for (let index = 1; index <= 12; index++) writeFileSync(path.join(dist, `part-${index}.js`), `export const mark = '${mark}${index}';\n`);
      writeFileSync(path.join(dist, 'index.js'), compiled.replace('.toUpperCase()', `.toUpperCase() + '${mark}'`));
    };
    const services = logged('listening').length;
    build('!');
    await eventually('the first build served', () => served('DESSERTS!', services + 1));
    build('?');
    await eventually('the second build served', () => served('DESSERTS?', services + 2));
    // Two builds of 13 files each (after a saved source that was not built): two restarts, no more.
    assert.equal(restarts() - restartsBefore, 2, stderr);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
