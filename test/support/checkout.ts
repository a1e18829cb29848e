/**
 * A copy of this checkout's source tree without dist/, for tests of what an operator runs in a
 * fresh clone (`npm start`, `npm run keygen`, `npx toolshed`): they build into the copy, so they
 * never rewrite this checkout's build while other tests read it. node_modules is linked, not
 * installed; the SDK is the copy's own, so it too starts without a build.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('../../../', import.meta.url));

/** Makes the copy in a new temporary folder and returns its path; the caller removes it. */
export async function copyCheckout(prefix: string): Promise<string> {
  const checkout = await mkdtemp(path.join(tmpdir(), prefix));
  // The service's folders as tsconfig.json lists them (its tests left out), as scripts/emit.mjs reads them.
  const project = JSON.parse(await readFile(path.join(repository, 'tsconfig.json'), 'utf8')) as { include: string[] };
  const folders = project.include.filter((folder) => folder !== 'test');
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'bin', 'scripts', 'tool-pages', 'config', 'plugin-sdk/package.json', 'plugin-sdk/src', ...folders]) {
    await cp(path.join(repository, entry), path.join(checkout, entry), { recursive: true });
  }
  // Every installed package, linked; the SDK is the copy's own, so it too starts without dist/.
  await mkdir(path.join(checkout, 'node_modules', '@toolshed'), { recursive: true });
  for (const name of await readdir(path.join(repository, 'node_modules'))) {
    if (name !== '@toolshed') await symlink(path.join(repository, 'node_modules', name), path.join(checkout, 'node_modules', name));
  }
  await symlink('../../plugin-sdk', path.join(checkout, 'node_modules', '@toolshed', 'plugin-sdk'));
  await symlink(path.join(repository, 'plugin-sdk', 'node_modules'), path.join(checkout, 'plugin-sdk', 'node_modules'));
  return checkout;
}
