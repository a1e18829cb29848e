// The esbuild options every server-side bundle shares (bundle-dependencies.mjs, bundle-plugins.mjs).
//
// Minified: V8 keeps the source of every loaded script for as long as the process runs (lazy
// compilation and Function.prototype.toString need it), and these bundles are most of the source a
// started service holds: 2.8 MB as esbuild writes them, 1.5 MB minified. Idle RSS fell 2.6 MiB
// (103.1 → 100.5, five starts each), the pool worker's share included. keepNames keeps every
// function's and class's `name` as written, which libraries may read (error names, class checks).
// License comments stay, inline.

/** CommonJS libraries call require() for Node's own modules; in an ES module bundle it must exist. */
export const REQUIRE_SHIM = "import { createRequire as __toolshedRequire } from 'node:module'; const require = __toolshedRequire(import.meta.url);";

/** Options for one ES module bundle that runs on Node. */
export const serverBundle = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  legalComments: 'inline',
  logLevel: 'warning',
};
