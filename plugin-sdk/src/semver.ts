/**
 * semver, from one module. The build replaces this file's output with an esbuild bundle
 * (scripts/bundle-dependencies.mjs): its ~45 files took ~27 ms of every start and of every pool
 * worker's first job to load; the bundle ~10 ms.
 */
import semver from 'semver';

export default semver;
