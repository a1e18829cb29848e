// Issue 45: a contained plugin runs in processes of its own, so it cannot kill, stall, read or
// rewire the service. Each finding of the issue is tried here the way it was reported, by the rogue
// fixture (test/fixtures/process-plugins/rogue), against the real service: in worker threads each
// of these attacks reached the service (its process, its environment, its answers, its CPU, its
// memory).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { answerText, builtinPluginDir } from '../kernel/host/index.js';
import { probeManifest } from '../kernel/host/manifest-probe.js';
import { readProcStat } from '../kernel/host/proc-stat.js';
import { send, type Answer } from './support/http.js';
import { buildTestService, fixtures, NODE_ADDS, withoutNodeAdds, type InProcessService } from './support/service.js';
import { childrenOf } from './support/process-tree.js';
import { exitOf, listeningUrl } from './support/started-service.js';
import { until } from './support/until.js';
import { logLinesWith } from './support/log-lines.js';
import { tempFolder } from './support/temp-folder.js';

const processPlugins = path.join(fixtures, 'process-plugins');
const GROUP = 'rogue';
/** The rogue plugin's resident-memory cap in the attacks' service, below the default 512 MiB (finding 7 says why). */
const ROGUE_RSS_MB = 160;
const errorOf = (answer: Answer): { code: string; message: string } => (answer.json as { error: { code: string; message: string } }).error;


/** The service answers as usual: /healthz, and base64/encode of "foobar" (RFC 4648 §10: "Zm9vYmFy"). */
async function stillAnswers(service: InProcessService): Promise<void> {
  const [health, encoded] = await Promise.all([send(service.url, '/healthz', { method: 'GET' }), send(service.url, '/v1/base64/encode', { body: { text: 'foobar' } })]);
  assert.deepEqual([health.status, encoded.status, encoded.json], [200, 200, { base64: 'Zm9vYmFy' }]);
}

