// Loading says what it did and skips nothing in silence: a missing plugins.dirs entry and a
// TypeScript-only plugin folder stop the start with what to do; each plugin gets a log line. A
// fresh single-file build beside index.js is loaded instead of it.
import assert from 'node:assert/strict';
import { readFileSync, utimesSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../kernel/host/config.js';
import { discoverPlugins, loadPlugin, PluginLoadError } from '../kernel/host/discover.js';
import { loadForServing } from '../kernel/host/inspect-config.js';
import { send } from './support/http.js';
import { repoRoot } from './support/packages.js';
import { externalPlugins, fixtures, buildTestService } from './support/service.js';
import { logLinesWith } from './support/log-lines.js';
import { tempFolder } from './support/temp-folder.js';

/** The version in Toolshed's own package.json, which built-in plugins log as theirs. */
const serviceVersion = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const replacements = path.join(fixtures, 'replacement-plugins');

describe('plugin loading', () => {
  it('stops on a plugins.dirs entry that does not exist, naming it', async () => {
    const missing = path.join(fixtures, 'no-such-folder');
    await assert.rejects(discoverPlugins({ builtinDir: externalPlugins, dirs: [missing], packages: [] }), (error: unknown) => {
      assert.ok(error instanceof PluginLoadError);
      assert.equal(error.message, `Cannot load the plugin ${missing}:\n- the folder does not exist: correct plugins.dirs, or create the folder`);
      return true;
    });
  });

  it('stops on a plugin folder with index.ts but no index.js, saying to build it', async () => {
    const dir = path.join(fixtures, 'typescript-only-plugins');
    await assert.rejects(discoverPlugins({ builtinDir: externalPlugins, dirs: [dir], packages: [] }), (error: unknown) => {
      assert.ok(error instanceof PluginLoadError);
      assert.equal(error.message, `Cannot load the plugin ${path.join(dir, 'typed', 'index.ts')}:\n- the plugin is TypeScript only: build it (npm run build, or npx tsc) so that index.js exists next to it`);
      return true;
    });
  });

  it('reports a plugin whose import throws as a plugin that cannot be loaded, not as the configuration (docs/writing-a-plugin.md)', async () => {
    const guide = readFileSync(path.join(repoRoot, 'docs', 'writing-a-plugin.md'), 'utf8').replace(/\s+/g, ' ');
    assert.ok(guide.includes('`serve` and `toolshed config check` say `A plugin cannot be loaded:`, then `- /plugins: Cannot load the plugin <its index.js>:` and the error\'s message below it'));
    const dir = tempFolder('toolshed-throws-');
    await mkdir(path.join(dir, 'throws'));
    const index = path.join(dir, 'throws', 'index.js');
    await writeFile(index, "throw new Error('boom at import');\n");
    const config = path.join(dir, 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(dir)}]\n`);
    const expected = `A plugin cannot be loaded:\n- /plugins: Cannot load the plugin ${index}:\n  - boom at import`;
    await assert.rejects(loadForServing({ TOOLSHED_CONFIG: config }, externalPlugins), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.message, expected);
      return true;
    });
    // Beside a bad key, the heading names both.
    await writeFile(config, `server:\n  port: -1\nplugins:\n  dirs: [${JSON.stringify(dir)}]\n`);
    await assert.rejects(loadForServing({ TOOLSHED_CONFIG: config }, externalPlugins), {
      message: `Invalid configuration, and a plugin cannot be loaded:\n- /server/port: must be >= 0\n- /plugins: Cannot load the plugin ${index}:\n  - boom at import`,
    });
  });

  it('loads the index.bundle.js beside index.js, unless a compiled file there is newer (a stale bundle)', async () => {
    const folder = path.join(fixtures, 'bundled-plugins', 'echo');
    const stamp = (file: string, seconds: number): void => utimesSync(path.join(folder, file), seconds, seconds);
    const load = async () => (await discoverPlugins({ builtinDir: externalPlugins, dirs: [path.dirname(folder)], packages: [] })).find(({ plugin }) => plugin.group === 'echo')!;
    stamp('index.js', 1_700_000_000);
    stamp('index.bundle.js', 1_700_000_000);
    const bundled = await load();
    assert.equal(bundled.plugin.summary, 'loaded from index.bundle.js');
    assert.equal(bundled.source, path.join(folder, 'index.bundle.js'));
    // index.js compiled again after the bundle was written: the bundle no longer shows it.
    stamp('index.js', 1_700_000_001);
    const compiled = await load();
    assert.equal(compiled.plugin.summary, 'loaded from index.js');
    assert.equal(compiled.source, path.join(folder, 'index.js'));
  });

  it('logs one line per plugin: group, version, source and operation count', async () => {
    const service = await buildTestService({ plugins: { disabled: ['greeting'] } });
    try {
      const lines = logLinesWith(service.logs, 'plugin loaded');
      const pick = ({ group, version, source, operations, enabled }: Record<string, unknown>) => ({ group, version, source, operations, enabled });
      // The fixture folder is the test's built-in folder: built-in plugins are versioned with the service.
      assert.deepEqual(lines.map(pick), [
        { group: 'greeting', version: serviceVersion, source: 'built-in', operations: 1, enabled: false },
        { group: 'kernel-probe', version: serviceVersion, source: 'built-in', operations: Object.keys(service.registry.plugins[0]!.operations).length, enabled: true },
      ]);
    } finally {
      await service.stop();
    }
  });

  it('says which command fixes a folder plugin that is not built, or whose dependencies are not installed', async () => {
    const dir = tempFolder('toolshed-unbuilt-');
    // What `toolshed plugin new` writes, before `npm run build`: index.js re-exports dist/index.js.
    const unbuilt = path.join(dir, 'unbuilt');
    await mkdir(unbuilt);
    await writeFile(path.join(unbuilt, 'index.js'), "export { default } from './dist/index.js';\n");
    await assert.rejects(discoverPlugins({ builtinDir: null, dirs: [dir], packages: [] }), (error: Error) => {
      assert.ok(error instanceof PluginLoadError);
      assert.match(error.message, /^Cannot load the plugin .*unbuilt\/index\.js:\n- Cannot find module .*dist\/index\.js/);
      assert.ok(error.message.endsWith(`\n- build it: npm run build in ${unbuilt}`), error.message);
      return true;
    });
    // Built, but its node_modules missing: a package it imports cannot be found. (Another folder:
    // a module that failed to load stays failed for the process.)
    const other = tempFolder('toolshed-uninstalled-');
    const uninstalled = path.join(other, 'uninstalled');
    await mkdir(uninstalled);
    await writeFile(path.join(uninstalled, 'index.js'), "export { default } from 'toolshed-sdk-not-installed';\n");
    await assert.rejects(discoverPlugins({ builtinDir: null, dirs: [other], packages: [] }), (error: Error) => {
      assert.match(error.message, /Cannot find package 'toolshed-sdk-not-installed'/);
      assert.ok(error.message.endsWith(`\n- install its dependencies: npm ci (or npm install) in ${uninstalled}`), error.message);
      return true;
    });
  });

  it('says which command installs a configured package that is not installed', async () => {
    await assert.rejects(discoverPlugins({ builtinDir: null, dirs: [], packages: ['toolshed-plugin-not-installed'] }), (error: Error) => {
      assert.match(error.message, /^Cannot load the plugin package toolshed-plugin-not-installed:\n- Cannot find package 'toolshed-plugin-not-installed'/);
      assert.ok(error.message.endsWith(`\n- install it: npm install --ignore-scripts toolshed-plugin-not-installed (in ${repoRoot})`), error.message);
      return true;
    });
  });

  it('logs the version of a folder plugin from its package.json', async () => {
    const loaded = await loadPlugin(path.join(replacements, 'greeting'));
    assert.equal(loaded.version, '2.3.4');
  });
});

describe('replacing a built-in plugin', () => {
  it('refuses a third-party plugin of a built-in group the configuration does not disable, saying how to replace it', async () => {
    await assert.rejects(buildTestService({ plugins: { dirs: [replacements] } }), (error: Error) => {
      assert.match(error.message, /loads "greeting" from .*replacement-plugins\/greeting\/index\.js, but that group is built in: to replace the built-in plugin, add "greeting" to plugins\.disabled/);
      return true;
    });
  });

  it('serves the third-party plugin instead of the disabled built-in, and says so once in the log', async () => {
    const service = await buildTestService({ plugins: { dirs: [replacements], disabled: ['greeting'] } });
    try {
      // The built-in greeting answers "Hello, Ada!"; the replacement's answer is its own.
      const answer = await send(service.url, '/v1/greeting/hello', { body: { name: 'Ada' } });
      assert.deepEqual([answer.status, answer.json], [200, { greeting: 'Bonjour, Ada !' }]);
      const source = path.join(replacements, 'greeting', 'index.js');
      assert.deepEqual(logLinesWith(service.logs, 'built-in plugin replaced').map(({ group, source }) => ({ group, source })), [{ group: 'greeting', source }]);
      const greetings = logLinesWith(service.logs, 'plugin loaded').filter(({ group }) => group === 'greeting');
      assert.deepEqual(greetings.map(({ version, source, enabled }) => ({ version, source, enabled })), [
        { version: serviceVersion, source: 'built-in', enabled: false },
        { version: '2.3.4', source: `folder ${source}`, enabled: true },
      ]);
    } finally {
      await service.stop();
    }
  });
});
