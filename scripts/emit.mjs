// `npm start`'s build: emits the JavaScript of the kernel, the composition root, the front doors, the
// tool pages, the built-in plugins and the SDK with esbuild, file by file into the same places
// `tsc -b` writes, far sooner than a type-checking build. Type
// checking belongs to the test command (`tsc -b`).
// esbuild transpiles each file on its own; the code relies on nothing that needs the whole program
// (no namespaces, no cross-file const enum inlining), and tsc's output is the same module graph.
// Paths are taken from this file, not the working directory: bin/toolshed.js runs it from anywhere.
import { readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fg from 'fast-glob';

const root = fileURLToPath(new URL('../', import.meta.url));
const ignore = ['**/*.test.ts', '**/*.d.ts', '**/fixtures/**', 'plugin-sdk/src/typebox.ts'];
const options = { format: 'esm', platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', absWorkingDir: root };
// The service's folders are the main project's (tsconfig.json's include, but its tests) and the
// tool pages' project: a new folder there is emitted without a second list to edit.
const project = JSON.parse(await readFile(`${root}tsconfig.json`, 'utf8'));
const folders = [...project.include.filter((folder) => folder !== 'test'), 'tool-pages'];
const trees = [
  { outdir: 'plugin-sdk/dist', outbase: 'plugin-sdk/src', patterns: ['plugin-sdk/src/**/*.ts'] },
  { outdir: 'dist', outbase: '.', patterns: folders.map((folder) => `${folder}/**/*.ts`) },
];
for (const tree of trees) {
  const entryPoints = await fg(tree.patterns, { ignore, cwd: root });
  await build({ ...options, entryPoints, outdir: `${root}${tree.outdir}`, outbase: `${root}${tree.outbase}`, tsconfig: `${root}tsconfig.base.json` });
}
await import('./bundle-dependencies.mjs');
await import('./bundle-plugins.mjs');
await import('./bundle-tool-pages.mjs');
// tsc -b must not take these files for its own output: without its build info it rebuilds in full.
await Promise.all(['tsconfig.tsbuildinfo', 'plugin-sdk/tsconfig.tsbuildinfo', 'dist/tsconfig.tsbuildinfo', 'dist/tool-pages/tsconfig.tsbuildinfo'].map((file) => rm(`${root}${file}`, { force: true })));
