/**
 * Scenario (f): what containment costs. A third-party plugin runs in a process of its own by
 * default (issue 45): each request crosses to it as bytes and its answer back, parsed and checked by
 * the service; the same plugin named in `plugins.trusted` runs on the main thread. One small request
 * (`greeting/hello`, a 15-byte body) against both, as two Toolshed processes whose only difference
 * is that list, within the plugin's share: its queue is raised to the connections, so every request
 * is served (no 503 counted as work) and the time per request compares work with work. CPU per
 * request includes the plugin's process. The guide quotes the numbers (docs/writing-a-plugin.md).
 */
import { fileURLToPath } from 'node:url';
import { type LoadScenarioResult, scenarioTable } from './load-scenarios.js';
import { startServer, type Placement, type ServerProcess } from './processes.js';
import { ratio, type Target } from './report.js';
import { checkSameAnswers, interleavedRounds, type LoadCase, type RoundPlan } from './throughput.js';

const fixturePlugins = fileURLToPath(new URL('../../../test/fixtures/external-plugins', import.meta.url));

/** Issue 45's aim: a contained plugin's small request takes at most twice its time trusted (req/s at least half). */
export const CONTAINED_OF_TRUSTED = 0.5;

export async function runContainmentScenario(title: string, placement: Placement, env: Record<string, string>, headers: Record<string, string>, connections: number, plan: RoundPlan): Promise<LoadScenarioResult> {
  const servers: ServerProcess[] = [];
  // One process (the default share) with room in its queue for every connection but the one it serves.
  const share = { ...env, BENCH_PLUGIN_DIRS: fixturePlugins, BENCH_PLUGIN_QUEUE: String(Math.max(0, connections - 1)) };
  try {
    servers.push(await startServer('contained', placement, { ...share, BENCH_TRUSTED: '' }));
    servers.push(await startServer('trusted', placement, { ...share, BENCH_TRUSTED: 'greeting,kernel-probe' }));
    const cases: LoadCase[] = [{ label: 'greeting hello', path: '/v1/greeting/hello', body: JSON.stringify({ name: 'Ada' }), headers, connections }];
    await checkSameAnswers(servers, cases);
    const measured = await interleavedRounds(servers, cases, plan);
    const contained = measured.find((row) => row.server === 'contained');
    const trusted = measured.find((row) => row.server === 'trusted');
    const note = `in its process: ${Math.round(100 * ratio(contained?.rps, trusted?.rps))} % of the main thread's req/s, p50 ${contained?.p50Ms} ms against ${trusted?.p50Ms} ms, ${contained?.failures} refused or failed`;
    // Refusals would make the contained plugin look faster than it is: the target holds only when none happened.
    const targets: Target[] = [
      {
        scenario: title,
        name: `contained / trusted, greeting hello at ${connections} connections within its share, by req/s (time per request at most 2×)`,
        value: contained === undefined || contained.failures > 0 ? Number.NaN : ratio(contained.rps, trusted?.rps),
        comparison: '>=',
        goal: CONTAINED_OF_TRUSTED,
      },
    ];
    return { title, measured, table: `${scenarioTable(measured, ['trusted'])}\n${note}`, targets };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
