// The tool pages' one script and one stylesheet (tool-pages/browser/), each bundled and minified
// by esbuild next to the compiled server side, where tool-pages/serve.js reads them at start-up.
// Run after every build: `npm run build`, the test command and `npm start`'s emit all do.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', absWorkingDir: root };
await build({ ...common, entryPoints: ['tool-pages/browser/main.ts'], outfile: 'dist/tool-pages/tool-pages.js', format: 'iife', target: 'es2020', platform: 'browser' });
await build({ ...common, entryPoints: ['tool-pages/browser/tool-pages.css'], outfile: 'dist/tool-pages/tool-pages.css' });
