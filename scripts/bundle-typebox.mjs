// Replaces plugin-sdk/dist/typebox.js, which `tsc -b` writes as re-exports, with one esbuild
// bundle of them (see plugin-sdk/src/typebox.ts for why). Run after every build: `npm run build`,
// the test command, `npm start`'s emit and the SDK's prepack all do. Without it everything still
// works, only slower to load.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const sdk = fileURLToPath(new URL('../plugin-sdk/', import.meta.url));
await build({
  entryPoints: [`${sdk}src/typebox.ts`],
  outfile: `${sdk}dist/typebox.js`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  legalComments: 'inline',
  logLevel: 'warning',
});
