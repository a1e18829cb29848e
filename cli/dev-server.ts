/**
 * The service `toolshed plugin dev` runs in a child process, started again after every change:
 * `node --enable-source-maps dev-server.js <folder>` serves the configured plugins and that folder.
 * A fresh process is the one way to load changed modules: ESM caches every module it imported.
 */
import { serve } from '../service/serve.js';

await serve(process.env, process.stderr, [process.argv[2]!]);
