// npm run bench [-- --quick | --only a,b | --rounds 5 | ...] (flags in options.ts): Toolshed
// against raw node:http, Fastify and bare Koa, the scenarios of issue 14 (and issue 21's (f)) in one run on loopback,
// each printed as one table with ratios, then which targets are met. Results also go to
// dist/bench-results.json. A measurement, not a test: it asserts nothing and is bounded in time.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { digestApiKey, generateApiKey } from '../../kernel/api-keys.js';
import { largeCases, runLargeScenario, runSmallScenario, smallCases } from './load-scenarios.js';
import { mcpCases, runMcpScenario } from './mcp-scenario.js';
import { runMemoryScenario } from './memory.js';
import { SCENARIOS, parseOptions, type Scenario } from './options.js';
import { placeProcesses, startServer, type ServerKind, type ServerProcess } from './processes.js';
import { renderTargets, targetMet, type Target } from './report.js';
import { runStartupScenario } from './startup.js';
import { runContainmentScenario } from './containment.js';
import { runRecipeScenario } from './recipe-scenario.js';

const options = parseOptions(process.argv.slice(2), process.env);
const began = performance.now();
const placement = placeProcesses(options.pin);
// A fresh key per run; the servers get only its digest, as the configuration stores keys.
const apiKey = generateApiKey();
const serverEnv = { BENCH_KEY_SHA256: digestApiKey(apiKey) };
const keyed = { authorization: `Bearer ${apiKey}` };
const want = (scenario: Scenario): boolean => options.scenarios.has(scenario);
const title = (scenario: Scenario): string => `(${scenario}) ${SCENARIOS[scenario]}`;

console.log(`npm run bench${options.quick ? ' --quick (a smoke run: its numbers mean little)' : ''}: Node ${process.version}, ${cpus().length} CPUs, ${placement.note}`);
console.log(`rounds ${options.rounds} × ${options.seconds} s (large bodies ${options.largeSeconds} s), ${options.connections} connections for small bodies, medians over rounds`);
console.log('×Ref req/s = req/s over the reference server\'s; ×Ref CPU = the reference\'s CPU µs per request over this server\'s. Above 1 is better for both.\n');

const results: Record<string, unknown> = {};
const targets: Target[] = [];
let lastReport = performance.now();
function report(scenario: Scenario, outcome: { table: string; targets: Target[] }): void {
  const { table, ...data } = outcome;
  const seconds = (performance.now() - lastReport) / 1000;
  lastReport = performance.now();
  console.log(`${title(scenario)} (${Math.round(seconds)} s)\n${table}\n`);
  targets.push(...outcome.targets);
  results[scenario] = { ...data, seconds };
}

const loadScenarios = (['a', 'b', 'c'] as const).filter(want);
const plan = { rounds: options.rounds, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
const running: ServerProcess[] = [];
try {
  if (loadScenarios.length > 0 || want('m')) {
    const kinds: ServerKind[] = want('a') || want('b') ? ['raw', 'fastify', 'koa', 'toolshed'] : loadScenarios.length > 0 ? ['raw', 'fastify', 'toolshed'] : ['toolshed'];
    for (const kind of kinds) running.push(await startServer(kind, placement, serverEnv));
  }
  if (want('a')) report('a', await runSmallScenario(title('a'), running, smallCases(keyed, options.connections), plan));
  // The servers are warm after (a); (b) warms them again only when it runs alone.
  if (want('b')) report('b', await runSmallScenario(title('b'), running, smallCases({}, options.connections), want('a') ? { ...plan, warmupSeconds: 0 } : plan));
  if (want('c')) {
    const large = running.filter((server) => server.kind !== 'koa');
    report('c', await runLargeScenario(title('c'), large, largeCases(keyed), { ...plan, seconds: options.largeSeconds }));
  }
  const toolshed = running.find((server) => server.kind === 'toolshed');
  if (want('m') && toolshed) report('m', await runMcpScenario(title('m'), toolshed, mcpCases(keyed, options.connections), plan));
} finally {
  await Promise.all(running.map((server) => server.stop()));
}
if (want('d')) report('d', await runStartupScenario(title('d'), placement, serverEnv, options.starts, options.nth));
if (want('e')) report('e', await runMemoryScenario(title('e'), placement, serverEnv, smallCases(keyed, options.connections), options.loadSeconds, options.settleSeconds));
if (want('f')) report('f', await runContainmentScenario(title('f'), placement, serverEnv, keyed, options.connections, plan));
if (want('r')) report('r', await runRecipeScenario(title('r'), placement, serverEnv, keyed, plan));

const seconds = (performance.now() - began) / 1000;
console.log(`targets (${targets.filter(targetMet).length} of ${targets.length} met):\n${renderTargets(targets)}\n`);
const output = fileURLToPath(new URL('../../bench-results.json', import.meta.url));
writeFileSync(
  output,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      placement: placement.note,
      options: { ...options, scenarios: [...options.scenarios] },
      seconds: Math.round(seconds),
      scenarios: results,
      targets: targets.map((target) => ({ ...target, met: targetMet(target) })),
    },
    // Two decimals are all these measurements are worth; NaN (not measured) becomes null.
    (_key, value: unknown) => (typeof value !== 'number' ? value : Number.isFinite(value) ? Math.round(value * 100) / 100 : null),
    2,
  )}\n`,
);
console.log(`${Math.round(seconds)} s in all; results in ${output}`);
