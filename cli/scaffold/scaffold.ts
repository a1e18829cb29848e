/**
 * Writes a new third-party plugin folder (`toolshed plugin new <group> [dir]`): a TypeScript package
 * with one operation, its test, and the scripts to build and test it. As written it builds, passes
 * its test and loads, both from `plugins.dirs` and, packed, from `plugins.packages`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import { pluginFiles } from './templates.js';

/** This Toolshed checkout (dist/cli/scaffold → the repository root). */
const toolshedRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How the new plugin's package.json names this Toolshed as its dev dependency: the checkout's path
 * relative to the plugin, so `npm install` links it (docs/decisions.md, "A plugin's tests get the kernel as a fixture").
 */
function toolshedDependency(dir: string): string {
  return `file:${path.relative(dir, toolshedRoot).split(path.sep).join('/') || '.'}`;
}

export interface ScaffoldOptions {
  /** The plugin's group (kebab-case). */
  readonly group: string;
  /** The folder to create (it must not exist or be empty); any name. */
  readonly dir: string;
  /** Groups the service already has, with where each comes from: a new plugin may not take one. */
  readonly taken?: ReadonlyMap<string, string>;
}

/** The SDK's rule for a group (it is the URL segment); checked here so nothing is written for a bad one. */
const kebabCase = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

async function entriesOf(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new Error(`${dir} is a file, not a folder.`, { cause: error });
    throw error;
  }
}

/** Writes the plugin folder; returns the files written, relative to `dir`. */
export async function scaffoldPlugin(options: ScaffoldOptions): Promise<string[]> {
  const { group } = options;
  if (!kebabCase.test(group)) {
    throw new Error(`The group "${group}" is not kebab-case: use lowercase letters and digits in words joined by "-", starting with a letter (for example "word-tools").`);
  }
  const where = options.taken?.get(group);
  if (where !== undefined) {
    throw new Error(`The group "${group}" is taken: ${where} provides it. Choose another name; nothing was written.`);
  }
  const dir = path.resolve(options.dir);
  const entries = await entriesOf(dir);
  if (entries !== undefined && entries.length > 0) {
    throw new Error(`${dir} is not empty (it holds ${entries.length} entries); nothing was written. Choose a new or empty folder.`);
  }
  const files = pluginFiles({ group, sdkVersion: SDK_VERSION, toolshed: toolshedDependency(dir) });
  for (const file of files) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    // `wx`: a file that appeared meanwhile is not overwritten.
    await writeFile(target, file.content, { flag: 'wx' });
  }
  return files.map((file) => file.path);
}
