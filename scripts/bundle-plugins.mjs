// Writes dist/plugins/<group>/index.bundle.js beside each built-in plugin's index.js: one esbuild
// bundle of the plugin's files and its npm libraries, which the kernel loads instead of index.js
// (kernel/discover.ts). `tsc -b`'s index.js imports them file by file (culori alone is about 150
// modules), and start-up imports 30 plugins. The SDK stays external: a plugin shares the kernel's.
// The compiled files stay for pool workers, which import the modules their jobs name, and for the
// unit tests, which import handlers directly. The bundle is built from the TypeScript sources, so
// it never holds a stale compiled file. No source map: coverage tools cannot merge a bundle's
// functions and branches with the same sources' own modules, so the bundle stays out of the
// coverage report. Run after every build, like bundle-typebox.mjs; without it, only start-up is slower.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fg from 'fast-glob';

const root = fileURLToPath(new URL('../', import.meta.url));
const entries = await fg('plugins/*/index.ts', { cwd: root });
await Promise.all(
  entries.map((entry) =>
    build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile: `dist/${entry.replace(/index\.ts$/, 'index.bundle.js')}`,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: ['@toolshed/plugin-sdk'],
      // Libraries published as CommonJS (exifr, qrcode) call require() for Node's built-ins.
      banner: { js: "import { createRequire as __toolshedRequire } from 'node:module'; const require = __toolshedRequire(import.meta.url);" },
      tsconfig: 'tsconfig.base.json',
      legalComments: 'inline',
      logLevel: 'warning',
    }),
  ),
);
