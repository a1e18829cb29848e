/**
 * The YAML functions the kernel and the command line use, from one module. The build replaces this
 * file's output with an esbuild bundle (scripts/bundle-dependencies.mjs): `yaml` ships ~70 files,
 * which took ~45 ms of every start to load; the bundle ~20 ms.
 */
export { parse, stringify } from 'yaml';
