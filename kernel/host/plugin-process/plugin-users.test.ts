import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FIRST_PLUGIN_UID, folderHash, PLUGIN_UIDS, pluginUser } from './plugin-users.js';

describe('pluginUser: a user id of its own for each plugin folder', () => {
  it('hashes the folder with FNV-1a (32 bits), whose published values it matches', () => {
    // The offset basis for the empty string; "a" from the FNV reference's test suite.
    assert.equal(folderHash(''), 0x811c9dc5);
    assert.equal(folderHash('a'), 0xe40c292c);
    assert.equal(folderHash('foobar'), 0xbf9cf968);
  });

  it('gives a folder the id its hash points to in 61184-65519, with the same group id, the same at every call', () => {
    const folder = '/srv/plugins/alpha';
    const user = pluginUser(folder);
    assert.deepEqual(user, { uid: FIRST_PLUGIN_UID + (folderHash(folder) % PLUGIN_UIDS), gid: FIRST_PLUGIN_UID + (folderHash(folder) % PLUGIN_UIDS) });
    assert.ok(user.uid >= 61184 && user.uid <= 65519);
    assert.equal(pluginUser(folder), user);
  });

  it('gives a folder whose hash meets another folder\'s the next free id, so no two folders share one', () => {
    // Two folders whose hashes fall on the same id (found by trying names; about a hundred tries).
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let index = 0; pair === undefined; index++) {
      const folder = `/srv/collide/${index}`;
      const slot = folderHash(folder) % PLUGIN_UIDS;
      const earlier = seen.get(slot);
      if (earlier === undefined) seen.set(slot, folder);
      else pair = [earlier, folder];
    }
    const first = pluginUser(pair[0]);
    const second = pluginUser(pair[1]);
    assert.equal(first.uid, FIRST_PLUGIN_UID + (folderHash(pair[0]) % PLUGIN_UIDS));
    assert.notEqual(second.uid, first.uid);
    assert.equal(second.uid, first.uid === 65519 ? FIRST_PLUGIN_UID : first.uid + 1);
  });
});
