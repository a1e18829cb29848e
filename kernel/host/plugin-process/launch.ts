/**
 * How a contained plugin's process is started: Node with its permission model on (`--permission`;
 * Node 20 names it `--experimental-permission`), file reads limited to what the process must load,
 * nothing else allowed unless the operator grants it (`plugins.grants.<group>`), a heap cap, an
 * environment of exactly the listed variables, and another user id where the service runs as root
 * (`plugins.user`). Node 20's model does not restrict the network at all; Node 26's does, unless
 * `--allow-net` is given (docs/writing-a-plugin.md, the containment table).
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from '../vendor/fast-glob.js';
import { pluginUser, type ProcessUser } from './plugin-users.js';

/** What the operator allows a group beyond the default (`plugins.grants.<group>`). */
export interface Grants {
  readonly net?: boolean;
  readonly worker?: boolean;
  readonly childProcess?: boolean;
  /** Further files or folders it may read. */
  readonly read?: readonly string[];
  /** Files or folders it may write. */
  readonly write?: readonly string[];
}

/** Everything `child_process.spawn` needs. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The plugin's folder: the process's working directory. */
  readonly cwd: string;
  readonly user?: ProcessUser;
}

/** `plugins.user`: `auto`, `service`, or a user and group id. */
export type UserSetting = 'auto' | 'service' | ProcessUser;

/** The user a plugin's processes run as, or why they run as the service's own user under `auto`. */
export interface UserChoice {
  readonly user?: ProcessUser;
  /** Set when `auto` had to keep the service's user although it runs as root. */
  readonly kept?: string;
}

/**
 * What keeps other users from reading `file` (and, for a folder, listing and entering it): the
 * first folder above it that others may not search, or the file itself; undefined when nothing
 * does. A file inside a readable folder may still be private: its import then fails naming it.
 */
function hiddenBy(file: string): string | undefined {
  const above: string[] = [];
  for (let at = path.dirname(file); at !== path.dirname(at); at = path.dirname(at)) above.unshift(at);
  const closed = above.find((folder) => ((statSync(folder, { throwIfNoEntry: false })?.mode ?? 0) & 0o001) === 0);
  if (closed !== undefined) return closed;
  const stat = statSync(file, { throwIfNoEntry: false });
  // Nothing there to read: no reason to keep root.
  if (stat === undefined) return undefined;
  const needed = stat.isDirectory() ? 0o005 : 0o004;
  return (stat.mode & needed) === needed ? undefined : file;
}

/**
 * The user for the processes of the plugin whose folder is `own`. `service`: the service's own. A
 * uid and gid: those (the service must run as root; config.ts checks it). `auto`: a user of the
 * plugin's own (plugin-users.ts) when the service runs as root and everything the process must read
 * is readable by others; otherwise the service's own user, with
 * the reason (a private folder above the service or the plugin). Not when what is private is the
 * plugin's own folder (`own`) or in it: its modes are its author's (a tarball carries them), and a
 * red-team plugin shipped its folder as 700 to run as root and kill the service. That throws.
 */
export function chooseUser(setting: UserSetting, readable: readonly string[], own: string): UserChoice {
  if (setting === 'service') return {};
  if (setting !== 'auto') return { user: setting };
  if (process.getuid?.() !== 0) return {};
  for (const file of readable) {
    const hidden = hiddenBy(file);
    if (hidden === undefined) continue;
    if (hidden === own || hidden.startsWith(own + path.sep)) {
      throw new Error(
        `${hidden} is not readable by other users, so plugins.user auto cannot run it as a user of its own, and does not run a plugin's own private files as root: ` +
          `make them readable (chmod -R o+rX ${own}) or set plugins.user to service`,
      );
    }
    return { kept: `${hidden} is not readable by other users` };
  }
  return { user: pluginUser(own) };
}

/** The main module of every plugin process. */
export const childEntry = fileURLToPath(new URL('./child-entry.js', import.meta.url));

