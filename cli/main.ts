/** The `toolshed` executable (bin/toolshed.js loads this file): `toolshed --help` lists the commands. */
import { processIo, runCli } from './run.js';

// Every command has written all it says by the time it resolves. Exit at once then: a plugin's idle
// keep-alive socket or timer must not hold a finished command open. (`serve` never resolves.)
process.exit(await runCli(process.argv.slice(2), processIo));
