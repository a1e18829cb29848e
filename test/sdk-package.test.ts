// The SDK as a package a third party depends on: what `npm pack` puts in its tarball, and how it is
// built before packing. The expected file list is derived from plugin-sdk/src, not from the
// `files` field it checks.
import assert from 'node:assert/strict';
import { cp, lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import fg from 'fast-glob';
import { copyCheckout } from './support/checkout.js';
import { offlineEnv, packedFiles, repoRoot, runOk } from './support/packages.js';

const sdkFolder = path.join(repoRoot, 'plugin-sdk');

interface SdkManifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  exports: { '.': { types: string; default: string } };
  dependencies: Record<string, string>;
}

const manifest = JSON.parse(await readFile(path.join(sdkFolder, 'package.json'), 'utf8')) as SdkManifest;

/** What `npm pack` would put in the tarball, asked once for the tests that read it (npm takes a second or two of CPU each time). */
let packing: ReturnType<typeof packedFiles> | undefined;
const packed = (): ReturnType<typeof packedFiles> => (packing ??= packedFiles(sdkFolder));

describe('the SDK package', () => {
  it('packs the compiled modules with their types, its README and package.json, and nothing else', async () => {
    const { filename, files } = await packed();
    assert.equal(filename, `toolshed-plugin-sdk-${manifest.version}.tgz`);
    // Every runtime module of src/ (tests and test fixtures are not part of the SDK).
    const modules = await fg('**/*.ts', { cwd: path.join(sdkFolder, 'src'), ignore: ['**/*.test.ts', 'fixtures/**'] });
    assert.ok(modules.includes('index.ts') && modules.includes('operation.ts'), 'the entry and the contract are modules');
    // The host's machinery is not the SDK's: no pool, no worker script.
    assert.ok(!modules.some((module) => /worker-(pool|entry)/.test(module)), 'no worker pool in the SDK');
    const expected = ['README.md', 'package.json', ...modules.flatMap((module) => [`dist/${module.replace(/\.ts$/, '.js')}`, `dist/${module.replace(/\.ts$/, '.d.ts')}`])];
    assert.deepEqual(files, expected.sort());
    for (const file of files) assert.doesNotMatch(file, /\.test\.|fixtures\/|tsbuildinfo|\.map$/, file);
  });

  it('is built by npm pack itself, and its entry points are in the tarball', async () => {
    // The build, then TypeBox's modules bundled into one (plugin-sdk/src/typebox.ts says why).
    assert.equal(manifest.scripts?.prepack, 'tsc -b && node ../scripts/bundle-dependencies.mjs --sdk-only');
    const { files } = await packed();
    assert.ok(files.includes(manifest.exports['.'].default.replace(/^\.\//, '')));
    assert.ok(files.includes(manifest.exports['.'].types.replace(/^\.\//, '')));
  });

  it('has the version plugins are checked against, and pins what it brings along', () => {
    assert.equal(manifest.name, '@toolshed/plugin-sdk');
    assert.equal(manifest.version, SDK_VERSION);
    // Exact versions: a third party's install gets the typebox this kernel validated its schemas with.
    for (const [name, version] of Object.entries(manifest.dependencies)) assert.match(version, /^\d+\.\d+\.\d+$/, name);
  });

  it('has a README that installs the tarball npm pack actually writes', async () => {
    const readme = await readFile(path.join(sdkFolder, 'README.md'), 'utf8');
    const tarball = `toolshed-plugin-sdk-${manifest.version}.tgz`;
    assert.ok(readme.includes(`npm install --save-dev ./${tarball}`));
    assert.ok(readme.includes('npm pack -w plugin-sdk --pack-destination'));
    assert.ok(readme.includes('peer dependency'));
  });

  // A guard against a hang, not a bound on speed: two npm packs and a tsc build took 44 s on a quiet
  // machine and more than 300 s in the full run beside other engineers' runs.
  it('is built into the checkout when packed as docs/writing-a-plugin.md says, and with --ignore-scripts writes only the tarball', { timeout: 900_000 }, async () => {
    const guide = (await readFile(path.join(repoRoot, 'docs', 'writing-a-plugin.md'), 'utf8')).replace(/\s+/g, ' ');
    assert.ok(guide.includes('`npm pack -w plugin-sdk` builds it in the checkout (its `prepack` writes `plugin-sdk/dist` there, so you must be able to write to the checkout)'));
    assert.ok(guide.includes('From a checkout you cannot write to, built already, add `--ignore-scripts`: the SDK is packed as built, and only the tarball is written.'));
    // A checkout of its own (this one's build must not change under the other tests), without a build.
    const checkout = await copyCheckout('toolshed-sdk-pack-');
    // The SDK's build settings and README, which copyCheckout (made to start the service) leaves out.
    for (const file of ['tsconfig.json', 'README.md']) await cp(path.join(repoRoot, 'plugin-sdk', file), path.join(checkout, 'plugin-sdk', file));
    const out = await mkdtemp(path.join(tmpdir(), 'toolshed-sdk-tarball-'));
    try {
      /** Every file of the checkout (installed packages aside) with its modification time. */
      const snapshot = async (): Promise<Map<string, number>> => {
        const files = await fg('**/*', { cwd: checkout, dot: true, ignore: ['node_modules/**', 'plugin-sdk/node_modules/**'], followSymbolicLinks: false });
        return new Map(await Promise.all(files.map(async (file) => [file, (await lstat(path.join(checkout, file))).mtimeMs] as const)));
      };
      const pack = (...extra: string[]) => runOk('npm', ['pack', '-w', 'plugin-sdk', '--pack-destination', out, ...extra], { cwd: checkout, env: offlineEnv() });
      const before = await snapshot();
      await pack();
      const built = await snapshot();
      const written = [...built.keys()].filter((file) => before.get(file) !== built.get(file));
      assert.ok(written.includes('plugin-sdk/dist/index.js'), 'the build is written into the checkout');
      assert.deepEqual(written.filter((file) => !file.startsWith('plugin-sdk/')), [], 'and nothing outside plugin-sdk/');
      const tarball = path.join(out, `toolshed-plugin-sdk-${SDK_VERSION}.tgz`);
      const listing = async (): Promise<string> => runOk('tar', ['-tzf', tarball], { cwd: out });
      const first = await listing();
      await rm(tarball);
      await pack('--ignore-scripts');
      assert.deepEqual(await snapshot(), built, 'nothing in the checkout changes');
      assert.equal(await listing(), first, 'the same files are packed');
    } finally {
      await Promise.all([rm(checkout, { recursive: true, force: true }), rm(out, { recursive: true, force: true })]);
    }
  });
});
