/**
 * semver, from one module. The build replaces this file's output with an esbuild bundle
 * (scripts/bundle-dependencies.mjs): one file loads faster than its many, at every start and in
 * every pool worker's first job.
 */
import semver from 'semver';

export default semver;
