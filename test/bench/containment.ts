/**
 * Scenario (f): what containment costs. A third-party plugin's every request runs on the worker
 * pool by default (issue 21); the same plugin named in `plugins.trusted` runs on the main thread.
 * One small request (`greeting/hello`, a 15-byte body) against both, as two Toolshed processes
 * whose only difference is that list. The guide quotes the numbers (docs/writing-a-plugin.md).
 */
import { fileURLToPath } from 'node:url';
import { type LoadScenarioResult, scenarioTable } from './load-scenarios.js';
import { startServer, type Placement, type ServerProcess } from './processes.js';
import { ratio } from './report.js';
import { checkSameAnswers, interleavedRounds, type LoadCase, type RoundPlan } from './throughput.js';

const fixturePlugins = fileURLToPath(new URL('../../../test/fixtures/external-plugins', import.meta.url));

export async function runContainmentScenario(title: string, placement: Placement, env: Record<string, string>, headers: Record<string, string>, connections: number, plan: RoundPlan): Promise<LoadScenarioResult> {
  const servers: ServerProcess[] = [];
  try {
    servers.push(await startServer('pooled', placement, { ...env, BENCH_PLUGIN_DIRS: fixturePlugins, BENCH_TRUSTED: '' }));
    servers.push(await startServer('trusted', placement, { ...env, BENCH_PLUGIN_DIRS: fixturePlugins, BENCH_TRUSTED: 'greeting,kernel-probe' }));
    const cases: LoadCase[] = [{ label: 'greeting hello', path: '/v1/greeting/hello', body: JSON.stringify({ name: 'Ada' }), headers, connections }];
    await checkSameAnswers(servers, cases);
    const measured = await interleavedRounds(servers, cases, plan);
    const pooled = measured.find((row) => row.server === 'pooled');
    const trusted = measured.find((row) => row.server === 'trusted');
    // No target: the numbers are what the guide states, whatever they are.
    const note = `on the pool: ${Math.round(100 * ratio(pooled?.rps, trusted?.rps))} % of the main thread's req/s, p50 ${pooled?.p50Ms} ms against ${trusted?.p50Ms} ms`;
    return { title, measured, table: `${scenarioTable(measured, ['trusted'])}\n${note}`, targets: [] };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
