// What a door runs on the pool is imported by each worker that runs it, so it must not reach the
// host's entry (kernel/host/index.ts): that loads the whole host in the worker, 47–51 ms and about
// 3 MB of heap more, once per worker (docs/decisions.md, "Layers"). The check reads the built
// JavaScript, whose imports are the ones that load (a type-only import is gone from it), and
// follows every static import; `import()` loads later, if ever, and is not followed.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { cruise } from 'dependency-cruiser';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Every module a static import reaches from `entry` (a path under the root), the entry included, as paths under the root. */
async function loadedBy(entry: string): Promise<string[]> {
  const result = await cruise([entry], { baseDir: root, doNotFollow: { path: 'node_modules' }, exclude: { dynamic: true }, outputType: 'json', tsPreCompilationDeps: false });
  const { modules } = JSON.parse(String(result.output)) as { modules: { source: string }[] };
  return modules.map((module) => module.source);
}

describe("a door's pool jobs", () => {
  for (const job of ['dist/recipes/pool-checks.js', 'dist/mcp/message.js', 'dist/mcp/results.js']) {
    it(`${job} loads the host's body entry at most, never its main entry`, async () => {
      const loaded = await loadedBy(job);
      assert.ok(loaded.includes(job), `${job} was not read: ${loaded.join(', ')}`);
      assert.deepEqual(loaded.filter((source) => /^dist\/kernel\/host\/index\.js$|^dist\/kernel\/host\/(executor|registry|host)\.js$/.test(source)), []);
    });
  }
});
