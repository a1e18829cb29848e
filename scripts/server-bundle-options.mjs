// The esbuild options every server-side bundle shares (bundle-dependencies.mjs, bundle-plugins.mjs).
//
// Whitespace and syntax minified: V8 keeps the source of every loaded script for as long as the
// process runs (lazy compilation and Function.prototype.toString need it), and these bundles are
// most of the source a started service holds. Idle RSS fell ~3 MiB (103.0 → 99.9, five starts each).
//
// Identifiers are not renamed. Renamed, every function's `name` changes, which libraries and stack
// traces read; esbuild's keepNames puts the names back by calling Object.defineProperty on each
// function as it is created, closures Koa makes per request included: ~6 % of the CPU in the
// profile, keyed base64 at 118–142 µs per request against 83–99, and idle RSS 100.4 against 99.9.
// Renaming without keepNames would save 1 MiB more (98.9), with names that change.
// License comments stay, inline.

/** CommonJS libraries call require() for Node's own modules; in an ES module bundle it must exist. */
export const REQUIRE_SHIM = "import { createRequire as __toolshedRequire } from 'node:module'; const require = __toolshedRequire(import.meta.url);";

/** Options for one ES module bundle that runs on Node. */
export const serverBundle = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'inline',
  logLevel: 'warning',
};
