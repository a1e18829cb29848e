/** `npm run keygen [name]`: `toolshed keys new` under its older name; the name defaults to "client". */
import { runCli, processIo } from './run.js';

const args = process.argv.slice(2);
process.exitCode = await runCli(['keys', 'new', ...(args.length > 0 ? args : ['client'])], processIo);
