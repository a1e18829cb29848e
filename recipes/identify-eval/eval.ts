/**
 * `npm run identify:eval`: identify over its evaluation set (set.json, inputs this project did not
 * write, kept apart from the recognizers' own tests), with the real plugins in process. Prints the
 * first-candidate rate per kind and overall, the unwrapped layered inputs, and the negatives given a
 * candidate above 0.5; `--write` puts the same table into docs/recipes.md, `--misses` lists misses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fakeExecutor } from '../fake-executor.js';
import { identify } from '../identify.js';

interface Entry {
  readonly kind: string;
  readonly input: string;
  readonly source: string;
  /** For a layered input: the operations of the recipe identify should answer. */
  readonly steps?: readonly string[];
}

/** Kinds that should get no candidate above 0.5 (prose is also a kind of its own, at most 0.4). */
const NEGATIVE = new Set(['prose', 'code', 'random']);
const NOT_A_KIND = new Set(['code', 'random']);
const root = new URL('../../../', import.meta.url);
const setFile = new URL('recipes/identify-eval/set.json', root);
const docsFile = new URL('docs/recipes.md', root);
const START = '<!-- identify-eval:start -->';
const END = '<!-- identify-eval:end -->';

/** The command's output (it is a command, not service code: nothing here is request data). */
const print = (text: string): void => void process.stdout.write(`${text}\n`);
const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

async function main(): Promise<void> {
  const { inputs } = JSON.parse(readFileSync(setFile, 'utf8')) as { inputs: Entry[] };
  const executor = await fakeExecutor();
  const byKind = new Map<string, { total: number; first: number }>();
  const misses: string[] = [];
  let layered = 0;
  let unwrapped = 0;
  let negatives = 0;
  let confident = 0;
  for (const entry of inputs) {
    const { candidates } = await identify(executor, { input: entry.input });
    const [best] = candidates;
    if (NEGATIVE.has(entry.kind)) {
      negatives += 1;
      const sure = candidates.find((candidate) => candidate.confidence > 0.5);
      if (sure !== undefined) {
        confident += 1;
        misses.push(`negative ${entry.kind}: ${sure.kind} ${sure.confidence} ← ${JSON.stringify(entry.input.slice(0, 70))} (${entry.source})`);
      }
    }
    if (NOT_A_KIND.has(entry.kind)) continue;
    const row = byKind.get(entry.kind) ?? { total: 0, first: 0 };
    byKind.set(entry.kind, row);
    row.total += 1;
    if (best?.kind === entry.kind) row.first += 1;
    else misses.push(`${entry.kind}: got ${best === undefined ? 'nothing' : `${best.kind} ${best.confidence}`} ← ${JSON.stringify(entry.input.slice(0, 70))} (${entry.source})`);
    if (entry.steps !== undefined) {
      layered += 1;
      const operations = best?.recipe.steps.map((step) => step.operation) ?? [];
      if (JSON.stringify(operations) === JSON.stringify(entry.steps)) unwrapped += 1;
      else misses.push(`layers ${entry.steps.join(' → ')}: got ${operations.join(' → ') || 'nothing'}`);
    }
  }
  const rows = [...byKind.entries()].sort(([a], [b]) => a.localeCompare(b));
  const total = rows.reduce((sum, [, row]) => sum + row.total, 0);
  const first = rows.reduce((sum, [, row]) => sum + row.first, 0);
  const table = [
    `${inputs.length} inputs (\`recipes/identify-eval/set.json\`, each with its source), figures from \`npm run identify:eval\`:`,
    '',
    '| Kind | Inputs | Named first | Rate |',
    '|---|---:|---:|---:|',
    ...rows.map(([kind, row]) => `| ${kind} | ${row.total} | ${row.first} | ${percent(row.first, row.total)} |`),
    `| **all kinds** | **${total}** | **${first}** | **${percent(first, total)}** |`,
    '',
    `Layered inputs answered with the whole recipe: ${unwrapped} of ${layered}. Negatives (prose, code, random bytes) ` +
      `given a candidate above 0.5: ${confident} of ${negatives} (${percent(confident, negatives)}).`,
  ].join('\n');
  print(table);
  if (process.argv.includes('--misses')) print(`\nMisses:\n${misses.join('\n')}`);
  if (process.argv.includes('--write')) {
    const docs = readFileSync(docsFile, 'utf8');
    const start = docs.indexOf(START);
    const end = docs.indexOf(END);
    if (start < 0 || end < start) throw new Error(`docs/recipes.md has no ${START} … ${END} block`);
    writeFileSync(docsFile, `${docs.slice(0, start + START.length)}\n${table}\n${docs.slice(end)}`);
    print('\nWrote the table into docs/recipes.md');
  }
}

await main();
