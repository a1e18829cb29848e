// No plugin can stall or silence the service (issue 21): third-party plugins run on the worker pool
// by default, every operation has a deadline, and a blocked main thread is logged and counted.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { defaultsFile, readConfig, validateCoreConfig } from '../kernel/host/config.js';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send, type Answer } from './support/http.js';
import { run } from './support/packages.js';
import { fixtures, buildTestService, type InProcessService } from './support/service.js';
import { until } from './support/until.js';
import { logLinesWith } from './support/log-lines.js';
import { tempFolder } from './support/temp-folder.js';

const hostilePlugins = path.join(fixtures, 'hostile-plugins');
const errorCode = (answer: Answer): string => (answer.json as { error: { code: string } }).error.code;

describe('the deadline of every operation', () => {
  it('is at most 10 s by default, in the schema and in config/default.yaml', async () => {
    assert.ok(validateCoreConfig({}).operations.deadlineMs <= 10_000);
    assert.ok(validateCoreConfig(await readConfig({}, defaultsFile)).operations.deadlineMs <= 10_000);
  });
});

describe('third-party plugins beside the built-ins, with default settings but a short deadline', { timeout: 120_000 }, () => {
  let service: InProcessService;
  before(async () => {
    // Everything at its default except the deadline: 3 s instead of 10 s, still shorter than the 8 s loop.
    service = await buildTestService({ plugins: { dirs: [hostilePlugins] }, operations: { deadlineMs: 3000 } }, { builtinDir: builtinPluginDir });
  });
  after(() => service.stop());

  it('keeps answering base64/encode while an 8 s CPU loop and a never-settling handler run, and gives both 504 operation_timeout', async () => {
    const settled: string[] = [];
    const request = (name: string, target: string, body: object, id: string): Promise<Answer> =>
      send(service.url, target, { body, headers: { 'Content-Type': 'application/json', 'X-Request-Id': id } }).then((answer) => {
        settled.push(name);
        return answer;
      });
    const running = (group: string): number => service.host.pluginProcesses.stats().get(group)?.running ?? 0;
    const loop = request('loop', '/v1/busy-loop/spin', {}, 'loop-1');
    const never = request('never', '/v1/never-settles/wait', {}, 'never-1');
    // Both run in their own plugins' workers (contained by default), not on the main thread.
    await until(() => running('busy-loop') === 1 && running('never-settles') === 1);
    const encoded = await send(service.url, '/v1/base64/encode', { body: { text: 'foobar' } });
    // RFC 4648 §10: BASE64("foobar") = "Zm9vYmFy"; answered while both bad requests were in flight.
    assert.deepEqual({ status: encoded.status, json: encoded.json, settledBefore: [...settled] }, { status: 200, json: { base64: 'Zm9vYmFy' }, settledBefore: [] });
    const [looped, waited] = await Promise.all([loop, never]);
    assert.deepEqual([looped.status, errorCode(looped), waited.status, errorCode(waited)], [504, 'operation_timeout', 504, 'operation_timeout']);
    assert.equal(looped.headers['content-type'], 'application/json; charset=utf-8');
    // One line each, naming operation and request id.
    const lines = logLinesWith(service.logs, 'operation deadline passed').map(({ operation, requestId }) => `${String(operation)} ${String(requestId)}`);
    assert.deepEqual(lines.sort(), ['busy-loop.spin loop-1', 'never-settles.wait never-1']);
  });

  it('runs a third-party plugin\'s small request in its own workers, not on the built-ins\' pool', async () => {
    const own = (): number => service.host.pluginProcesses.stats().get('never-settles')?.completed ?? 0;
    const [completed, shared] = [own(), service.host.poolStats().completed];
    assert.deepEqual((await send(service.url, '/v1/never-settles/wait', { body: { now: true } })).json, {});
    assert.deepEqual([own(), service.host.poolStats().completed], [completed + 1, shared]);
  });
});

