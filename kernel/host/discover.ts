/**
 * Finds plugins: every `<dir>/<group>/index.js` below the built-in folder and the configured
 * folders (or the fresh `index.bundle.js` beside it), plus the configured npm packages. Each
 * manifest is checked with this kernel's SDK; any problem stops the start with a message naming
 * the file. Nothing is skipped silently. A third-party plugin's module is imported in a process of
 * its own only (kernel/host/manifest-probe.ts), and this thread gets its manifest as data; only a
 * group the operator trusts (`plugins.trusted`) is imported here as well.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SDK_VERSION, type Plugin } from '@toolshed/plugin-sdk';
import { checkPlugin } from '@toolshed/plugin-sdk/contract';
import { freshBundle, freshManifestData } from './bundles.js';
import { DeferredModule, deferredPlugin, readManifestData } from './deferred-plugin.js';
import type { ManifestData } from './manifest-data.js';
import { probeManifest, ProbeRefusal } from './manifest-probe.js';
import type { UserSetting } from './plugin-process/launch.js';
import fg from './vendor/fast-glob.js';

/** A plugin and where it came from. */
export interface LoadedPlugin {
  /** Its manifest; only data for a contained plugin, whose module this thread never imported. */
  readonly plugin: ManifestData;
  /**
   * The module's manifest with its functions, for built-ins and trusted groups: imported on this
   * thread, or, for a built-in with fresh manifest data, a stand-in whose handlers import it on first use.
   */
  readonly imported?: Plugin;
  /** A built-in read from its manifest data: its module, imported on first use (kernel/host/deferred-plugin.ts). */
  readonly deferred?: DeferredModule;
  /** The file or package name it was loaded from, for messages. */
  readonly source: string;
  /** What `import()` loads it by (a file URL or a package name), so a worker can load it too. */
  readonly specifier: string;
  /** Where it came from, for the start-up log: built in, an operator folder, or an npm package. */
  readonly origin: 'built-in' | 'folder' | 'package';
  /** The `version` of the plugin's package.json, when it has one. */
  readonly version?: string;
}

/** The folder Toolshed runs from (its package.json), where package plugins are installed. */
const serviceRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** The folder of the built-in plugins (beside the kernel in the build output). */
export const builtinPluginDir = fileURLToPath(new URL('../../plugins/', import.meta.url));

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

/**
 * What to run when `import()` could not find a module: the plugin's own modules are not built, its
 * dependencies are not installed, or the package is not installed where Toolshed resolves it.
 * Undefined for any other failure (a syntax error, a throw at load), whose message says enough.
 */
