#!/usr/bin/env node
// The `toolshed` command (package.json "bin"). The program is built from kernel/cli; run
// `npm run build` once after installing from source.
import '../dist/kernel/cli/main.js';
