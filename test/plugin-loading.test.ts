// Loading says what it did and skips nothing in silence: a missing plugins.dirs entry and a
// TypeScript-only plugin folder stop the start with what to do; each plugin gets a log line. A
// fresh single-file build beside index.js is loaded instead of it.
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { discoverPlugins, PluginLoadError } from '../kernel/discover.js';
import { externalPlugins, fixtures, startTestService } from './support/service.js';

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
    const service = await startTestService({ plugins: { disabled: ['greeting'] } });
    try {
      const lines = service.logs.join('').split('\n').filter((line) => line.includes('"plugin loaded"')).map((line) => JSON.parse(line) as Record<string, unknown>);
      const pick = ({ group, version, source, operations, enabled }: Record<string, unknown>) => ({ group, version, source, operations, enabled });
      // The fixture folder is the test's built-in folder; neither plugin has a package.json.
      assert.deepEqual(lines.map(pick), [
        { group: 'greeting', version: '-', source: 'built-in', operations: 1, enabled: false },
        { group: 'kernel-probe', version: '-', source: 'built-in', operations: Object.keys(service.registry.plugins[0]!.operations).length, enabled: true },
      ]);
    } finally {
      await service.stop();
    }
  });
});
