/** The `toolshed` executable (bin/toolshed.js loads this file): `toolshed --help` lists the commands. */
import { processIo, runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), processIo);