function fixFor(error: unknown, specifier: string, folder: string | undefined): string | undefined {
  if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  const message = (error as Error).message;
  if (folder === undefined) {
    // The package itself is missing, or a module it needs is.
    if (message.includes(`'${specifier}'`)) return `install it: npm install --ignore-scripts ${specifier} (in ${serviceRoot})`;
    return `reinstall it with its dependencies: npm install --ignore-scripts ${specifier} (in ${serviceRoot})`;
  }
  // A bare name ('@toolshed/plugin-sdk') is a dependency; a path is one of the plugin's own files.
  if (/Cannot find package '/.test(message)) return `install its dependencies: npm ci (or npm install) in ${folder}`;
  return `build it: npm run build in ${folder}`;
}

/** Groups from folders and packages the operator trusts with the main thread (`plugins.trusted`). */
export type TrustedGroups = ReadonlySet<string>;

/** How third-party plugins are loaded: the groups trusted with the main thread, and the user their probe runs as (`plugins.user`). */
export interface ThirdParty {
  readonly trusted: TrustedGroups;
  readonly user: UserSetting;
}

const untrusted: ThirdParty = { trusted: new Set(), user: 'auto' };

/** Imports the plugin's module on this thread and checks its manifest. */
async function importHere(specifier: string, source: string, origin: LoadedPlugin['origin'], folder?: string): Promise<Plugin> {
  let module: { default?: unknown };
  try {
    module = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    const fix = fixFor(error, specifier, folder);
    throw new PluginLoadError(source, [(error as Error).message, ...(fix === undefined ? [] : [fix])]);
  }
  // A third party's body schemas must bound every string and array (docs/writing-a-plugin.md).
  const problems = checkPlugin(module.default, SDK_VERSION, { requireBounds: origin !== 'built-in' });
  if (problems.length > 0) throw new PluginLoadError(source, problems);
  return module.default as Plugin;
}

/**
 * A built-in is imported here. A third party's module is imported in a process of its own first,
 * which sends its manifest as data; only when its group is trusted is it imported here too.
 */
async function importManifest(
  specifier: string,
  source: string,
  origin: LoadedPlugin['origin'],
  third: ThirdParty,
  folder?: string,
): Promise<{ plugin: ManifestData; imported?: Plugin; deferred?: DeferredModule }> {
  if (origin === 'built-in') {
    const imported = await importHere(specifier, source, origin, folder);
    return { plugin: imported, imported };
  }
  let data: ManifestData;
  try {
    data = await probeManifest(specifier, third.user);
  } catch (error) {
    if (!(error instanceof ProbeRefusal)) throw error;
    const fix = fixFor(error, specifier, folder);
    throw new PluginLoadError(source, [...error.problems, ...(fix === undefined ? [] : [fix])]);
  }
  if (!third.trusted.has(data.group)) return { plugin: data };
  const imported = await importHere(specifier, source, origin, folder);
  return { plugin: imported, imported };
}

/**
 * Loads one plugin folder as `plugins.dirs` does: its `index.js` (or the fresh `index.bundle.js`),
 * whose group must equal the folder's name when `namedAfterGroup` (a folder of `plugins.dirs` is
 * found by that name). `toolshed plugin check` and `plugin dev` load a single folder through this
 * too, so they apply the kernel's rules; they say themselves when the name differs.
 */
export async function loadPluginFolder(folder: string, origin: 'built-in' | 'folder', namedAfterGroup = true, third: ThirdParty = untrusted): Promise<LoadedPlugin> {
  const index = ['index.js', 'index.mjs'].map((name) => path.join(folder, name)).find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
  if (index === undefined) {
    const typescript = ['index.ts', 'index.mts'].map((name) => path.join(folder, name)).find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
    if (typescript !== undefined) {
      throw new PluginLoadError(typescript, ['the plugin is TypeScript only: build it (npm run build, or npx tsc) so that index.js exists next to it']);
    }
    throw new PluginLoadError(folder, ['the folder has no index.js: a plugin folder holds index.js, which exports the manifest']);
  }
  // The folder's index.bundle.js when it is fresh (kernel/host/bundles.ts): one read instead of one per module.
  const file = freshBundle(index) ?? index;
  const specifier = pathToFileURL(file).href;
  const { plugin, imported, deferred } = (origin === 'built-in' ? deferredBuiltin(index, specifier, file, folder) : undefined) ?? (await importManifest(specifier, file, origin, third, folder));
  const name = path.basename(folder);
  if (namedAfterGroup && name !== plugin.group) {
    throw new PluginLoadError(file, [`the folder is named "${name}" but the group is "${plugin.group}"; they must be equal`]);
  }
  const version = origin === 'built-in' ? serviceVersion : versionIn(path.join(folder, 'package.json'));
  return { plugin, imported, deferred, source: file, specifier, origin, version };
}

/**
 * A built-in read from the manifest data its build wrote (checked by `definePlugin` when the build
 * imported it), its module imported on first use; undefined when there is no fresh data to read,
 * and the module is then imported now.
 */
function deferredBuiltin(index: string, specifier: string, source: string, folder: string): { plugin: ManifestData; imported: Plugin; deferred: DeferredModule } | undefined {
  const file = freshManifestData(index);
  const data = file === undefined ? undefined : readManifestData(file);
  if (data === undefined) return undefined;
  const deferred = new DeferredModule(data.manifest.group, () => importHere(specifier, source, 'built-in', folder));
  return { plugin: data.manifest, imported: deferredPlugin(data, deferred), deferred };
}

/**
 * Loads the plugin folders inside `dir`. A folder that does not exist, or a plugin folder holding
 * TypeScript but no JavaScript, stops the start: silently skipping either left operators wondering
 * where their plugin went.
 */
async function loadFolder(dir: string, origin: 'built-in' | 'folder', third: ThirdParty): Promise<LoadedPlugin[]> {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new PluginLoadError(dir, ['the folder does not exist: correct plugins.dirs, or create the folder']);
  }
  const folders = new Set((await fg('*/index.{js,mjs,ts,mts}', { cwd: dir, absolute: true, onlyFiles: true })).map((file) => path.dirname(file)));
  const loaded: LoadedPlugin[] = [];
  for (const folder of [...folders].sort()) loaded.push(await loadPluginFolder(folder, origin, true, third));
  return loaded;
}

