/**
 * Single-file builds beside compiled modules: `name.bundle.js` next to `name.js` holds the module
 * with the files and libraries it imports, so it loads in one read instead of one per module
 * (scripts/bundle-plugins.mjs writes them for the built-in plugins). The kernel loads a plugin's
 * `index.bundle.js` this way, and pool workers a job module's bundle.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BUNDLE_SUFFIX = '.bundle.js';

/**
 * The bundle of the module at `file` (`dir/name.js` → `dir/name.bundle.js`) when it exists and is
 * at least as new as every other JavaScript file directly in its folder; otherwise undefined. A
 * bundle older than one of them (`tsc -b` run alone after an edit) is stale and must not be used.
 * Subfolders are not looked at, to keep the check cheap.
 */
export function freshBundle(file: string): string | undefined {
  if (!/\.m?js$/.test(file) || file.endsWith(BUNDLE_SUFFIX)) return undefined;
  const bundle = file.replace(/\.m?js$/, BUNDLE_SUFFIX);
  const built = statSync(bundle, { throwIfNoEntry: false });
  if (!built?.isFile()) return undefined;
  const folder = path.dirname(file);
  for (const name of readdirSync(folder)) {
    if (name.endsWith(BUNDLE_SUFFIX) || !/\.m?js$/.test(name)) continue;
    if (statSync(path.join(folder, name)).mtimeMs > built.mtimeMs) return undefined;
  }
  return bundle;
}

/**
 * `specifier` itself, or the file URL of its fresh bundle when it is a file URL that has one. A URL
 * with a query or a fragment names a module instance of its own and is kept as it is.
 */
export function preferBundle(specifier: string): string {
  if (!specifier.startsWith('file:') || /[?#]/.test(specifier)) return specifier;
  const bundle = freshBundle(fileURLToPath(specifier));
  return bundle === undefined ? specifier : pathToFileURL(bundle).href;
}