describe('a contained plugin that attacks the service from its own process', { timeout: 120_000 }, () => {
  let service: InProcessService;
  const share = () => service.host.pluginProcesses.stats().get(GROUP)!;
  before(async () => {
    service = await buildTestService(
      // Finding 7 passes the cap in pages of 16 MiB, each quick to touch within the 1.5 s deadline
      // even where a new machine hands out its memory slowly.
      { plugins: { dirs: [processPlugins], limits: { [GROUP]: { rssMb: ROGUE_RSS_MB } } }, operations: { groupDeadlineMs: { [GROUP]: 1500 } }, metrics: { enabled: true } },
      { builtinDir: builtinPluginDir },
    );
    // Loads base64's module once, so that finding 1's second after the attack is not its first use.
    await stillAnswers(service);
  });
  after(() => service.stop());

  it('finding 1: a handler that SIGKILLs its process costs that request a 502 naming the plugin; the service answers at once, and the plugin again', async () => {
    const ends = share().ends.exited ?? 0;
    const killed = await send(service.url, `/v1/${GROUP}/kill-self`, { body: {} });
    const attacked = performance.now();
    assert.equal(killed.status, 502);
    assert.deepEqual(errorOf(killed), { code: 'plugin_crashed', message: `The plugin ${GROUP} stopped before answering: its process was ended by SIGKILL; it is started again for the next request` });
    await stillAnswers(service);
    // A generous guard: the issue's own figure for "at once".
    assert.ok(performance.now() - attacked < 1000, 'the service answered within a second of the attack');
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/echo`, { body: { text: 'back' } })).json, { text: 'back' });
    assert.equal(share().ends.exited, ends + 1);
    const [line] = logLinesWith(service.logs, 'plugin process ended').filter((entry) => entry.cause === 'its process was ended by SIGKILL');
    assert.deepEqual([line?.plugin, line?.failures, line?.pauseMs], [GROUP, 1, 0]);
  });

  it('finding 4: a patched JSON.stringify in the plugin\'s module adds nothing to the answer a client gets', async () => {
    const answer = await send(service.url, `/v1/${GROUP}/echo`, { body: { text: 'hi' } });
    assert.deepEqual([answer.status, answer.text], [200, '{"text":"hi"}']);
  });

  it('finding 4: an answer the plugin writes on its channel itself, with an undeclared field or not JSON, reaches no client (500, the fault logged)', async () => {
    let protocolEnds = share().ends.protocol ?? 0;
    // 100 KiB: over workers.offloadBytes, so the service checks that answer on its pool.
    for (const [json, padKb, problem] of [
      [true, 0, '/isAdmin: not declared in the response schema'],
      [false, 0, '/: the answer is not UTF-8 JSON'],
      [true, 100, '/isAdmin: not declared in the response schema'],
    ] as const) {
      const requestId = `forged-${String(json)}-${padKb}`;
      const answer = await send(service.url, `/v1/${GROUP}/forge`, { body: { json, padKb }, headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId } });
      assert.deepEqual([answer.status, answer.headers['content-type'], answer.json], [500, 'application/json; charset=utf-8', { error: { code: 'internal_error', message: 'An internal error occurred; the request id identifies it in the log' } }]);
      const [line] = logLinesWith(service.logs, 'request failed').filter((entry) => entry.requestId === requestId);
      assert.deepEqual((line?.fault as { problems?: string[] } | undefined)?.problems, [problem]);
      protocolEnds++;
      await until(() => share().ends.protocol === protocolEnds);
    }
    // Its real answer came after the forged one each time: the process broke the protocol and was ended, and a new one serves.
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/echo`, { body: { text: 'again' } })).json, { text: 'again' });
  });

  it('finding 5: its process holds only the variables plugins.env lists, and reads neither its own nor the service\'s /proc environ', async () => {
    const answer = await send(service.url, `/v1/${GROUP}/environ`, { body: {} });
    assert.deepEqual(answer.json, { self: 'ERR_ACCESS_DENIED', parent: 'ERR_ACCESS_DENIED', names: [...NODE_ADDS] });
    // Read from outside: the process's whole environment, as the system holds it, is empty.
    const [pid] = share().pids;
    assert.ok(pid !== undefined);
    assert.equal(withoutNodeAdds(readFileSync(`/proc/${pid}/environ`, 'utf8')), '');
  });

  // After finding 5's answer: two ends in a row would pause the plugin's processes for the next test.
  it('a load failure it reports while serving ends its process at once (502 naming the message), not a log line for each', async () => {
    const lines = (): number => service.logs.filter((line) => line.includes('plugin failed to load in its process')).length;
    const before = lines();
    const answer = await send(service.url, `/v1/${GROUP}/lament`, { body: {} });
    // Each one was a log line of 2 KB: 800 MB of log in 3 s, on a whole core.
    assert.equal(answer.status, 502);
    assert.match(errorOf(answer).message, new RegExp(`^The plugin ${GROUP} stopped before answering: its process wrote what the service does not take \\(an unexpected load-failed message\\)`));
    assert.equal(lines(), before);
    await stillAnswers(service);
  });

  it('finding 6: its niceness is its own: renicing its process leaves the service\'s priority as it was', async () => {
    const before = getPriority(process.pid);
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/renice`, { body: {} })).json, { niceness: 19 });
    assert.equal(getPriority(process.pid), before);
    await stillAnswers(service);
  });

  it('finding 6: threads are refused without the worker grant, and work it leaves running past its deadline is ended with its process; then its processes use no CPU', async () => {
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/threads`, { body: {} })).json, { started: 'ERR_ACCESS_DENIED' });
    const ends = share().ends['busy-idle'] ?? 0;
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/spin-after`, { body: {} })).json, { done: true });
    const [spinning] = share().pids;
    assert.ok(spinning !== undefined);
    // Past the 1.5 s deadline the watch sees it computing while idle, and ends it.
    await until(() => share().ends['busy-idle'] === ends + 1);
    assert.equal(existsSync(`/proc/${spinning}`), false, 'the spinning process is gone');
    await stillAnswers(service);
    const pids = share().pids;
    const cpuMs = (pid: number): number => readProcStat(pid)?.cpuMs ?? 0;
    const first = pids.map(cpuMs);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = pids.map((pid, index) => cpuMs(pid) - (first[index] ?? 0));
    assert.ok(used.every((ms) => ms <= 50), `the plugin's processes are quiet (${used.join(', ')} ms of CPU in 500 ms)`);
  });

  it('finding 7: Buffers it keeps outside the heap end its process at the resident-memory cap, and the memory is given back', async () => {
    const capMb = service.host.pluginProcesses.sizing(GROUP)!.rssMb;
    const ends = share().ends.memory ?? 0;
    const pidsSeen = new Set<number>();
    const state = (): string => JSON.stringify(share());
    // 16 MiB a request: ten of them alone pass the cap.
    for (let request = 0; request < 16 && (share().ends.memory ?? 0) === ends; request++) {
      for (const pid of share().pids) pidsSeen.add(pid);
      const answer = await send(service.url, `/v1/${GROUP}/hoard`, { body: { mb: 16 } });
      assert.ok(answer.status === 200 || (answer.status === 502 && errorOf(answer).code === 'plugin_crashed'), `${answer.status} ${answer.text} ${state()}`);
      for (const pid of share().pids) pidsSeen.add(pid);
      if (answer.status === 502) assert.match(errorOf(answer).message, new RegExp(`over its cap of ${capMb} MiB`));
    }
    await until(() => share().ends.memory === ends + 1, `a process ended over its memory cap (${state()})`);
    const [line] = logLinesWith(service.logs, 'plugin process over its memory cap');
    assert.deepEqual([line?.plugin, line?.capMb], [GROUP, ROGUE_RSS_MB]);
    assert.ok((line?.rssMb as number) > capMb);
    // The process that held the memory is gone, and with it the memory.
    assert.equal(existsSync(`/proc/${String(line?.pid)}`), false);
    assert.ok(pidsSeen.has(line?.pid as number));
    await stillAnswers(service);
  });

  it('finding 7: its processes are the first the kernel ends when memory runs out, before the service, and it cannot turn that round', async () => {
    const serviceScore = readFileSync('/proc/self/oom_score_adj', 'utf8');
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/oom-score`, { body: {} })).json, { own: 'ERR_ACCESS_DENIED', service: 'ERR_ACCESS_DENIED' });
    const pids = share().pids;
    assert.ok(pids.length > 0);
    // The kernel adds 1000 ‰ of the memory to its score: larger than any process's size alone.
    for (const pid of pids) assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8'), '1000\n');
    assert.equal(readFileSync('/proc/self/oom_score_adj', 'utf8'), serviceScore);
  });
});

// A service of its own, whose deadline for the plugin is long: the rule on pieces, not the
// deadline, must end the process, however long a busy machine takes to read a thousand pieces.
describe('a contained plugin that writes a frame on its channel a byte at a time', { timeout: 60_000 }, () => {
  it('ends its process by the rule on pieces (502 naming the plugin), not at its deadline', async () => {
    const service = await buildTestService({ plugins: { dirs: [processPlugins] }, operations: { groupDeadlineMs: { [GROUP]: 25_000 } } }, { builtinDir: builtinPluginDir });
    try {
      const answer = await send(service.url, `/v1/${GROUP}/trickle`, { body: {} });
      // Each byte was a read for the service's main thread (40 % of a core until the deadline, 10 s by default).
      assert.equal(answer.status, 502);
      assert.equal(errorOf(answer).code, 'plugin_crashed');
      assert.match(errorOf(answer).message, new RegExp(`^The plugin ${GROUP} stopped before answering: its process wrote what the service does not take \\(a frame in \\d+ pieces of \\d+ bytes on average\\)`));
      assert.equal(service.host.pluginProcesses.stats().get(GROUP)!.ends.protocol, 1);
      await stillAnswers(service);
    } finally {
      await service.stop();
    }
  });
});

describe('a contained plugin whose process keeps ending', { timeout: 120_000 }, () => {
  let service: InProcessService;
  const share = () => service.host.pluginProcesses.stats().get(GROUP)!;
  before(async () => {
    service = await buildTestService({ plugins: { dirs: [processPlugins] }, metrics: { enabled: true } }, { builtinDir: builtinPluginDir });
  });
  after(() => service.stop());
  const metric = async (name: string): Promise<string | undefined> =>
    new RegExp(`^${name} (\\d+)$`, 'm').exec((await send(service.url, '/metrics', { method: 'GET' })).text)?.[1];

  it('is started again at once after one end, then only after a pause that doubles, answering 503 plugin_unavailable meanwhile; it says so in the log and /metrics, and is forgiven once it answers', async () => {
    const exit = async (): Promise<Answer> => send(service.url, `/v1/${GROUP}/exit`, { body: {} });
    const crashed = { code: 'plugin_crashed', message: `The plugin ${GROUP} stopped before answering: its process exited with code 3; it is started again for the next request` };
    // First end: started again for the next request at once.
    assert.deepEqual([(await exit()).status, errorOf(await exit())], [502, crashed]);
    // Two in a row start a pause of 500 ms, and each further end doubles it: 1 s, 2 s, 4 s after the
    // third, fourth and fifth (the log's pauseMs, below). A new process is started only after each.
    for (const failures of [3, 4, 5]) {
      await until(() => !share().paused);
      assert.equal((await exit()).status, 502);
      assert.equal(share().failures, failures);
    }
    // Meanwhile nothing is started and requests are refused at once. Checked in the 4 s pause, not
    // the first 500 ms: a busy machine could let a short pause pass before the next request arrives.
    const refused = await exit();
    const seconds = refused.headers['retry-after'];
    assert.ok(seconds === '4' || seconds === '3', `Retry-After ${seconds}: the seconds left of the 4 s pause`);
    assert.deepEqual([refused.status, errorOf(refused)], [503, { code: 'plugin_unavailable', message: `The plugin ${GROUP} is failing (its process ended 5 times in a row); it is started again in ${seconds} s` }]);
    assert.deepEqual([share().processes, share().ends.exited, share().paused], [0, 5, true]);
    assert.equal(await metric('toolshed_plugin_paused{plugin="rogue"}'), '1');
    await stillAnswers(service);
    const ended = logLinesWith(service.logs, 'plugin process ended');
    assert.deepEqual(ended.map((line) => [line.failures, line.pauseMs]), [[1, 0], [2, 500], [3, 1000], [4, 2000], [5, 4000]]);
    assert.ok(ended.every((line) => line.plugin === GROUP && line.cause === 'its process exited with code 3'));
    assert.deepEqual(logLinesWith(service.logs, 'plugin keeps failing').map((line) => [line.plugin, line.failures]), [[GROUP, 5]]);
    assert.equal(await metric('toolshed_plugin_failures{plugin="rogue"}'), '5');
    assert.equal(await metric('toolshed_plugin_process_ends_total{plugin="rogue",cause="exited"}'), '5');
    // Once a process answers, the plugin is forgiven.
    await until(() => !share().paused);
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/echo`, { body: { text: 'well' } })).json, { text: 'well' });
    assert.equal(await metric('toolshed_plugin_failures{plugin="rogue"}'), '0');
  });
});

