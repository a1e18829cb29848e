// npm run bench [-- --quick | --only a,b | --rounds 5 | ...] (flags in options.ts): Toolshed
// against raw node:http, Fastify and bare Koa on loopback, every server started with npm start's
// launch line (launch.ts). Each scenario prints one table; then every kept target of issue 38 with
// its figure, met or MISSED. Results also go to dist/bench-results.json. A measurement, not a test:
// it asserts nothing and is bounded in time.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { digestApiKey, generateApiKey } from '../../kernel/http/api-keys.js';
import { runContainmentScenario } from './containment.js';
import { describeLaunch } from './launch.js';
import { largeCases, runLargeScenario, runSmallScenario, smallCases } from './load-scenarios.js';
import { mcpCases, runMcpScenario } from './mcp-scenario.js';
import { runMemoryScenario } from './memory.js';
import { SCENARIOS, parseOptions, type BenchOptions, type Scenario } from './options.js';
import { placeProcesses, startServer, type Placement, type ServerKind, type ServerProcess } from './processes.js';
import { renderTargets, targetMet, type ScenarioOutcome, type Target } from './report.js';
import { runRecipeScenario } from './recipe-scenario.js';
import { runStartupScenario } from './startup.js';
import type { RoundPlan } from './throughput.js';

/** What every scenario may use. */
export interface BenchContext {
  readonly options: BenchOptions;
  readonly placement: Placement;
  /** Given to every server it starts: the API key's digest (BENCH_KEY_SHA256). */
  readonly serverEnv: Record<string, string>;
  /** The Authorization header of keyed requests. */
  readonly keyed: Record<string, string>;
  readonly plan: RoundPlan;
  /** Scenarios already run, in order. */
  readonly ran: ReadonlySet<Scenario>;
}

/**
 * One scenario of the run. `servers`: the kinds it measures from the shared set, started once
 * before the first scenario that lists any and stopped after the last (so they are warm for the
 * later ones); a scenario without `servers` starts and stops its own.
 */
export interface BenchScenario {
  readonly letter: Scenario;
  readonly servers?: readonly ServerKind[];
  run(context: BenchContext, servers: readonly ServerProcess[]): Promise<ScenarioOutcome>;
}

const title = (scenario: Scenario): string => `(${scenario}) ${SCENARIOS[scenario]}`;

/** Every scenario, in the order they run. A new one is one entry here (its letter in options.ts). */
const scenarios: readonly BenchScenario[] = [
  { letter: 'a', servers: ['raw', 'fastify', 'koa', 'toolshed'], run: (c, servers) => runSmallScenario(title('a'), servers, smallCases(c.keyed, c.options.connections), c.plan, true) },
  // The servers are warm after (a); (b) warms them again only when it runs without (a).
  {
    letter: 'b',
    servers: ['raw', 'fastify', 'koa', 'toolshed'],
    run: (c, servers) => runSmallScenario(title('b'), servers, smallCases({}, c.options.connections), c.ran.has('a') ? { ...c.plan, warmupSeconds: 0 } : c.plan, false),
  },
  { letter: 'c', servers: ['raw', 'fastify', 'toolshed'], run: (c, servers) => runLargeScenario(title('c'), servers, largeCases(c.keyed), { ...c.plan, seconds: c.options.largeSeconds }) },
  { letter: 'm', servers: ['toolshed'], run: (c, [toolshed]) => runMcpScenario(title('m'), toolshed!, mcpCases(c.keyed, c.options.connections), c.plan) },
  { letter: 'd', run: (c) => runStartupScenario(title('d'), c.placement, c.serverEnv, c.options.starts) },
  { letter: 'e', run: (c) => runMemoryScenario(title('e'), c.placement, c.serverEnv) },
  { letter: 'f', run: (c) => runContainmentScenario(title('f'), c.placement, c.serverEnv, c.keyed, c.options.connections, c.plan) },
  { letter: 'r', run: (c) => runRecipeScenario(title('r'), c.placement, c.serverEnv, c.keyed, c.plan) },
];

const options = parseOptions(process.argv.slice(2), process.env);
const began = performance.now();
const placement = placeProcesses(options.pin);
// A fresh key per run; the servers get only its digest, as the configuration stores keys.
const apiKey = generateApiKey();
const ran = new Set<Scenario>();
const context: BenchContext = {
  options,
  placement,
  serverEnv: { BENCH_KEY_SHA256: digestApiKey(apiKey) },
  keyed: { authorization: `Bearer ${apiKey}` },
  plan: { rounds: options.rounds, seconds: options.seconds, warmupSeconds: options.warmupSeconds },
  ran,
};

console.log(`npm run bench${options.quick ? ' --quick (a smoke run: its numbers mean little)' : ''}: Node ${process.version}, ${cpus().length} CPUs, ${placement.note}`);
console.log(`every server started with npm start's launch line: ${describeLaunch(process.env)}`);
console.log(`rounds ${options.rounds} × ${options.seconds} s (large bodies ${options.largeSeconds} s), ${options.connections} connections for small bodies, medians over rounds`);
console.log("×Ref req/s = req/s over the reference server's; ×Ref CPU = the reference's CPU µs per request over this server's. Above 1 is better for both.\n");

const wanted = scenarios.filter((scenario) => options.scenarios.has(scenario.letter));
const sharedKinds = [...new Set(wanted.flatMap((scenario) => scenario.servers ?? []))];
const lastShared = wanted.findLastIndex((scenario) => scenario.servers !== undefined);
const shared: ServerProcess[] = [];
const results: Record<string, unknown> = {};
const targets: Target[] = [];
try {
  for (const [index, scenario] of wanted.entries()) {
    if (scenario.servers !== undefined && shared.length === 0) for (const kind of sharedKinds) shared.push(await startServer(kind, placement, context.serverEnv));
    const started = performance.now();
    const servers = shared.filter((server) => scenario.servers?.includes(server.kind));
    const { table, ...data } = await scenario.run(context, servers);
    const seconds = (performance.now() - started) / 1000;
    console.log(`${title(scenario.letter)} (${Math.round(seconds)} s)\n${table}\n`);
    targets.push(...data.targets);
    results[scenario.letter] = { ...data, seconds };
    ran.add(scenario.letter);
    if (index === lastShared) await Promise.all(shared.splice(0).map((server) => server.stop()));
  }
} finally {
  await Promise.all(shared.map((server) => server.stop()));
}

const seconds = (performance.now() - began) / 1000;
console.log(`kept targets (${targets.filter(targetMet).length} of ${targets.length} met):\n${renderTargets(targets)}\n`);
const output = fileURLToPath(new URL('../../bench-results.json', import.meta.url));
writeFileSync(
  output,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      placement: placement.note,
      launch: describeLaunch(process.env),
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