describe('a plugin the operator trusts', { timeout: 120_000 }, () => {
  let service: InProcessService;
  before(async () => {
    service = await buildTestService(
      {
        plugins: { dirs: [hostilePlugins], trusted: ['busy-loop', 'never-settles'] },
        // A long global deadline and a short one for one group: only the group's can end the wait below.
        operations: { deadlineMs: 590_000, groupDeadlineMs: { 'never-settles': 300 } },
        server: { writeTimeoutMs: 600_000 },
        metrics: { enabled: true },
        watchdog: { blockedMs: 100 },
      },
      { builtinDir: builtinPluginDir },
    );
  });
  after(() => service.stop());

  it('runs on the main thread, where a never-settling handler still gets 504 at its group\'s deadline', async () => {
    const completed = service.host.poolStats().completed;
    const aborted = (globalThis as { neverSettlesAborted?: number }).neverSettlesAborted ?? 0;
    const answer = await send(service.url, '/v1/never-settles/wait', { body: {}, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'main-never' } });
    assert.deepEqual([answer.status, errorCode(answer)], [504, 'operation_timeout']);
    assert.equal((globalThis as { neverSettlesAborted?: number }).neverSettlesAborted, aborted + 1, 'the handler\'s signal fired at the deadline');
    assert.equal(service.host.poolStats().completed, completed, 'nothing ran on the pool');
    const [line] = logLinesWith(service.logs, 'operation deadline passed');
    assert.deepEqual([line?.operation, line?.requestId, line?.deadlineMs], ['never-settles.wait', 'main-never', 300]);
  });

  it('names the operation that blocked the main thread, once, in the log and in /metrics', async () => {
    // 300 ms of busy loop, at once and after an await: each at least 300 ms, past the 100 ms threshold whatever the machine.
    for (const [id, afterAwait] of [['block-now', false], ['block-later', true]] as const) {
      const answer = await send(service.url, '/v1/busy-loop/spin', { body: { ms: 300, afterAwait }, headers: { 'Content-Type': 'application/json', 'X-Request-Id': id } });
      assert.equal(answer.status, 200);
    }
    // The lateness check runs on a timer: wait for its line of the second block.
    await until(() => logLinesWith(service.logs, 'event loop blocked').some((line) => line.requestId === 'block-later'));
    const blocks = logLinesWith(service.logs, 'event loop blocked').filter((line) => line.operation === 'busy-loop.spin');
    assert.deepEqual(blocks.map((line) => line.requestId), ['block-now', 'block-later']);
    assert.ok(blocks.every((line) => (line.blockedMs as number) >= 100));
    const metrics = (await send(service.url, '/metrics', { method: 'GET' })).text;
    assert.match(metrics, /^toolshed_event_loop_blocked_total\{operation="busy-loop\.spin"\} 2$/m);
  });
});

describe('a trusted plugin\'s synchronous loop past its deadline', { timeout: 120_000 }, () => {
  it('is answered with its result when it returns, not 504, as docs/configuration.md and writing-a-plugin.md say', async () => {
    const docs = ['docs/configuration.md', 'docs/writing-a-plugin.md'].map((file) => readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8').replace(/\s+/g, ' '));
    for (const text of docs) assert.match(text, /JavaScript cannot be stopped in the middle of a synchronous loop on the main thread/);
    assert.match(docs[0]!, /answered when it returns, with its own result \(a 200, however late\)/);
    const service = await buildTestService(
      { plugins: { dirs: [hostilePlugins], trusted: ['busy-loop'] }, operations: { groupDeadlineMs: { 'busy-loop': 200 } } },
      { builtinDir: builtinPluginDir },
    );
    try {
      // 600 ms of loop from the handler's first line, three times the 200 ms deadline.
      const answer = await send(service.url, '/v1/busy-loop/spin', { body: { ms: 600 } });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json, {});
    } finally {
      await service.stop();
    }
  });
});

describe('toolshed call', { timeout: 120_000 }, () => {
  it('ends a contained loop and a never-settling handler at the deadline with 504 operation_timeout (exit 3)', async () => {
    const dir = tempFolder('toolshed-containment-');
    const config = path.join(dir, 'config.yaml');
    // The command starts the plugin's process for its one call, and that start counts as waiting: past
    // half the deadline it is 503 server_busy. 5 s leaves a busy machine 2.5 s to start Node (a
    // 500 ms deadline was server_busy once beside five other test files).
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(hostilePlugins)}]\noperations:\n  deadlineMs: 5000\n`);
    const bin = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
    for (const target of ['busy-loop/spin', 'never-settles/wait']) {
      const outcome = await run(process.execPath, [bin, 'call', target, '{}', '--config', config], { cwd: dir });
      const group = target.replace('/', '.');
      const body = { error: { code: 'operation_timeout', message: `${group} did not finish within its deadline of 5000 ms` } };
      assert.deepEqual(outcome, { code: 3, stdout: '', stderr: `${JSON.stringify(body)}\n` });
    }
  });
});

describe('configuration of containment', () => {
  it('refuses to trust an unknown or a built-in group, a deadline for an unknown group, and a deadline or request budget the silent-connection timeout would cut', async () => {
    const operations = { groupDeadlineMs: { 'no-such': 500, 'busy-loop': 30_000 } };
    await assert.rejects(
      buildTestService({ plugins: { dirs: [hostilePlugins], trusted: ['no-such-group', 'base64'] }, operations, workers: { requestBudgetMs: 30_000 } }, { builtinDir: builtinPluginDir }),
      (error: Error) => {
        assert.equal(
          error.message,
          [
            'Invalid configuration:',
            '- /plugins/trusted: names the unknown group "no-such-group"',
            '- /plugins/trusted: names the built-in group "base64", which is trusted already',
            '- /operations/groupDeadlineMs/no-such: names an unknown group',
            '- /workers/requestBudgetMs: must be shorter than server.writeTimeoutMs (30000), which closes a silent connection first',
            '- /operations/groupDeadlineMs/busy-loop: must be shorter than server.writeTimeoutMs (30000), which closes a silent connection first',
          ].join('\n'),
        );
        return true;
      },
    );
  });
});