describe('a contained plugin\'s process ended for being idle', { timeout: 60_000 }, () => {
  it('is handed no request between its end and its exit: a request then waits for a new process and is answered', async () => {
    const service = await buildTestService({ plugins: { dirs: [processPlugins] }, workers: { idleMs: 50 } }, { builtinDir: builtinPluginDir });
    try {
      const echo = async (text: string): Promise<string> => answerText(await service.host.executor.run({ operation: `${GROUP}/echo`, body: { text } }));
      assert.equal(await echo('first'), '{"text":"first"}');
      // The process's idle timer was set as that answer arrived; one of the same delay set now fires
      // right after it, when the process is ended but has not exited yet (its exit comes later, as an I/O event).
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await echo('second'), '{"text":"second"}');
      const { ends } = service.host.pluginProcesses.stats().get(GROUP)!;
      assert.equal(ends.idle, 1, 'the first process ended idle');
    } finally {
      await service.stop();
    }
  });
});

describe('a plugin whose import ends its own process', { timeout: 60_000 }, () => {
  it('stops the start naming the plugin, and only the process loading it ends', async () => {
    const killers = path.join(fixtures, 'import-killers');
    await assert.rejects(buildTestService({ plugins: { dirs: [killers] } }), (error: Error) => {
      assert.equal(error.message, `Cannot load the plugin ${path.join(killers, 'dies-at-import', 'index.js')}:\n- its module stopped the process loading it: was ended by SIGKILL`);
      return true;
    });
  });
});

