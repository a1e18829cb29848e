// Third-party code never runs in the service's process (issue 38 item 5, issue 45): a plugin from
// plugins.dirs is imported in processes of its own only, runs in its own share of them, and sees
// only the environment variables the configuration lists for it. The fixture patches
// Buffer.prototype.toString when it is imported, as the plugin issue 38 tried did; there it made
// base64/encode answer "PWNEDaGk=".
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send, type Answer } from './support/http.js';
import { fixtures, NODE_ADDS, startTestService, type TestService } from './support/service.js';
import { until } from './support/until.js';
import { tempFolder } from './support/temp-folder.js';

const isolatedPlugins = path.join(fixtures, 'isolated-plugins');
const hostilePlugins = path.join(fixtures, 'hostile-plugins');
const GROUP = 'global-patcher';

/** A POST that can be abandoned (a client going away), answering its status. */
function abandonable(url: string, body: object): { answer: Promise<number>; abandon(): void } {
  const controller = new AbortController();
  const answer = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal }).then(
    (response) => response.status,
    () => 0,
  );
  return { answer, abandon: () => controller.abort() };
}

describe('a folder plugin that patches a global when imported, beside the built-ins', { timeout: 120_000 }, () => {
  let service: TestService;
  const running = (): number => service.host.pluginProcesses.stats().get(GROUP)?.running ?? 0;
  before(async () => {
    process.env.TOOLSHED_ISOLATION_GIVEN = 'given to the plugin';
    process.env.TOOLSHED_ISOLATION_SECRET = 'kept from the plugin';
    service = await startTestService(
      {
        plugins: {
          dirs: [isolatedPlugins],
          // A listed name the service does not have is left out, not set empty.
          env: { [GROUP]: ['TOOLSHED_ISOLATION_GIVEN', 'TOOLSHED_ISOLATION_NOT_SET'] },
          limits: { [GROUP]: { processes: 2, maxQueue: 0 } },
        },
        operations: { groupDeadlineMs: { [GROUP]: 20_000 } },
      },
      { builtinDir: builtinPluginDir },
    );
  });
  after(async () => {
    await service.stop();
    delete process.env.TOOLSHED_ISOLATION_GIVEN;
    delete process.env.TOOLSHED_ISOLATION_SECRET;
  });

  it('leaves the service unpatched: base64/encode of "hi" answers aGk=, while the plugin\'s own process is patched', async () => {
    // RFC 4648 §4: "hi" = 0x68 0x69 = 011010 000110 1001(00) → a G k, one pad: "aGk=".
    const builtin = await send(service.url, '/v1/base64/encode', { body: { text: 'hi' } });
    assert.deepEqual([builtin.status, builtin.json], [200, { base64: 'aGk=' }]);
    assert.equal(Buffer.from('hi').toString('base64'), 'aGk=', 'this process (the service\'s main thread) never imported the plugin');
    // The patch did happen, where the module was imported: in the plugin's own process.
    const own = await send(service.url, `/v1/${GROUP}/encode`, { body: {} });
    assert.deepEqual([own.status, own.json], [200, { base64: 'PWNEDaGk=' }]);
  });

  it('gives its handler none of the service\'s environment but the listed variable', async () => {
    assert.ok(Object.keys(process.env).length > 2, 'the service itself has an environment (PATH, the secret)');
    const answer = await send(service.url, `/v1/${GROUP}/environment`, { body: {} });
    assert.deepEqual(answer.json, { names: [...NODE_ADDS, 'TOOLSHED_ISOLATION_GIVEN'], given: 'given to the plugin' });
  });

  it('answers regex-tester and a 300 kB base64/encode while two of its requests loop, and 503 naming the plugin when its share is full', async () => {
    const loops = [abandonable(`${service.url}/v1/${GROUP}/spin`, {}), abandonable(`${service.url}/v1/${GROUP}/spin`, {})];
    try {
      await until(() => running() === 2);
      const regex = await send(service.url, '/v1/regex-tester/test', { body: { pattern: 'a+', text: 'caaat' } });
      assert.equal(regex.status, 200);
      assert.deepEqual((regex.json as { matches: { text: string }[] }).matches.map((match) => match.text), ['aaa']);
      // 300,000 bytes of "x" (a multiple of 3): 400,000 characters of base64, each three "x" giving "eHh4".
      const large = await send(service.url, '/v1/base64/encode', { body: { text: 'x'.repeat(300_000) } });
      assert.deepEqual([large.status, (large.json as { base64: string }).base64 === 'eHh4'.repeat(100_000)], [200, true]);
      const refused: Answer = await send(service.url, `/v1/${GROUP}/spin`, { body: {}, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'third-loop' } });
      assert.deepEqual([refused.status, (refused.json as { error: { code: string } }).error.code], [503, 'server_busy']);
      const lines = service.logs.join('').split('\n').filter((line) => line.includes('"msg":"plugin processes busy"'));
      assert.equal(lines.length, 1);
      const line = JSON.parse(lines[0]!) as Record<string, unknown>;
      assert.deepEqual([line.plugin, line.operation, line.requestId, line.reason, line.processes, line.maxQueue], [GROUP, 'global-patcher.spin', 'third-loop', 'queue full', 2, 0]);
      assert.equal(running(), 2, 'both loops were still running');
    } finally {
      for (const loop of loops) loop.abandon();
    }
    // The clients went away: their processes are ended, and the share answers again.
    await Promise.all(loops.map((loop) => loop.answer));
    await until(() => running() === 0);
    assert.equal((await send(service.url, `/v1/${GROUP}/encode`, { body: {} })).status, 200);
  });
});

