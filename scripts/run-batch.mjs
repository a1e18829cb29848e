// One batch of scripts/run-tests.mjs: `node scripts/run-batch.mjs <concurrency> <file>...` runs the
// files as `node --test --test-force-exit` would, each in a process of its own, `concurrency` at
// once, with the spec reporter and the durations reporter on stdout, and exits 1 when a test
// failed. It exists for the order: `node --test` sorts the files it is given by name, so the
// runner's longest files, listed first, started when the alphabet reached them; node:test's run()
// starts them in the order given.
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fileDurations from './file-durations-reporter.mjs';

const [concurrency, ...files] = process.argv.slice(2);
// forceExit: a file's process ends when its tests have, as with --test-force-exit (the runner's
// comment on runBatch says why).
const stream = run({ files: files.map((file) => path.resolve(file)), concurrency: Number(concurrency), forceExit: true });
// What `node --test` does with the outcome.
stream.once('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
stream.compose(fileDurations).pipe(process.stdout);