describe('a plugin whose import keeps Buffers past the resident-memory cap', { timeout: 60_000 }, () => {
  it('stops the start naming the plugin: the process loading it is ended at the cap, not after its import', async () => {
    // The fixture keeps 768 MiB and then waits 20 s before its manifest is out: unwatched, it loaded.
    const hoarders = path.join(fixtures, 'import-hoarders');
    await assert.rejects(buildTestService({ plugins: { dirs: [hoarders] } }), (error: Error) => {
      const [first, second] = error.message.split('\n');
      assert.equal(first, `Cannot load the plugin ${path.join(hoarders, 'hoards-at-import', 'index.js')}:`);
      assert.match(second ?? '', /^- its module used \d+ MiB of memory while loading, over the cap of 512 MiB$/);
      return true;
    });
  });
});

describe('a plugin that keeps writing on its channel once its manifest is out', () => {
  // Its import also keeps the loading process from exiting. Read until the probe's timeout, it
  // held the service's main thread 30 s (29.6 s of CPU); a guard of 20 s fails that, and a probe
  // on a busy machine takes about a second.
  it('is loaded as soon as its manifest is out: the process loading it is ended then, not at the probe\'s timeout', { timeout: 20_000 }, async () => {
    const manifest = await probeManifest(pathToFileURL(path.join(fixtures, 'chatty-plugins', 'keeps-talking', 'index.js')).href);
    assert.deepEqual([manifest.group, Object.keys(manifest.operations)], ['keeps-talking', ['echo']]);
  });
});

