#!/usr/bin/env node
// The `toolshed` command (package.json "bin"; `npx toolshed` in the repository). The program is
// cli/, built into dist/ by `npm run build`.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(main)) await import(main.href);
else {
  process.stderr.write(`toolshed is not built yet: run "npm run build" in ${new URL('..', import.meta.url).pathname}\n`);
  process.exitCode = 1;
}