/** Loads an installed npm package plugin by name, as `plugins.packages` does. */
export async function loadPluginPackage(name: string, third: ThirdParty = untrusted): Promise<LoadedPlugin> {
  const source = `package ${name}`;
  return { ...(await importManifest(name, source, 'package', third)), source, specifier: name, origin: 'package', version: packageVersion(name) };
}

/**
 * The package.json of an installed package, resolved from the kernel's location like its import:
 * the one above its entry module that bears its name (a package's `exports` often leaves its
 * package.json out, so it cannot be resolved directly). Undefined when the package does not resolve.
 */
export function installedPackageJson(name: string): Readonly<Record<string, unknown>> | undefined {
  let folder: string;
  try {
    folder = path.dirname(fileURLToPath(import.meta.resolve(name)));
  } catch {
    return undefined; // Not resolvable: the import has failed already and said why.
  }
  for (; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const file = path.join(folder, 'package.json');
    try {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      if (manifest.name === name) return manifest;
    } catch {
      // No package.json here (or not JSON): look further up.
    }
  }
  return undefined;
}

/** The version of an installed package, from its package.json. */
function packageVersion(name: string): string | undefined {
  const version = installedPackageJson(name)?.version;
  return typeof version === 'string' ? version : undefined;
}

/** The service's own version, which the built-in plugins share. */
const serviceVersion = versionIn(path.join(serviceRoot, 'package.json'));

/**
 * Loads one plugin named by `reference`: a plugin folder (a path or file URL of a folder, loaded as
 * `plugins.dirs` loads each of its folders, whatever the folder's name), a module file (a path or file URL), or an installed
 * package's name. Used by the test fixture, `plugin check` and `plugin dev`.
 */
export async function loadPlugin(reference: string, third: ThirdParty = untrusted): Promise<LoadedPlugin> {
  const file = reference.startsWith('file:') ? fileURLToPath(reference) : path.isAbsolute(reference) || reference.startsWith('.') ? path.resolve(reference) : undefined;
  if (file === undefined) return loadPluginPackage(reference, third);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) throw new PluginLoadError(file, ['there is no such file or folder']);
  if (stat.isDirectory()) return loadPluginFolder(file, 'folder', false, third);
  const specifier = pathToFileURL(file).href;
  return { ...(await importManifest(specifier, file, 'folder', third, path.dirname(file))), source: file, specifier, origin: 'folder' };
}

/** Where plugins come from. */
export interface DiscoveryOptions {
  /** The built-in plugin folder; null for none (a test fixture serving only its own plugins). */
  readonly builtinDir: string | null;
  /** Operator folders, relative to the working directory or absolute. */
  readonly dirs: readonly string[];
  /** Operator npm packages. */
  readonly packages: readonly string[];
  /** Single plugins, each as {@link loadPlugin} takes it, loaded after the packages. */
  readonly plugins?: readonly string[];
  /** `plugins.trusted`: third-party groups imported on this thread too. */
  readonly trusted?: readonly string[];
  /** `plugins.user`: who a third-party plugin's probe runs as (`auto` when left out). */
  readonly user?: UserSetting;
}

/**
 * Loads every plugin; throws PluginLoadError on the first bad one and on duplicate groups. A
 * third-party plugin may share its group with a built-in one: the registry then serves it instead
 * of the built-in, provided the configuration disables the built-in (buildRegistry checks that).
 */
export async function discoverPlugins(options: DiscoveryOptions): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  const third: ThirdParty = { trusted: new Set(options.trusted ?? []), user: options.user ?? 'auto' };
  if (options.builtinDir !== null) loaded.push(...(await loadFolder(options.builtinDir, 'built-in', third)));
  for (const dir of options.dirs) loaded.push(...(await loadFolder(path.resolve(dir), 'folder', third)));
  for (const name of options.packages) loaded.push(await loadPluginPackage(name, third));
  for (const reference of options.plugins ?? []) loaded.push(await loadPlugin(reference, third));
  const seen = new Map<string, LoadedPlugin>();
  for (const candidate of loaded) {
    const first = seen.get(candidate.plugin.group);
    if (first !== undefined && !(first.origin === 'built-in' && candidate.origin !== 'built-in')) {
      throw new PluginLoadError(candidate.source, [`the group "${candidate.plugin.group}" is already provided by ${first.source}`]);
    }
    if (first === undefined || first.origin === 'built-in') seen.set(candidate.plugin.group, candidate);
  }
  return loaded;
}
