/**
 * Single-file builds beside compiled modules: `name.bundle.js` next to `name.js` holds the module
 * with the files and libraries it imports, so it loads in one read instead of one per module
 * (scripts/bundle-plugins.mjs writes them for the built-in plugins). The kernel loads a plugin's
 * `index.bundle.js` this way, and pool workers a job module's bundle. The same script writes each
 * built-in's manifest as data (`index.manifest.v8`), which the kernel reads instead of importing
 * the plugin at start-up (kernel/host/deferred-plugin.ts).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BUNDLE_SUFFIX = '.bundle.js';

/**
 * `output`, made from the JavaScript in `file`'s folder, when it exists and is at least as new as
 * every JavaScript file directly in that folder that `counts`; otherwise undefined. An older one
 * (`tsc -b` run alone after an edit) is stale and must not be used. Subfolders are not looked at,
 * to keep the check cheap.
 */
function freshOutput(file: string, output: string, counts: (name: string) => boolean): string | undefined {
  const built = statSync(output, { throwIfNoEntry: false });
  if (!built?.isFile()) return undefined;
  const folder = path.dirname(file);
  for (const name of readdirSync(folder)) {
    if (!/\.m?js$/.test(name) || !counts(name)) continue;
    if (statSync(path.join(folder, name)).mtimeMs > built.mtimeMs) return undefined;
  }
  return output;
}

/**
 * The bundle of the module at `file` (`dir/name.js` → `dir/name.bundle.js`) when it is fresh: at
 * least as new as every other JavaScript file directly in its folder; otherwise undefined.
 */
export function freshBundle(file: string): string | undefined {
  if (!/\.m?js$/.test(file) || file.endsWith(BUNDLE_SUFFIX)) return undefined;
  return freshOutput(file, file.replace(/\.m?js$/, BUNDLE_SUFFIX), (name) => !name.endsWith(BUNDLE_SUFFIX));
}

/**
 * The manifest data scripts/bundle-plugins.mjs wrote beside a built-in's `index.js`
 * (`index.manifest.v8`, kernel/host/deferred-plugin.ts) when it is at least as new as every
 * JavaScript file in the folder, bundles included; otherwise undefined.
 */
export function freshManifestData(index: string): string | undefined {
  return freshOutput(index, path.join(path.dirname(index), MANIFEST_DATA_FILE), () => true);
}

/** The name of a built-in's manifest data file, beside its `index.js`. */
export const MANIFEST_DATA_FILE = 'index.manifest.v8';

/**
 * `specifier` itself, or the file URL of its fresh bundle when it is a file URL that has one. A URL
 * with a query or a fragment names a module instance of its own and is kept as it is.
 */
export function preferBundle(specifier: string): string {
  if (!specifier.startsWith('file:') || /[?#]/.test(specifier)) return specifier;
  const bundle = freshBundle(fileURLToPath(specifier));
  return bundle === undefined ? specifier : pathToFileURL(bundle).href;
}
