// The layer rule's step of `npm test`: dependency-cruiser with .dependency-cruiser.mjs over the
// source folders of the tree it runs in (the working directory), so test/layers.test.ts can run the
// very same check over test/fixtures/layers/. Folders not made yet (service/, recipes/) are skipped
// rather than reported. Prints every violation and exits 1 when there is one; with `--json` it
// prints the violations as JSON for the test instead. Reads sources only: no build needed.
import { existsSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const SOURCE_FOLDERS = ['kernel', 'plugin-sdk/src', 'plugins', 'mcp', 'tool-pages', 'cli', 'recipes', 'service', 'examples', 'test'];

const folders = SOURCE_FOLDERS.filter((folder) => existsSync(folder));
const options = await extractDepcruiseOptions(new URL('../.dependency-cruiser.mjs', import.meta.url).pathname);
if (process.argv.includes('--json')) {
  const { summary } = JSON.parse((await cruise(folders, { ...options, outputType: 'json' })).output);
  const violations = summary.violations.map(({ rule, from, to, cycle }) => ({ rule: rule.name, from, to, ...(cycle ? { cycle: cycle.map(({ name }) => name) } : {}) }));
  process.stdout.write(`${JSON.stringify({ folders, cruised: summary.totalCruised, violations })}\n`);
  // Every rule is an error; the JSON reporter leaves the exit code to its reader.
  process.exit(summary.error === 0 ? 0 : 1);
}
const { output, exitCode } = await cruise(folders, { ...options, outputType: 'err-long' });
process.stdout.write(output);
process.exit(exitCode === 0 ? 0 : 1);
