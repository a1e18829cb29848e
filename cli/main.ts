/** The `toolshed` executable (bin/toolshed.js loads this file): `toolshed --help` lists the commands. */
import { isClosedPipe } from './command.js';
import { processIo, runCli } from './run.js';

// A reader that stopped reading (`toolshed openapi | head -1`) makes the stream emit EPIPE, which
// without a listener ends the process with a stack trace. It is no failure of the command: the
// rest of the output is dropped and the command ends with its own exit code. Any other error
// still ends it as before.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: unknown) => {
    if (!isClosedPipe(error)) throw error;
  });
}

// Every command has written all it says by the time it resolves. Exit at once then: a plugin's idle
// keep-alive socket or timer must not hold a finished command open. (`serve` never resolves.)
process.exit(await runCli(process.argv.slice(2), processIo));
