import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serialize } from 'node:v8';
import { after, describe, it } from 'node:test';
import { definePlugin, defineOperation, Type, type OperationContext, type Plugin } from '@toolshed/plugin-sdk';
import { freshManifestData, MANIFEST_DATA_FILE } from './bundles.js';
import { DeferredModule, deferredPlugin, readManifestData, type ManifestDataFile } from './deferred-plugin.js';
import { builtinPluginDir } from './discover.js';
import { withoutFunctions } from './plugin-process/manifest-copy.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const context = {} as OperationContext;

/** A plugin of one operation, `shout`, counting its warm() calls in `warmed`. */
function shouting(warmed: { count: number }, group = 'shouting'): Plugin {
  return definePlugin({
    group,
    sdk: '^1.0.0',
    warm: () => void warmed.count++,
    operations: {
      shout: defineOperation({
        summary: 'Upper case',
        body: Type.Object({ text: Type.String({ maxLength: 10 }) }, { additionalProperties: false }),
        response: Type.Object({ text: Type.String() }, { additionalProperties: false }),
        examples: [{ body: { text: 'a' }, response: { text: 'A' } }],
        handler: ({ text }) => ({ text: text.toUpperCase() }),
      }),
    },
  });
}

const dataOf = (plugin: Plugin): ManifestDataFile => ({ manifest: withoutFunctions(plugin) as ManifestDataFile['manifest'], warm: plugin.warm !== undefined, close: plugin.close !== undefined });

describe('a deferred built-in', () => {
  it('imports its module on the first call of a handler, once for calls that come together, and warms it first', async () => {
    const warmed = { count: 0 };
    let imports = 0;
    const module = new DeferredModule('shouting', async () => {
      imports++;
      return shouting(warmed);
    });
    const plugin = deferredPlugin(dataOf(shouting({ count: 0 })), module);
    assert.equal(imports, 0, 'made from data alone');
    assert.equal(module.loaded, false);
    const handler = plugin.operations.shout!.handler;
    const [one, two] = await Promise.all([handler({ text: 'ab' }, context), handler({ text: 'cd' }, context)]);
    assert.deepEqual([one, two], [{ text: 'AB' }, { text: 'CD' }]);
    assert.equal(imports, 1);
    assert.equal(warmed.count, 1);
    assert.equal(module.loaded, true);
    // Once imported, the module's own handler answers directly, not through a promise.
    assert.deepEqual(handler({ text: 'ef' }, context), { text: 'EF' });
  });

  it('imports and warms through warm() when the module has one, and closes only a module it imported', async () => {
    const warmed = { count: 0 };
    let closed = 0;
    const real = { ...shouting(warmed), close: () => void closed++ } as Plugin;
    const module = new DeferredModule('shouting', () => Promise.resolve(real));
    const plugin = deferredPlugin(dataOf(real), module);
    await plugin.close?.();
    assert.equal(closed, 0, 'nothing to close before the import');
    await plugin.warm?.();
    assert.equal(warmed.count, 1);
    await plugin.close?.();
    assert.equal(closed, 1);
  });

  it('tries a failed import again on the next call, and refuses a module of another group', async () => {
    let attempts = 0;
    const flaky = new DeferredModule('shouting', async () => {
      if (++attempts === 1) throw new Error('first import failed');
      return shouting({ count: 0 });
    });
    await assert.rejects(flaky.plugin(), /first import failed/);
    assert.equal((await flaky.plugin()).group, 'shouting');
    const other = new DeferredModule('shouting', async () => shouting({ count: 0 }, 'other-group'));
    await assert.rejects(other.plugin(), /defines the group "other-group": rebuild/);
  });

  it('reads no data file that is cut short or is not a manifest, so the module is imported instead', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'toolshed-deferred-'));
    folders.push(folder);
    const file = path.join(folder, MANIFEST_DATA_FILE);
    const whole = serialize(dataOf(shouting({ count: 0 })));
    writeFileSync(file, whole);
    assert.equal(readManifestData(file)?.manifest.group, 'shouting');
    writeFileSync(file, whole.subarray(0, whole.length >> 1));
    assert.equal(readManifestData(file), undefined);
    writeFileSync(file, serialize({ manifest: { group: 'no operations' } }));
    assert.equal(readManifestData(file), undefined);
    assert.equal(readManifestData(path.join(folder, 'missing.v8')), undefined);
  });
});

describe('the built-ins\' manifest data', () => {
  it('is, for every built-in, its module\'s manifest without the functions, fresh beside its index.js', async () => {
    const groups = readdirSync(builtinPluginDir).filter((name) => !name.includes('.'));
    assert.ok(groups.length >= 30);
    for (const group of groups) {
      const index = path.join(builtinPluginDir, group, 'index.js');
      const file = freshManifestData(index);
      assert.ok(file !== undefined, `${group}: no fresh ${MANIFEST_DATA_FILE} (npm run build writes it)`);
      const data = readManifestData(file);
      const plugin = ((await import(pathToFileURL(index).href)) as { default: Plugin }).default;
      assert.deepEqual(data, dataOf(plugin), group);
    }
  });
});