describe('a contained plugin with no plugins.env entry', { timeout: 60_000 }, () => {
  it('sees no environment variable at all', async () => {
    const service = await startTestService({ plugins: { dirs: [isolatedPlugins] } }, { builtinDir: builtinPluginDir });
    try {
      assert.deepEqual((await send(service.url, `/v1/${GROUP}/environment`, { body: {} })).json, { names: [...NODE_ADDS], given: '' });
    } finally {
      await service.stop();
    }
  });
});

describe('configuration of a contained plugin\'s share and environment', () => {
  it('refuses plugins.env and plugins.limits entries for an unknown, a built-in or a trusted group', async () => {
    const plugins = { dirs: [hostilePlugins], trusted: ['busy-loop'], env: { base64: ['HOME'], 'no-such': [] }, limits: { 'busy-loop': { processes: 2 } } };
    await assert.rejects(startTestService({ plugins }, { builtinDir: builtinPluginDir }), (error: Error) => {
      assert.equal(
        error.message,
        [
          'Invalid configuration:',
          '- /plugins/limits/busy-loop: names the trusted group "busy-loop", which runs in the service\'s own threads, not in processes of its own',
          '- /plugins/env/base64: names the built-in group "base64", which runs in the service\'s own threads, not in processes of its own',
          '- /plugins/env/no-such: names an unknown group',
        ].join('\n'),
      );
      return true;
    });
  });
});

describe('a contained plugin\'s processes under Node\'s permission model', { timeout: 120_000 }, () => {
  it('are denied file writes and child processes, with no flag on the service\'s own launch line', async () => {
    const service = await startTestService({ plugins: { dirs: [isolatedPlugins] } }, { builtinDir: builtinPluginDir });
    try {
      assert.deepEqual((await send(service.url, `/v1/${GROUP}/reach`, { body: {} })).json, { write: 'ERR_ACCESS_DENIED', exec: 'ERR_ACCESS_DENIED' });
    } finally {
      await service.stop();
    }
  });

  it('may write where plugins.grants.<group>.write says and start processes with childProcess (what the grants give back)', async () => {
    // Removing the file it wrote needs reads there too (rmSync looks before it removes).
    const grants = { [GROUP]: { read: [tmpdir()], write: [tmpdir()], childProcess: true } };
    const service = await startTestService({ plugins: { dirs: [isolatedPlugins], grants } }, { builtinDir: builtinPluginDir });
    try {
      assert.deepEqual((await send(service.url, `/v1/${GROUP}/reach`, { body: {} })).json, { write: 'allowed', exec: 'allowed' });
    } finally {
      await service.stop();
    }
  });

  it('start from a service that runs under the permission model itself (the launch line of docs/writing-a-plugin.md), whose built-ins still answer', async () => {
    // Node 20 names it --experimental-permission; Node 22.13 and 23.5 onwards, --permission.
    const flag = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
    // Node 26's model also restricts the network unless allowed (Node 20's has no such flag): the service listens.
    const network = process.allowedNodeEnvironmentFlags.has('--allow-net') ? ['--allow-net'] : [];
    const dir = tempFolder('toolshed-permission-');
    const config = path.join(dir, 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(isolatedPlugins)}]\noperations:\n  warmUp: false\n`);
    const bin = fileURLToPath(new URL('../../bin/toolshed.js', import.meta.url));
    // The service starts each contained plugin's processes itself: it needs --allow-child-process, and they get flags of their own.
    const child = spawn(process.execPath, [flag, '--allow-fs-read=*', '--allow-worker', '--allow-child-process', ...network, bin, 'serve'], {
      env: { PATH: process.env.PATH, TOOLSHED_CONFIG: config, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      await until(() => /"msg":"listening"/.test(output) || child.exitCode !== null);
      const url = /"url":"([^"]+)","operations":\d+,"msg":"listening"/.exec(output)?.[1];
      assert.ok(url !== undefined, `the service started under ${flag}`);
      assert.deepEqual((await send(url, `/v1/${GROUP}/reach`, { body: {} })).json, { write: 'ERR_ACCESS_DENIED', exec: 'ERR_ACCESS_DENIED' });
      assert.deepEqual((await send(url, '/v1/base64/encode', { body: { text: 'hi' } })).json, { base64: 'aGk=' });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
