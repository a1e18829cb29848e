/**
 * The TypeBox values the SDK uses, from one module. The build replaces this file's output with a
 * bundle of them (scripts/bundle-dependencies.mjs): TypeBox ships some 700 small modules, and loading
 * them one by one took 170–190 ms of every start and of every pool worker's first job; the bundle
 * loads in about 15 ms. The types still come from the `typebox` package.
 */
export { default as Type } from 'typebox';
export { Compile } from 'typebox/compile';
export { Settings } from 'typebox/system';
