#!/usr/bin/env node
// The `toolshed` command (package.json "bin"; `npx toolshed` in the repository). The program is
// cli/, built into dist/ by `npm run build` or emitted by `npm start`; in a checkout without either,
// it is emitted first (scripts/emit-if-missing.mjs).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
const emitter = new URL('../scripts/emit-if-missing.mjs', import.meta.url);
const ready = existsSync(main) || (existsSync(emitter) && (await (await import(emitter.href)).emitIfMissing()));
if (ready) await import(main.href);
else {
  process.stderr.write(`toolshed is not built yet: run "npm run build" in ${new URL('..', import.meta.url).pathname}\n`);
  process.exitCode = 1;
}
