/**
 * Folders a test file makes under the system's temporary folder, removed when its process exits,
 * whichever way its tests ended: a run of the test command used to leave about sixty behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

/** A new folder, `prefix` and six random characters, that only its owner may enter (mkdtemp's mode 700). */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(folder);
  return folder;
}
