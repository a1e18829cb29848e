// The test files' temporary folders (test/support/temp-folder.ts) are gone once their process has
// ended, whichever way it ended: a run of the test command used to leave about sixty in /tmp.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';

const helper = new URL('./support/temp-folder.js', import.meta.url).href;

/** Runs a process that makes a folder with a file in it and then ends by `ending`; the folder's path. */
function folderOf(ending: string): string {
  const script = `import { writeFileSync } from 'node:fs';
import { tempFolder } from ${JSON.stringify(helper)};
const folder = tempFolder('toolshed-temp-folder-');
writeFileSync(folder + '/kept.txt', 'x');
console.log(folder);
${ending}`;
  const { stdout, status } = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const folder = stdout.trim();
  assert.ok(folder.includes('toolshed-temp-folder-'), `the process printed its folder (exit ${String(status)}): ${stdout}`);
  return folder;
}

describe('a test file\'s temporary folder', () => {
  it('is removed, with what it holds, when its process ends on its own', () => {
    assert.equal(existsSync(folderOf('')), false);
  });

  it('is removed when its process exits with a failure, as a forced exit after failed tests does', () => {
    assert.equal(existsSync(folderOf('process.exit(1);')), false);
  });
});
