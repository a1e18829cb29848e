// A node:test reporter that closes the run with the slowest test files and how long each took, from
// its process starting to its end (the duration the runner gives its test for the whole file). With
// files running side by side the figures overlap: they tell where the minutes go, not how they add up.
import path from 'node:path';

export default async function* fileDurations(source) {
  const rows = [];
  for await (const event of source) {
    const { file, name, nesting, details } = event.data ?? {};
    // The runner's own test for a whole file is named by its path (absolute on Node 20, relative on
    // later versions); test:complete comes as each file ends, whatever order the output is in.
    if (event.type !== 'test:complete' || file === undefined || nesting !== 0 || path.resolve(name) !== file) continue;
    rows.push({ file: path.relative(process.cwd(), file), seconds: details.duration_ms / 1000, passed: details.passed });
  }
  rows.sort((a, b) => b.seconds - a.seconds);
  const shown = Number(process.env.TEST_SLOWEST ?? 15);
  yield `\nSlowest test files (seconds each; ${rows.length} files):\n`;
  for (const row of rows.slice(0, shown)) yield `  ${row.seconds.toFixed(1).padStart(7)} s  ${row.passed ? '' : 'FAILED '}${row.file}\n`;
}
