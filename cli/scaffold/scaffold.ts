/**
 * Writes a new third-party plugin folder (`toolshed plugin new <group> [dir]`): a TypeScript package
 * with one operation, its test, and the scripts to build and test it. As written it builds, passes
 * its test and loads, both from `plugins.dirs` and, packed, from `plugins.packages`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import { pluginFiles } from './templates.js';

export interface ScaffoldOptions {
  /** The plugin's group (kebab-case); also the folder's name. */
  readonly group: string;
  /** The folder to create (it must not exist or be empty). */
  readonly dir: string;
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
  const dir = path.resolve(options.dir);
  // Toolshed loads <plugins dir>/<group>/index.js and refuses a folder named otherwise.
  if (path.basename(dir) !== group) {
    throw new Error(`The folder ${dir} must be named after the group: end it in "${group}" (as in ${path.join(path.dirname(dir), group)}).`);
  }
  const entries = await entriesOf(dir);
  if (entries !== undefined && entries.length > 0) {
    throw new Error(`${dir} is not empty (it holds ${entries.length} entries); nothing was written. Choose a new or empty folder.`);
  }
  const files = pluginFiles({ group, sdkVersion: SDK_VERSION });
  for (const file of files) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    // `wx`: a file that appeared meanwhile is not overwritten.
    await writeFile(target, file.content, { flag: 'wx' });
  }
  return files.map((file) => file.path);
}