const flags = process.allowedNodeEnvironmentFlags;
/** Node 22.13/23.5 onwards: `--permission`; Node 20: `--experimental-permission`. */
export const PERMISSION_FLAG = flags.has('--permission') ? '--permission' : '--experimental-permission';
/** Whether this Node's permission model restricts the network (Node 26 does; Node 20 has no such permission). */
export const RESTRICTS_NETWORK = flags.has('--allow-net');

/**
 * The folder a plugin is loaded from: a file's folder (`<dir>/<group>/index.js`, a single module),
 * or an installed package's root (the folder of the package.json that bears its name above the
 * module it resolves to, resolved from the kernel as its import is).
 */
export function pluginRoot(specifier: string): string {
  if (specifier.startsWith('file:')) return path.dirname(fileURLToPath(specifier));
  let folder = path.dirname(fileURLToPath(import.meta.resolve(specifier)));
  for (; folder !== path.dirname(folder); folder = path.dirname(folder)) {
    try {
      if ((JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { name?: unknown }).name === specifier) return folder;
    } catch {
      // No package.json here, or not JSON: look further up.
    }
  }
  throw new Error(`cannot find the folder of package ${specifier}`);
}

const isFolder = (file: string): boolean => statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * Where Node finds the packages a module in `folder` imports: each `node_modules` folder from
 * `folder` up to the root, with the real folders of the links inside them (a workspace package,
 * `npm link`), since the loader reads a linked package at its real path.
 */
export function moduleFolders(folder: string): string[] {
  const found: string[] = [];
  for (let at = folder; ; at = path.dirname(at)) {
    const modules = path.join(at, 'node_modules');
    if (isFolder(modules)) found.push(modules, ...linkTargets(modules));
    if (at === path.dirname(at)) return found;
  }
}

/** The real folders of the symbolic links in a node_modules folder, scoped packages included. */
function linkTargets(modules: string): string[] {
  const targets: string[] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    const where = path.join(modules, entry.name);
    if (entry.isSymbolicLink()) targets.push(...realFolder(where));
    else if (entry.isDirectory() && entry.name.startsWith('@')) {
      for (const scoped of readdirSync(where, { withFileTypes: true })) if (scoped.isSymbolicLink()) targets.push(...realFolder(path.join(where, scoped.name)));
    }
  }
  return targets;
}

/**
 * The real folder of a link to a package (a folder with a package.json): a link in node_modules
 * to anything else (`/`, `/proc`) would make that whole tree readable, and is not a module.
 */
function realFolder(link: string): string[] {
  try {
    const real = realpathSync(link);
    return isFolder(real) && existsSync(path.join(real, 'package.json')) ? [real] : [];
  } catch {
    return []; // A dangling link: nothing to read there.
  }
}

/** Entries of a plugin's folder looked through for links at most: past it the plugin is refused. */
const MAX_WALKED_ENTRIES = 200_000;
/** The link-out found in each plugin folder walked (undefined: none), so a restart does not walk it again. */
const linksOut = new Map<string, string | undefined>();

/**
 * The first symbolic link under `root` that leads out of `readable`, said as `link → target`.
 * Node's permission model follows links (its documentation says so), so a link a plugin ships
 * (`./etc-link → /etc`) would read what the flags deny. A plugin's processes cannot write, so
 * what a folder holds is walked once.
 */
function linkOutOf(root: string, readable: readonly string[]): string | undefined {
  if (linksOut.has(root)) return linksOut.get(root);
  const inside = (file: string): boolean => readable.some((allowed) => file === allowed || file.startsWith(allowed + path.sep));
  const entries = fg.sync('**', { cwd: root, onlyFiles: false, followSymbolicLinks: false, dot: true, objectMode: true });
  let found = entries.length > MAX_WALKED_ENTRIES ? `more than ${MAX_WALKED_ENTRIES} files to look through for links` : undefined;
  for (const entry of entries) {
    if (found !== undefined) break;
    if (!entry.dirent.isSymbolicLink()) continue;
    let target: string;
    try {
      target = realpathSync(path.join(root, entry.path));
    } catch {
      continue; // A dangling link reads nothing.
    }
    if (!inside(target)) found = `${entry.path} → ${target}`;
  }
  linksOut.set(root, found);
  return found;
}

