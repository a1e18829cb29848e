/**
 * Koa, from one module. The build replaces this file's output with an esbuild bundle of Koa and its
 * dependencies (scripts/bundle-dependencies.mjs): loaded as ~40 CommonJS files it took ~90 ms of
 * every start, as one file ~50 ms. Types still come from the `koa` package.
 */
import Koa from 'koa';

export default Koa;
