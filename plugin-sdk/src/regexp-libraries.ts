/**
 * The two libraries of the SDK's linear-time regular expressions (linear-regexp.ts), from one
 * module: RE2JS, a JavaScript port of RE2, and regexpp, ESLint's parser of JavaScript's pattern
 * syntax. The build replaces this file's output with one minified esbuild bundle of both
 * (scripts/bundle-dependencies.mjs), as it does TypeBox's: every process and pool worker loads it.
 */
export { RE2JS } from 're2js';
export { RegExpParser, type AST } from '@eslint-community/regexpp';