describe('finding 5 against a service started with a secret in its environment', { timeout: 60_000 }, () => {
  it('keeps the secret from the plugin: not in its environment, and neither /proc/self/environ nor the service\'s is readable', async () => {
    const dir = tempFolder('toolshed-environ-');
    const config = path.join(dir, 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(processPlugins)}]\n  env:\n    ${GROUP}: [TOOLSHED_GIVEN]\noperations:\n  warmUp: false\n`);
    const bin = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
    const secret = 'kept-from-every-plugin-7d1e';
    const child = spawn(process.execPath, [bin, 'serve'], {
      env: { PATH: process.env.PATH, TOOLSHED_CONFIG: config, PORT: '0', TOOLSHED_SECRET: secret, TOOLSHED_GIVEN: 'given' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await listeningUrl(child);
      assert.ok(readFileSync(`/proc/${child.pid}/environ`, 'utf8').includes(secret), 'the service has the secret');
      const answer = await send(url, `/v1/${GROUP}/environ`, { body: {} });
      assert.deepEqual(answer.json, { self: 'ERR_ACCESS_DENIED', parent: 'ERR_ACCESS_DENIED', names: [...NODE_ADDS, 'TOOLSHED_GIVEN'] });
      const plugins = childrenOf(child.pid!).map(({ pid }) => pid);
      assert.equal(plugins.length, 1, 'one plugin process, started for the request');
      assert.equal(withoutNodeAdds(readFileSync(`/proc/${plugins[0]}/environ`, 'utf8')), 'TOOLSHED_GIVEN=given\0');
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  });
});

describe('what a contained plugin prints', { timeout: 60_000 }, () => {
  it('never reaches the service\'s log on stdout, whichever way it prints; it reaches the service\'s stderr a line at a time, each labelled with the plugin and its process, and no more than its budget a minute', async () => {
    const dir = tempFolder('toolshed-prints-');
    const config = path.join(dir, 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(processPlugins)}]\noperations:\n  warmUp: false\n`);
    const bin = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
    const child = spawn(process.execPath, [bin, 'serve'], { env: { PATH: process.env.PATH, TOOLSHED_CONFIG: config, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const forged = ['forged by console.log', 'forged by process.stdout', 'forged by console.error'];
    try {
      const url = await listeningUrl(child);
      const answer = await send(url, `/v1/${GROUP}/print`, { body: {} });
      assert.deepEqual([answer.status, answer.json], [200, { done: true }]);
      // Its output crosses a pipe of its own process: waited for, not timed.
      await until(() => forged.every((text) => printed.includes(text)));
      // The request's own access line is in the log by now (the log is written in order), and nothing the plugin printed.
      const id = String(answer.headers['x-request-id']);
      await until(() => log.includes(id));
      assert.deepEqual(forged.filter((text) => log.includes(text)), []);
      const lines = printed.split('\n').filter((line) => line.includes('forged by'));
      assert.deepEqual(lines.map((line) => line.replace(/^\[plugin rogue \d+\] /, '')), forged.map((text) => `{"level":50,"msg":"${text}"}`));
      // 1 MiB in lines of 1 KiB: past 64 KiB (and the read that passed it) the service reads no more
      // this minute; the rest waits in the plugin's own process, whose answer is not held up. About
      // 64 whole lines: the lines printed above count too, and the line the budget ends in is said cut.
      const shouted = await send(url, `/v1/${GROUP}/shout`, { body: { kb: 1024 } });
      assert.deepEqual([shouted.status, shouted.json], [200, { done: true }]);
      await until(() => printed.includes('what it prints next waits until'));
      const heard = printed.split('\n').filter((line) => /^\[plugin rogue \d+\] x{1023}$/.test(line)).length;
      assert.ok(heard >= 60 && heard <= 130, `${heard} lines of 1 KiB relayed, about the 64 of the budget`);
      assert.equal((await send(url, '/v1/base64/encode', { body: { text: 'hi' } })).status, 200);
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
    }
  });
});
