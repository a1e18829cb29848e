// Emits dist/ (scripts/emit.mjs, esbuild, about a second) when the compiled command line is missing,
// as in a fresh checkout: `npx toolshed` and `npm run keygen` then work before any build. Imported
// by bin/toolshed.js; run on its own by `npm run keygen`. An existing dist/ is used as it is.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../', import.meta.url);
const cliMain = new URL('dist/cli/main.js', root);

/** True when dist/ holds the command line, emitting it first when it does not and esbuild is installed. */
export async function emitIfMissing() {
  if (existsSync(cliMain)) return true;
  try {
    await import('esbuild');
  } catch {
    // An install without devDependencies cannot emit; the caller says how to build.
    return false;
  }
  process.stderr.write(`toolshed: no build in ${fileURLToPath(new URL('dist/', root))} yet; emitting it with esbuild ("npm run build" also type-checks)\n`);
  await import('./emit.mjs');
  return existsSync(cliMain);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!(await emitIfMissing())) {
    process.stderr.write(`toolshed is not built and esbuild is not installed: run "npm ci" and "npm run build" in ${fileURLToPath(root)}\n`);
    process.exitCode = 1;
  }
}
