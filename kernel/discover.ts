/**
 * Finds plugins: every `<dir>/<group>/index.js` below the built-in folder and the configured
 * folders (or the fresh `index.bundle.js` beside it), plus the configured npm packages. Each
 * manifest is checked with this kernel's SDK; any problem stops the start with a message naming
 * the file. Nothing is skipped silently.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkPlugin, freshBundle, SDK_VERSION, type Plugin } from '@toolshed/plugin-sdk';
import fg from 'fast-glob';

/** A plugin and where it came from. */
export interface LoadedPlugin {
  readonly plugin: Plugin;
  /** The file or package name it was loaded from, for messages. */
  readonly source: string;
  /** What `import()` loads it by (a file URL or a package name), so a worker can load it too. */
  readonly specifier: string;
  /** Where it came from, for the start-up log: built in, an operator folder, or an npm package. */
  readonly origin: 'built-in' | 'folder' | 'package';
  /** The `version` of the plugin's package.json, when it has one. */
  readonly version?: string;
}

/** The version in a package.json file, or undefined when there is none to read. */
function versionIn(packageJson: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** A plugin that cannot be loaded; the message names its file or package. */
export class PluginLoadError extends Error {
  constructor(source: string, problems: readonly string[]) {
    super(`Cannot load the plugin ${source}:\n- ${problems.join('\n- ')}`);
    this.name = 'PluginLoadError';
  }
}

async function importManifest(specifier: string, source: string, origin: LoadedPlugin['origin']): Promise<Plugin> {
  let module: { default?: unknown };
  try {
    module = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    throw new PluginLoadError(source, [(error as Error).message]);
  }
  // A third party's body schemas must bound every string and array (docs/writing-a-plugin.md).
  const problems = checkPlugin(module.default, SDK_VERSION, { requireBounds: origin !== 'built-in' });
  if (problems.length > 0) throw new PluginLoadError(source, problems);
  return module.default as Plugin;
}

/**
 * Loads the plugin folders inside `dir`; each folder's name must equal its manifest's group. A
 * folder that does not exist, or a plugin folder holding TypeScript but no JavaScript, stops the
 * start: silently skipping either left operators wondering where their plugin went.
 */
async function loadFolder(dir: string, origin: 'built-in' | 'folder'): Promise<LoadedPlugin[]> {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new PluginLoadError(dir, ['the folder does not exist: correct plugins.dirs, or create the folder']);
  }
  const files = await fg('*/index.{js,mjs}', { cwd: dir, absolute: true, onlyFiles: true });
  files.sort();
  const compiled = new Set(files.map((file) => path.dirname(file)));
  for (const source of await fg('*/index.{ts,mts}', { cwd: dir, absolute: true, onlyFiles: true })) {
    if (!compiled.has(path.dirname(source))) {
      throw new PluginLoadError(source, ['the plugin is TypeScript only: build it (npm run build, or npx tsc) so that index.js exists next to it']);
    }
  }
  const loaded: LoadedPlugin[] = [];
  for (const index of files) {
    // The folder's index.bundle.js when it is fresh (see the SDK's freshBundle): one read instead of one per module.
    const file = freshBundle(index) ?? index;
    const specifier = pathToFileURL(file).href;
    const plugin = await importManifest(specifier, file, origin);
    const folder = path.basename(path.dirname(file));
    if (folder !== plugin.group) {
      throw new PluginLoadError(file, [`the folder is named "${folder}" but the group is "${plugin.group}"; they must be equal`]);
    }
    loaded.push({ plugin, source: file, specifier, origin, version: versionIn(path.join(path.dirname(file), 'package.json')) });
  }
  return loaded;
}

/** The version of an installed package, resolved from the kernel's location like its import. */
function packageVersion(name: string): string | undefined {
  try {
    return versionIn(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    // The package does not export its package.json: no version to show.
    return undefined;
  }
}

/** Where plugins come from. */
export interface DiscoveryOptions {
  /** The built-in plugin folder. */
  readonly builtinDir: string;
  /** Operator folders, relative to the working directory or absolute. */
  readonly dirs: readonly string[];
  /** Operator npm packages. */
  readonly packages: readonly string[];
}

/** Loads every plugin; throws PluginLoadError on the first bad one and on duplicate groups. */
export async function discoverPlugins(options: DiscoveryOptions): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  loaded.push(...(await loadFolder(options.builtinDir, 'built-in')));
  for (const dir of options.dirs) loaded.push(...(await loadFolder(path.resolve(dir), 'folder')));
  for (const name of options.packages) {
    loaded.push({ plugin: await importManifest(name, `package ${name}`, 'package'), source: `package ${name}`, specifier: name, origin: 'package', version: packageVersion(name) });
  }
  const seen = new Map<string, string>();
  for (const { plugin, source } of loaded) {
    const first = seen.get(plugin.group);
    if (first !== undefined) throw new PluginLoadError(source, [`the group "${plugin.group}" is already provided by ${first}`]);
    seen.set(plugin.group, source);
  }
  return loaded;
}
