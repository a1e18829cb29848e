// A node:test reporter that writes how long each test file took, from its process starting to its
// end (the duration the runner gives its test for the whole file), one JSON line per file as each
// file ends, and one line per failed test with its error, to the file TEST_DURATIONS_FILE names;
// scripts/run-tests.mjs closes the run with the slowest files and the failures. Written at once
// and synchronously: the runner ends its process with its last file (--test-force-exit), so a
// summary this reporter kept for the end of its input was never printed.
import { appendFileSync } from 'node:fs';
import path from 'node:path';

// eslint-disable-next-line require-yield -- node:test takes an async generator; this one writes its lines to a file instead of its output.
export default async function* fileDurations(source) {
  const into = process.env.TEST_DURATIONS_FILE;
  for await (const event of source) {
    const { file, name, nesting, details } = event.data ?? {};
    // The runner's own test for a whole file is named by its path (absolute on Node 20, relative on
    // later versions); test:complete comes as each file ends, whatever order the output is in.
    if (into === undefined || file === undefined) continue;
    const shown = path.relative(process.cwd(), file);
    // A failed test's own error, first lines only: the runner prints them again at the end, where
    // a log cut to its tail (CI's) still shows them. Its suites' "subtests failed" add nothing.
    if (event.type === 'test:fail' && details.error?.failureType !== 'subtestsFailed') {
      const error = details.error?.cause ?? details.error;
      const message = String(error?.message ?? error).split('\n').filter((line) => line.trim() !== '').slice(0, 8).join('\n').slice(0, 2000);
      appendFileSync(into, `${JSON.stringify({ failed: name, file: shown, message })}\n`);
    }
    if (event.type !== 'test:complete' || nesting !== 0 || path.resolve(name) !== file) continue;
    appendFileSync(into, `${JSON.stringify({ file: shown, seconds: details.duration_ms / 1000, passed: details.passed })}\n`);
  }
}
