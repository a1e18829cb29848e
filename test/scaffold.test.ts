// `toolshed plugin new`: the folder it writes builds, passes its own test and is served as written.
// The generated package's own scripts run here; only what `npm install` would download (the SDK,
// TypeScript, @types/node) is linked in from this checkout instead, so nothing leaves the machine.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import { scaffoldPlugin } from '../cli/scaffold/scaffold.js';
import { send } from './support/http.js';
import { linkRegistryPackages, linkToolshed, repoRoot, run, runOk } from './support/packages.js';
import { buildTestService, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const work = tempFolder('toolshed-scaffold-');
const services: InProcessService[] = [];
after(() => Promise.all(services.map((service) => service.stop())));

const generatedFiles = ['package.json', 'tsconfig.json', 'index.js', 'src/index.ts', 'src/index.test.ts', 'README.md', '.gitignore'];

/** Every file below `dir`, relative, sorted. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
}

describe('scaffoldPlugin refuses what would not load, writing nothing', () => {
  for (const group of ['Word-Tools', 'word_tools', 'word--tools', '1tools', 'tools-', '']) {
    it(`refuses the group "${group}"`, async () => {
      const dir = path.join(work, 'refused', group || 'empty');
      await assert.rejects(scaffoldPlugin({ group, dir }), /is not kebab-case/);
      assert.equal(existsSync(dir), false);
    });
  }

  it('refuses a folder that already holds something, and leaves it as it was', async () => {
    const dir = path.join(work, 'busy', 'word-tools');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'notes.txt'), 'mine');
    await assert.rejects(scaffoldPlugin({ group: 'word-tools', dir }), /word-tools is not empty \(it holds 1 entries\); nothing was written/);
    assert.deepEqual(await filesBelow(dir), ['notes.txt']);
    assert.equal(await readFile(path.join(dir, 'notes.txt'), 'utf8'), 'mine');
  });

  it('refuses a path that is a file', async () => {
    const file = path.join(work, 'word-tools');
    await writeFile(file, '');
    await assert.rejects(scaffoldPlugin({ group: 'word-tools', dir: file }), /is a file, not a folder/);
  });

  it('refuses a group the service already has, naming where it comes from', async () => {
    const dir = path.join(work, 'taken', 'tools');
    const taken = new Map([['base64', 'the built-in plugin /x/plugins/base64/index.js']]);
    await assert.rejects(scaffoldPlugin({ group: 'base64', dir, taken }), {
      message: 'The group "base64" is taken: the built-in plugin /x/plugins/base64/index.js provides it. Choose another name; nothing was written.',
    });
    assert.equal(existsSync(dir), false);
  });

  it('writes into an existing empty folder', async () => {
    const dir = path.join(work, 'empty', 'word-tools');
    await mkdir(dir, { recursive: true });
    assert.deepEqual(await scaffoldPlugin({ group: 'word-tools', dir }), generatedFiles);
  });

  it('writes into an empty folder named otherwise: the group comes from its argument', async () => {
    const dir = path.join(work, 'other', 'my-first-plugin');
    await mkdir(dir, { recursive: true });
    assert.deepEqual(await scaffoldPlugin({ group: 'word-tools', dir }), generatedFiles);
    assert.match(await readFile(path.join(dir, 'src', 'index.ts'), 'utf8'), /group: 'word-tools',/);
  });
});

describe('a scaffolded plugin', () => {
  // <work>/plugins is the folder an operator names in plugins.dirs; node_modules beside the plugin
  // holds what `npm install` would have put there.
  const pluginsDir = path.join(work, 'plugins');
  const pluginDir = path.join(pluginsDir, 'word-tools');

  before(async () => {
    // A relative dir is taken from the working directory, as the command line passes it.
    assert.deepEqual(await scaffoldPlugin({ group: 'word-tools', dir: path.relative(process.cwd(), pluginDir) }), generatedFiles);
    const nodeModules = path.join(pluginsDir, 'node_modules');
    await mkdir(path.join(nodeModules, '@toolshed'), { recursive: true });
    await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(nodeModules, '@toolshed', 'plugin-sdk'), 'dir');
    await linkRegistryPackages(nodeModules, ['typescript', '@types/node']);
    await linkToolshed(nodeModules);
  });

  it('writes exactly its files', async () => {
    assert.deepEqual(await filesBelow(pluginDir), [...generatedFiles].sort());
  });

  it('is an ESM package with the SDK as peer and dev dependency, and scripts to build and test', async () => {
    const manifest = JSON.parse(await readFile(path.join(pluginDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.name, 'toolshed-plugin-word-tools');
    assert.equal(manifest.type, 'module');
    assert.equal(manifest.exports, './dist/index.js');
    assert.deepEqual(manifest.scripts, {
      build: 'tsc',
      test: 'npm run build && toolshed plugin check . && node --enable-source-maps --test dist/*.test.js',
      prepack: 'npm run build',
    });
    assert.deepEqual(manifest.peerDependencies, { '@toolshed/plugin-sdk': `^${SDK_VERSION}` });
    assert.deepEqual(manifest.devDependencies, {
      '@toolshed/plugin-sdk': `file:toolshed-plugin-sdk-${SDK_VERSION}.tgz`,
      '@types/node': '^20.19.0',
      // This checkout, by its path from the plugin folder: npm install links it.
      toolshed: `file:${path.relative(pluginDir, repoRoot)}`,
      typescript: '^5.9.3',
    });
    const tsconfig = JSON.parse(await readFile(path.join(pluginDir, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
    assert.equal(tsconfig.compilerOptions.module, 'NodeNext');
    assert.equal(tsconfig.compilerOptions.strict, true);
    assert.equal(tsconfig.compilerOptions.outDir, 'dist');
    assert.equal(tsconfig.compilerOptions.noEmitOnError, true);
  });

  it('builds, passes toolshed plugin check and its own tests (one over HTTP) with its own scripts', async () => {
    const output = await runOk('npm', ['test'], { cwd: pluginDir });
    assert.match(output, /^plugin word-tools: loads, and its 1 example of 1 operation answer as shown$/m);
    // Node 20 prints TAP ("# pass 4"), Node 22+ its spec reporter ("ℹ pass 4"): four tests ran,
    // one of them replaying every example.
    assert.match(output, /pass 4\b/);
    assert.match(output, /every example answers as it shows/);
    assert.match(output, /fail 0\b/);
    // Source maps beside the code, so stacks name src/ lines.
    assert.deepEqual((await readdir(path.join(pluginDir, 'dist'))).sort(), ['index.js', 'index.js.map', 'index.test.js', 'index.test.js.map']);
  });

  it('type-checks in a bounded count of type instantiations: the SDK\'s types cost a plugin\'s tsc little', async () => {
    // Counted, not timed. The count is TypeScript's own, as tsc --extendedDiagnostics prints it: about
    // 14 thousand for this plugin and its test, where TypeScript measuring the variance of TypeBox's
    // Static made it 1.3 million, ten seconds of every plugin build (see defineOperation). The
    // plugin's own tsc, in a process without coverage: in this one, under NODE_V8_COVERAGE, the same
    // check cost more CPU and added TypeScript's 2.7 MB of coverage to this file's.
    const tsc = path.join(pluginsDir, 'node_modules', '.bin', 'tsc');
    const output = await runOk(tsc, ['-p', pluginDir, '--noEmit', '--extendedDiagnostics'], { cwd: pluginDir });
    const count = Number(/^Instantiations:\s+(\d+)$/m.exec(output)?.[1]);
    assert.ok(count > 0 && count < 100_000, `${count} type instantiations`);
  });

  it('is served from plugins.dirs and answers over HTTP', async () => {
    const builtin = tempFolder('toolshed-no-builtin-');
    const service = await buildTestService({ plugins: { dirs: [pluginsDir] } }, { builtinDir: builtin });
    services.push(service);
    // "stressed" reversed letter by letter is "desserts"; the emoji is one code point (two UTF-16 units).
    assert.deepEqual((await send(service.url, '/v1/word-tools/reverse', { body: { text: 'stressed' } })).json, { reversed: 'desserts' });
    assert.deepEqual((await send(service.url, '/v1/word-tools/reverse', { body: { text: 'a\u{1F600}b' } })).json, { reversed: 'b\u{1F600}a' });
    const missing = await send(service.url, '/v1/word-tools/reverse', { body: {} });
    assert.equal(missing.status, 400);
    assert.deepEqual((missing.json as { error: { details: unknown } }).error.details, [{ path: '/text', message: 'is required' }]);
    const document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(document.paths), ['/v1/word-tools/reverse', '/v1/recipes/run', '/v1/recipes/identify']);
  });
});

describe('a scaffolded plugin with a type error', () => {
  const pluginDir = path.join(work, 'plugins', 'word-tools');

  it('builds nothing (noEmitOnError): dist/ keeps the last good build, whole', async () => {
    const source = path.join(pluginDir, 'src', 'index.ts');
    const good = await readFile(source, 'utf8');
    const before = await readFile(path.join(pluginDir, 'dist', 'index.js'), 'utf8');
    // The response schema wants a string; a number is a type error.
    await writeFile(source, good.replace("({ reversed: Array.from(text).reverse().join('') })", '({ reversed: text.length })'));
    try {
      const build = await run('npm', ['run', 'build'], { cwd: pluginDir });
      assert.notEqual(build.code, 0);
      assert.match(build.stdout + build.stderr, /error TS\d+/);
      assert.equal(await readFile(path.join(pluginDir, 'dist', 'index.js'), 'utf8'), before);
    } finally {
      await writeFile(source, good);
    }
  });
});

describe('toolshed plugin new', () => {
  const toolshed = path.join(repoRoot, 'bin', 'toolshed.js');

  it('prints each file it wrote', async () => {
    const dir = path.join(work, 'cli', 'text-tools');
    const outcome = await run(process.execPath, [toolshed, 'plugin', 'new', 'text-tools', dir], { cwd: work });
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(outcome.stdout, generatedFiles.map((file) => `${path.join(dir, file)}\n`).join(''));
    assert.match(await readFile(path.join(dir, 'src', 'index.ts'), 'utf8'), /group: 'text-tools',/);
  });

  it('exits 1 with the reason when it refuses', async () => {
    const outcome = await run(process.execPath, [toolshed, 'plugin', 'new', 'Text_Tools'], { cwd: work });
    assert.equal(outcome.code, 1);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^toolshed: The group "Text_Tools" is not kebab-case/);
  });
});
