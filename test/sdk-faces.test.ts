// The SDK's three faces (plugin-sdk/package.json "exports"): `.` for a plugin's code, `/testing` for
// its tests, `/contract` for the host. Each exports exactly what something outside the SDK imports
// from it: the names are read from each face's entry module, their users from every import of that
// face in the repository's code, its tests, the plugin guide and the scaffold's templates.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import fg from 'fast-glob';
import { repoRoot } from './support/packages.js';

const faces = { '': 'index.ts', '/testing': 'testing.ts', '/contract': 'contract.ts' } as const;
type Face = keyof typeof faces;

/** The names `source` re-exports (`export { a, type B } from`, `export type { C } from`), as others import them. */
function exportedNames(source: string): string[] {
  return [...source.matchAll(/^export (?:type )?\{([^}]*)\} from/gm)]
    .flatMap(([, names]) => names!.split(','))
    .map((name) => name.trim().replace(/^type /, '').split(/\s+as\s+/).at(-1)!)
    .filter((name) => name !== '')
    .sort();
}

/** Every name imported from each face, in the files outside the SDK that import it. */
async function importedNames(): Promise<Map<Face, Set<string>>> {
  const files = await fg(['{kernel,service,cli,mcp,recipes,tool-pages,plugins,examples,test}/**/*.{ts,js}', 'docs/writing-a-plugin.md'], {
    cwd: repoRoot,
    ignore: ['**/node_modules/**', '**/dist/**'],
  });
  const used = new Map<Face, Set<string>>(Object.keys(faces).map((face) => [face as Face, new Set<string>()]));
  for (const file of files) {
    const text = await readFile(path.join(repoRoot, file), 'utf8');
    for (const [, names, face = ''] of text.matchAll(/import (?:type )?\{([^}]*)\} from '@toolshed\/plugin-sdk(\/[a-z]+)?'/g)) {
      for (const name of names!.split(',')) used.get(face as Face)?.add(name.trim().replace(/^type /, '').split(/\s+as\s+/)[0]!);
    }
  }
  return used;
}

describe('the SDK\'s faces', async () => {
  const exported = new Map<Face, string[]>();
  for (const [face, file] of Object.entries(faces)) exported.set(face as Face, exportedNames(await readFile(path.join(repoRoot, 'plugin-sdk', 'src', file), 'utf8')));
  const used = await importedNames();

  it('are the package\'s entries, each with its types', async () => {
    const manifest = JSON.parse(await readFile(path.join(repoRoot, 'plugin-sdk', 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    assert.deepEqual(
      manifest.exports,
      Object.fromEntries(Object.entries(faces).map(([face, file]) => [`.${face}`, { types: `./dist/${file.replace(/\.ts$/, '.d.ts')}`, default: `./dist/${file.replace(/\.ts$/, '.js')}` }])),
    );
  });

  it('export nothing that nothing outside the SDK imports from them', () => {
    for (const face of Object.keys(faces) as Face[]) {
      assert.ok(exported.get(face)!.length >= 8, `the exports of @toolshed/plugin-sdk${face} were read`);
      assert.deepEqual(exported.get(face)!.filter((name) => !used.get(face)!.has(name)), [], `unused exports of @toolshed/plugin-sdk${face}`);
    }
  });

  it('keep the host\'s machinery and the test helpers out of what a plugin\'s code imports', () => {
    const plugin = new Set(exported.get('')!);
    for (const face of ['/testing', '/contract'] as const) assert.deepEqual(exported.get(face)!.filter((name) => plugin.has(name)), [], face);
    // What a handler throws and the contract the host composes are the plugin's and the host's.
    assert.ok(plugin.has('UnprocessableError') && plugin.has('workerRefusal') && !plugin.has('invoke') && !plugin.has('operationContract'));
  });
});
