// Replaces modules that `tsc -b` writes as re-exports of a dependency with one esbuild bundle of
// that dependency each: TypeBox (plugin-sdk/src/typebox.ts says why), semver and the regular-expression libraries in the SDK, and Koa,
// yaml and fast-glob in the kernel (kernel/vendor/). Each ships dozens to hundreds of small files,
// and loading them one by one was a third of every start. Run after every build: `npm run build`,
// the test command, `npm start`'s emit and the SDK's prepack all do. Without it everything still
// works, only slower to load. The bundles carry no source map, so coverage never counts them.
import { rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { REQUIRE_SHIM, serverBundle } from './server-bundle-options.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const sdk = `${root}plugin-sdk/`;
const bundles = [
  { entry: `${sdk}src/typebox.ts`, outfile: `${sdk}dist/typebox.js` },
  { entry: `${sdk}src/semver.ts`, outfile: `${sdk}dist/semver.js`, commonjs: true },
  { entry: `${sdk}src/regexp-libraries.ts`, outfile: `${sdk}dist/regexp-libraries.js` },
  // The SDK's own script (prepack) bundles only the SDK's modules: a packed SDK has no kernel.
  ...(process.argv.includes('--sdk-only')
    ? []
    : ['koa', 'yaml', 'fast-glob'].map((name) => ({ entry: `${root}kernel/${name === 'koa' ? 'http' : 'host'}/vendor/${name}.ts`, outfile: `${root}dist/kernel/${name === 'koa' ? 'http' : 'host'}/vendor/${name}.js`, commonjs: true }))),
];
// Each bundle replaces its file in one rename: the SDK's prepack runs this while other test files
// (which run side by side) import the SDK, and a file written in place can be read half-written.
await Promise.all(
  bundles.map(async ({ entry, outfile, commonjs }) => {
    const { outputFiles } = await build({
      ...serverBundle,
      entryPoints: [entry],
      outfile,
      write: false,
      ...(commonjs ? { banner: { js: REQUIRE_SHIM } } : {}),
    });
    for (const { path, contents } of outputFiles) {
      const partial = `${path}.${process.pid}.partial`;
      await writeFile(partial, contents);
      await rename(partial, path);
    }
  }),
);
