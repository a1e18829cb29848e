/**
 * The user ids `plugins.user: auto` runs contained plugins as where the service runs as root: one
 * for each plugin. Linux lets a process signal or renice only processes of its own user, so a
 * plugin's processes can reach neither the service nor another plugin's processes, nor any other
 * program on the machine (a shared `nobody` could kill every process of `nobody`, another plugin's
 * included). The ids come from 61184-65519, the range systemd reserves for users made at run time
 * without an /etc/passwd entry, and stay below 65536, which a container whose user namespace maps
 * only 0-65535 can still switch to. The group id is the same number, a group no file belongs to.
 *
 * A plugin's id follows from its folder (a hash), so it is the same at every start and an operator
 * can give a folder of `plugins.grants.<group>.write` to it; a plugin whose hash meets another
 * plugin's takes the next free id. The ids are the machine's, not one host's: two hosts in one
 * process (as in the tests) share the table, so no two plugin folders ever get the same id here.
 */

/** A user and group id to run as. */
export interface ProcessUser {
  readonly uid: number;
  readonly gid: number;
}

/** The first id of the range, and how many it holds (61184-65519). */
export const FIRST_PLUGIN_UID = 61184;
export const PLUGIN_UIDS = 65519 - FIRST_PLUGIN_UID + 1;

/** Plugin folder → its user, and the ids given. */
const users = new Map<string, ProcessUser>();
const taken = new Set<number>();

/** FNV-1a, 32 bits, of the folder's UTF-16 code units: a spread, not a secret. */
export function folderHash(folder: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < folder.length; index++) hash = Math.imul(hash ^ folder.charCodeAt(index), 0x01000193) >>> 0;
  return hash;
}

/** The user of the plugin whose folder is `folder`: the same for every process of it, another for every other plugin. */
export function pluginUser(folder: string): ProcessUser {
  const known = users.get(folder);
  if (known !== undefined) return known;
  if (users.size >= PLUGIN_UIDS) throw new Error(`more than ${PLUGIN_UIDS} plugin folders: no user id of their own is left for ${folder}`);
  let uid = FIRST_PLUGIN_UID + (folderHash(folder) % PLUGIN_UIDS);
  while (taken.has(uid)) uid = uid === FIRST_PLUGIN_UID + PLUGIN_UIDS - 1 ? FIRST_PLUGIN_UID : uid + 1;
  const user = { uid, gid: uid };
  users.set(folder, user);
  taken.add(uid);
  return user;
}
