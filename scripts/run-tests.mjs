// Runs the compiled tests. Node 20 neither expands globs nor finds .js tests below a folder on its
// own (it then exits 0 having run nothing), so the files are listed here explicitly. Arguments
// narrow the run to source folders: `node scripts/run-tests.mjs plugins/base64`.
import { spawnSync } from 'node:child_process';
import fg from 'fast-glob';

const roots = process.argv.slice(2);
const patterns = roots.length > 0
  ? roots.map((root) => (root.startsWith('plugin-sdk') ? `${root.replace(/^plugin-sdk\/?(src\/?)?/, 'plugin-sdk/dist/')}/**/*.test.js` : `dist/${root}/**/*.test.js`))
  : ['dist/**/*.test.js', 'plugin-sdk/dist/**/*.test.js'];
const files = (await fg(patterns.map((pattern) => pattern.replace(/\/+/g, '/')), { ignore: ['**/node_modules/**'] })).sort();
if (files.length === 0) {
  console.error(`No compiled test files match ${patterns.join(', ')}; run the build first.`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
