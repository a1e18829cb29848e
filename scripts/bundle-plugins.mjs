// Writes dist/plugins/<group>/index.bundle.js beside each built-in plugin's index.js, and
// <module>.bundle.js beside each module a plugin names for the worker pool: one esbuild bundle of
// the module, the plugin's files it imports and its npm libraries, which the kernel and the pool
// workers load instead (the SDK's freshBundle). `tsc -b`'s files import them one by one (culori
// alone is about 150 modules; start-up imports 30 plugins, a worker's first job its module). The
// SDK stays external: a plugin shares the kernel's. The compiled files stay for the unit tests,
// which import handlers directly. The bundle is built from the TypeScript sources, so
// it never holds a stale compiled file. No source map: coverage tools cannot merge a bundle's
// functions and branches with the same sources' own modules, so the bundle stays out of the
// coverage report. Run after every build, like bundle-dependencies.mjs; without it, only start-up is slower.
//
// Then it imports each plugin's bundle (definePlugin checks the manifest as it loads, so a broken
// built-in fails the build) and writes its manifest as data beside it, dist/plugins/<group>/
// index.manifest.v8 (node:v8's serializer, as a contained plugin's probe sends it): the kernel reads
// that at start-up and imports the plugin's module only when it is first used (kernel/host/deferred-plugin.ts).
import { readFile, writeFile } from 'node:fs/promises';
import { serialize } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import fg from 'fast-glob';
import { REQUIRE_SHIM, serverBundle } from './server-bundle-options.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The modules a plugin's sources name for the worker pool: `new URL('./format.js', import.meta.url)`. */
async function jobModules(folder) {
  const named = new Set();
  for (const source of await fg(`${folder}/*.ts`, { cwd: root, ignore: ['**/*.test.ts', '**/*.d.ts'] })) {
    const text = await readFile(`${root}${source}`, 'utf8');
    for (const [, name] of text.matchAll(/new URL\('\.\/([\w.-]+)\.js', import\.meta\.url\)/g)) named.add(`${folder}/${name}.ts`);
  }
  return [...named];
}

const indexes = await fg('plugins/*/index.ts', { cwd: root });
const entries = [...indexes, ...(await Promise.all(indexes.map((index) => jobModules(index.replace(/\/index\.ts$/, ''))))).flat()];
await Promise.all(
  entries.map((entry) =>
    build({
      ...serverBundle,
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: `dist/${entry.replace(/\.ts$/, '.bundle.js')}`,
      external: ['@toolshed/plugin-sdk'],
      // Libraries published as CommonJS (exifr, qrcode) call require() for Node's built-ins.
      banner: { js: REQUIRE_SHIM },
      tsconfig: 'tsconfig.base.json',
    }),
  ),
);

const { withoutFunctions } = await import(pathToFileURL(`${root}dist/kernel/host/plugin-process/manifest-copy.js`).href);
for (const index of indexes) {
  const folder = `${root}dist/${index.replace(/\/index\.ts$/, '')}`;
  const { default: plugin } = await import(pathToFileURL(`${folder}/index.bundle.js`).href);
  const data = { manifest: withoutFunctions(plugin), warm: typeof plugin.warm === 'function', close: typeof plugin.close === 'function' };
  await writeFile(`${folder}/index.manifest.v8`, serialize(data));
}