/**
 * The package.json files from `folder` up to the root: the loader reads the nearest one to learn
 * whether a `.js` file is an ES module (`"type": "module"`).
 */
function packageFiles(folder: string): string[] {
  const files: string[] = [];
  for (let at = folder; ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    if (statSync(file, { throwIfNoEntry: false })?.isFile()) files.push(file);
    if (at === path.dirname(at)) return files;
  }
}

/**
 * What a plugin's process may read: its own folder, the modules it resolves from there, the
 * service's module that runs it (this folder) with the SDK it imports, and what the operator grants.
 * Every path is absolute; a folder's whole tree is readable.
 */
export function readablePaths(specifier: string, grants: Grants): string[] {
  const root = pluginRoot(specifier);
  const runtime = path.dirname(childEntry);
  const paths = [...new Set([root, ...moduleFolders(root), ...packageFiles(root), runtime, ...moduleFolders(runtime), ...packageFiles(runtime)])];
  // Links must stay within what the plugin reads of itself and its modules: the operator's grants are for the plugin's code to read, not for links it ships.
  const out = linkOutOf(root, paths);
  if (out !== undefined) throw new Error(`its folder holds a link out of what its processes may read (${out}): Node's permission model follows links`);
  return [...new Set([...paths, ...(grants.read ?? [])])];
}

/** The Node flags of a plugin's process: the permission model with what it may do, and the heap cap. */
export function nodeFlags(readable: readonly string[], grants: Grants, heapMb: number): string[] {
  const args = [PERMISSION_FLAG];
  // Node 20's model is experimental and says so on every start: that line is noise in the service's stderr.
  if (PERMISSION_FLAG === '--experimental-permission') args.push('--disable-warning=ExperimentalWarning');
  for (const file of readable) args.push(`--allow-fs-read=${file}`);
  for (const file of grants.write ?? []) args.push(`--allow-fs-write=${file}`);
  if (grants.worker === true) args.push('--allow-worker');
  if (grants.childProcess === true) args.push('--allow-child-process');
  // Node warns on every start that these two may undo the model: the operator granted them knowingly (docs/configuration.md).
  if (grants.worker === true || grants.childProcess === true) args.push('--disable-warning=SecurityWarning');
  if (grants.net === true && RESTRICTS_NETWORK) args.push('--allow-net');
  args.push(`--max-old-space-size=${heapMb}`);
  return args;
}

/** What a launch is made of besides the plugin. */
export interface LaunchOptions {
  readonly grants: Grants;
  readonly heapMb: number;
  readonly env: Readonly<Record<string, string>>;
  readonly user: UserSetting;
}

/** The launch of a process that probes (`probe`) or serves (`serve`) the plugin at `specifier`, and why it keeps the service's user if `auto` had to. */
export function launchOf(mode: 'probe' | 'serve', specifier: string, options: LaunchOptions): Launch & { readonly kept?: string } {
  const readable = readablePaths(specifier, options.grants);
  // Node itself too: installed in a private folder (a home's nvm, a mkdtemp), no other user can start it.
  const { user, kept } = chooseUser(options.user, [process.execPath, ...readable], pluginRoot(specifier));
  const args = [...nodeFlags(readable, options.grants, options.heapMb), childEntry, mode, specifier];
  return { command: process.execPath, args, env: options.env, cwd: pluginRoot(specifier), ...(user === undefined ? {} : { user }), ...(kept === undefined ? {} : { kept }) };
}
