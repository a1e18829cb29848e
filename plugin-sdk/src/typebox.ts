/**
 * The TypeBox values the SDK uses, from one module. The build replaces this file's output with a
 * bundle of them (scripts/bundle-dependencies.mjs): TypeBox ships some 700 small modules, and loading
 * them one by one lengthened every start and every pool worker's first job; one file loads in a
 * fraction of that time. The types still come from the `typebox` package.
 */
export { default as Type } from 'typebox';
export { Compile } from 'typebox/compile';
export { Settings } from 'typebox/system';
export { Format } from 'typebox/format';
