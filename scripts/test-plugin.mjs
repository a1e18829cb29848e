// Builds and tests one plugin folder on its own, so plugins can be developed side by side while
// another folder does not compile yet: `node scripts/test-plugin.mjs <group>`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const group = process.argv[2];
if (!group || !existsSync(`plugins/${group}`)) {
  console.error('usage: node scripts/test-plugin.mjs <group>   (run from the repository root)');
  process.exit(2);
}
const run = (command, args) => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
if (!existsSync('plugin-sdk/dist/index.js')) run('npx', ['tsc', '-b', 'plugin-sdk']);
// Inside the repository (dist/ is ignored by git) so that @types resolve from node_modules.
mkdirSync('dist', { recursive: true });
const config = path.resolve(`dist/tsconfig.${group}.json`);
writeFileSync(config, JSON.stringify({
  extends: path.resolve('tsconfig.base.json'),
  compilerOptions: { rootDir: path.resolve('.'), outDir: path.resolve('dist') },
  include: [path.resolve(`plugins/${group}`)],
}));
run('npx', ['tsc', '-p', config]);
run('npx', ['eslint', `plugins/${group}`]);
run(process.execPath, ['scripts/run-tests.mjs', `plugins/${group}`]);
