// What a contained plugin's processes may do (issue 45 item 1; docs/writing-a-plugin.md, the
// containment table): the user they run as (`plugins.user`), and what the operator may grant them
// beyond reading their own modules (`plugins.grants.<group>`): the network, threads, more files.
// Each row of the table is tried here or in test/plugin-processes.test.ts and test/isolation.test.ts.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { getPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it, type TestContext } from 'node:test';
import { builtinPluginDir } from '../kernel/host/index.js';
import { send } from './support/http.js';
import { buildTestService, fixtures, type InProcessService } from './support/service.js';
import { until } from './support/until.js';
import { tempFolder } from './support/temp-folder.js';

const processPlugins = path.join(fixtures, 'process-plugins');
const GROUP = 'rogue';
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const asRoot = process.getuid?.() === 0;
const NOT_ROOT = 'the tests do not run as root here, and only root may run a plugin as another user';

/**
 * Whether a user who is neither the owner nor in the group may read `file`: every folder above it
 * open to others and the file readable by them. A checkout cloned into `mktemp -d` (mode 700) is not.
 */
function othersMayRead(file: string): boolean {
  try {
    if ((statSync(file).mode & 0o004) === 0) return false;
    for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
      if ((statSync(folder).mode & 0o001) === 0) return false;
      if (folder === path.dirname(folder)) return true;
    }
  } catch {
    return false;
  }
}

/** Starts a service with the rogue plugin, `plugins` merged into its section, stopped after the test. */
async function rogueService(t: TestContext, plugins: Record<string, unknown> = {}, config: Record<string, unknown> = {}): Promise<InProcessService> {
  const service = await buildTestService({ ...config, plugins: { dirs: [processPlugins], ...plugins } }, { builtinDir: builtinPluginDir });
  t.after(() => service.stop());
  return service;
}

/** The real user id of process `pid`. */
const uidOf = (pid: number): number => Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

/** The real user id of the plugin's one process, started by a request. */
async function pluginUid(service: InProcessService): Promise<number> {
  assert.deepEqual((await send(service.url, `/v1/${GROUP}/echo`, { body: { text: 'x' } })).json, { text: 'x' });
  return uidOf(service.host.pluginProcesses.stats().get(GROUP)!.pids[0]!);
}

/** The rogue plugin's section with a second contained plugin beside it: greeting. */
const withGreeting = { dirs: [processPlugins, path.join(fixtures, 'external-plugins')], disabled: ['kernel-probe'] };

/** The pid of greeting's one process, started by a request. */
async function greetingPid(service: InProcessService): Promise<number> {
  assert.deepEqual((await send(service.url, '/v1/greeting/hello', { body: { name: 'Ada' } })).json, { greeting: 'Hello, Ada!' });
  return service.host.pluginProcesses.stats().get('greeting')!.pids[0]!;
}

/** Asserts that `uid` is one `auto` gives a plugin of its own (kernel/host/plugin-process/plugin-users.ts). */
const assertPluginUser = (uid: number): void => assert.ok(uid >= 61184 && uid <= 65519, `uid ${uid} is in the range of plugin users`);

const keptRoot = (service: InProcessService): string[] =>
  service.logs
    .join('')
    .split('\n')
    .filter((line) => line.includes('"msg":"plugin processes run as the service\'s user (root)"'));

describe('the user a contained plugin runs as (plugins.user)', { timeout: 120_000 }, () => {
  it('auto, with the service as root: a user of the plugin\'s own, which may signal and renice neither the service nor another plugin\'s processes', { skip: !asRoot && NOT_ROOT }, async (t) => {
    const service = await rogueService(t, withGreeting);
    if (keptRoot(service).length > 0) return t.skip(`a folder above this checkout is private, so the plugin runs as root here: ${keptRoot(service)[0]}`);
    const rogue = await pluginUid(service);
    // Another contained plugin, started by a request of its own.
    const other = await greetingPid(service);
    const greeting = uidOf(other);
    for (const uid of [rogue, greeting]) assertPluginUser(uid);
    assert.notEqual(rogue, greeting);
    // The start says which id each plugin got: the one a folder of a write grant must be writable by.
    const said = service.logs.join('').split('\n').filter((line) => line.includes('"msg":"plugin processes run as another user"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      said.map(({ plugin, uid, gid }) => ({ plugin, uid, gid })).sort((a, b) => String(a.plugin).localeCompare(String(b.plugin))),
      [{ plugin: 'greeting', uid: greeting, gid: greeting }, { plugin: GROUP, uid: rogue, gid: rogue }],
    );
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/kill-parent`, { body: {} })).json, { kill: 'EPERM', renice: 'EPERM' });
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/signal`, { body: { pid: other } })).json, { signal: 'EPERM', renice: 'EPERM' });
  });

  it('auto keeps the service\'s user, and says why, when a folder above the plugin is private', { skip: !asRoot && NOT_ROOT }, async (t) => {
    // mkdtemp makes a folder only its owner may enter.
    const dir = tempFolder('toolshed-private-');
    await mkdir(path.join(dir, 'plugins', GROUP), { recursive: true });
    await copyFile(path.join(processPlugins, GROUP, 'index.js'), path.join(dir, 'plugins', GROUP, 'index.js'));
    await mkdir(path.join(dir, 'node_modules', '@toolshed'), { recursive: true });
    await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(dir, 'node_modules', '@toolshed', 'plugin-sdk'), 'dir');
    const service = await buildTestService({ plugins: { dirs: [path.join(dir, 'plugins')] } }, { builtinDir: builtinPluginDir });
    t.after(() => service.stop());
    const [line] = keptRoot(service).map((entry) => JSON.parse(entry) as Record<string, unknown>);
    assert.deepEqual([line?.plugin, line?.reason], [GROUP, `${dir} is not readable by other users`]);
    assert.equal(await pluginUid(service), 0);
  });

  it('auto refuses a plugin whose own folder is private rather than run it as root, naming the folder and the two ways out', { skip: !asRoot && NOT_ROOT }, async (t) => {
    // Its modes are its author's: a red-team plugin shipped its folder as 700, ran as root, and killed the service.
    const dir = tempFolder('toolshed-own-private-');
    t.after(() => rm(dir, { recursive: true, force: true }));
    await chmod(dir, 0o755);
    const folder = path.join(dir, 'plugins', GROUP);
    await mkdir(folder, { recursive: true });
    await copyFile(path.join(processPlugins, GROUP, 'index.js'), path.join(folder, 'index.js'));
    await mkdir(path.join(dir, 'node_modules', '@toolshed'), { recursive: true });
    await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(dir, 'node_modules', '@toolshed', 'plugin-sdk'), 'dir');
    await chmod(folder, 0o700);
    await assert.rejects(buildTestService({ plugins: { dirs: [path.join(dir, 'plugins')] } }, { builtinDir: builtinPluginDir }), (error: Error) => {
      assert.equal(
        error.message,
        `Cannot load the plugin ${path.join(folder, 'index.js')}:\n- ${folder} is not readable by other users, so plugins.user auto cannot run it as a user of its own, and does not run a plugin's own private files as root: ` +
          `make them readable (chmod -R o+rX ${folder}) or set plugins.user to service`,
      );
      return true;
    });
    // Opened, the same folder runs: as a user of its own, or as root where a folder above this checkout is private (a CI clone in mktemp -d).
    await chmod(folder, 0o755);
    const service = await buildTestService({ plugins: { dirs: [path.join(dir, 'plugins')] } }, { builtinDir: builtinPluginDir });
    t.after(() => service.stop());
    const uid = await pluginUid(service);
    if (keptRoot(service).length > 0) assert.equal(uid, 0);
    else assertPluginUser(uid);
  });

  it('auto keeps the service\'s user when Node itself is in a private folder, which no other user could start', { skip: !asRoot && NOT_ROOT }, async (t) => {
    // As CI's second leg runs Node 26 from a mkdtemp folder: a plugin process as another user failed to start there.
    const dir = tempFolder('toolshed-private-node-');
    t.after(() => rm(dir, { recursive: true, force: true }));
    const node = path.join(dir, 'node');
    await copyFile(process.execPath, node);
    const configFile = path.join(dir, 'config.yaml');
    await writeFile(configFile, JSON.stringify({ plugins: { dirs: [path.join(fixtures, 'external-plugins')], disabled: ['kernel-probe'] } }));
    const called = spawnSync(node, [path.join(repoRoot, 'bin', 'toolshed.js'), 'call', 'greeting/hello', '{"name":"Ada"}', '--config', configFile], { cwd: repoRoot, encoding: 'utf8' });
    assert.deepEqual([called.status, called.stdout], [0, '{"greeting":"Hello, Ada!"}\n'], called.stderr);
    // Named as that user, it cannot be started, and the start says so in the system's words.
    await writeFile(configFile, JSON.stringify({ plugins: { dirs: [path.join(fixtures, 'external-plugins')], disabled: ['kernel-probe'], user: { uid: 65534, gid: 65534 } } }));
    const refused = spawnSync(node, [path.join(repoRoot, 'bin', 'toolshed.js'), 'call', 'greeting/hello', '{"name":"Ada"}', '--config', configFile], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /greeting\/index\.js:\n {2}- its process could not be started \(EACCES\)\n/);
  });

  it('service: the service\'s own user, which may signal the service (what a plugin still can as the same user)', async (t) => {
    // The test services run at niceness 0 (test/support/service.ts); this one at the default, 10.
    const service = await rogueService(t, { user: 'service' }, { workers: { niceness: 10 } });
    assert.equal(await pluginUid(service), process.getuid?.());
    // It runs at workers.niceness, below the service.
    assert.equal(getPriority(service.host.pluginProcesses.stats().get(GROUP)!.pids[0]), 10);
    // Signal 0 asks the system whether a signal would be delivered, and delivers none.
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/signal`, { body: { pid: process.pid } })).json, { signal: 'allowed', renice: 'allowed' });
  });

  it('{ uid, gid }: that user, for every plugin, so one plugin may signal and renice another\'s processes', { skip: !asRoot && NOT_ROOT }, async (t) => {
    // Such a checkout stops the start itself: the process that reads the manifest cannot read the module.
    if (!othersMayRead(path.join(processPlugins, GROUP, 'index.js'))) return t.skip('this checkout is not readable by uid 65534');
    const service = await rogueService(t, { ...withGreeting, user: { uid: 65534, gid: 65534 } });
    if (keptRoot(service).length > 0 || service.logs.join('').includes('EACCES')) return t.skip('this checkout is not readable by uid 65534');
    assert.equal(await pluginUid(service), 65534);
    // What docs/configuration.md says of one user named for all: unlike auto's, the plugins reach each other.
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/signal`, { body: { pid: await greetingPid(service) } })).json, { signal: 'allowed', renice: 'allowed' });
  });
});

describe('the heap cap of a contained plugin\'s processes (plugins.limits.<group>.memoryMb)', { timeout: 120_000 }, () => {
  it('ends a process whose heap passes it: that request is 502 plugin_crashed naming the plugin, the service answers, and the plugin again', async (t) => {
    const service = await rogueService(t, { limits: { [GROUP]: { memoryMb: 32 } } });
    const share = () => service.host.pluginProcesses.stats().get(GROUP)!;
    const leaked = await send(service.url, `/v1/${GROUP}/leak`, { body: { mb: 64 } });
    const error = (leaked.json as { error: { code: string; message: string } }).error;
    assert.deepEqual([leaked.status, error.code], [502, 'plugin_crashed']);
    // How V8 ends a process out of heap (SIGABRT, SIGTRAP, an exit code) differs between versions; the plugin is named either way.
    assert.match(error.message, new RegExp(`^The plugin ${GROUP} stopped before answering: its process (was ended by SIG[A-Z]+|exited with code \\d+); it is started again for the next request$`));
    assert.equal(share().ends.exited, 1);
    assert.deepEqual((await send(service.url, '/v1/base64/encode', { body: { text: 'foobar' } })).json, { base64: 'Zm9vYmFy' });
    // Under the cap it answers, in a new process.
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/leak`, { body: { mb: 4 } })).json, { done: true });
  });
});

describe('what the operator may grant a contained plugin (plugins.grants.<group>)', { timeout: 120_000 }, () => {
  // Node 26's permission model restricts the network unless --allow-net; Node 20's has no network permission at all.
  const restricts = process.allowedNodeEnvironmentFlags.has('--allow-net');

  it(`the network: ${restricts ? 'none by default on this Node, a connection with net: true' : 'open on this Node (20), whose permission model has no network permission, with or without net: true'}`, async (t) => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    const { port } = server.address() as AddressInfo;
    const plain = await rogueService(t);
    assert.deepEqual((await send(plain.url, `/v1/${GROUP}/connect`, { body: { port } })).json, { connect: restricts ? 'ERR_ACCESS_DENIED' : 'allowed' });
    const granted = await rogueService(t, { grants: { [GROUP]: { net: true } } });
    assert.deepEqual((await send(granted.url, `/v1/${GROUP}/connect`, { body: { port } })).json, { connect: 'allowed' });
  });

  it('file reads: its own folder and modules only, and the files the operator names', async (t) => {
    const plain = await rogueService(t);
    // Its own module is readable; /etc/hostname (readable by every user) is not.
    assert.deepEqual((await send(plain.url, `/v1/${GROUP}/read`, { body: { path: path.join(processPlugins, GROUP, 'index.js') } })).json, { read: 'allowed' });
    assert.deepEqual((await send(plain.url, `/v1/${GROUP}/read`, { body: { path: '/etc/hostname' } })).json, { read: 'ERR_ACCESS_DENIED' });
    const granted = await rogueService(t, { grants: { [GROUP]: { read: ['/etc/hostname'] } } });
    assert.deepEqual((await send(granted.url, `/v1/${GROUP}/read`, { body: { path: '/etc/hostname' } })).json, { read: 'allowed' });
  });

  it('threads (worker: true), which its process takes with it when it is ended after its deadline (finding 6 as reported)', async (t) => {
    const service = await rogueService(t, { grants: { [GROUP]: { worker: true } } }, { operations: { groupDeadlineMs: { [GROUP]: 1000 } } });
    const share = () => service.host.pluginProcesses.stats().get(GROUP)!;
    // Two threads spinning forever, and the answer at once.
    assert.deepEqual((await send(service.url, `/v1/${GROUP}/threads`, { body: {} })).json, { started: 'allowed' });
    const [pid] = share().pids;
    await until(() => share().ends['busy-idle'] === 1);
    assert.deepEqual(share().pids.includes(pid!), false);
    assert.throws(() => readFileSync(`/proc/${pid}/stat`), { code: 'ENOENT' }, 'its process and its threads are gone');
  });
});

describe('links in a contained plugin\'s folder, which Node\'s permission model follows', { timeout: 120_000 }, () => {
  /**
   * The rogue plugin copied into a folder of its own (the SDK linked where npm would put it), with
   * `links` made in its folder: the service started with it, or why it did not start.
   */
  async function startWith(t: TestContext, links: Record<string, string>): Promise<InProcessService | Error> {
    const dir = tempFolder('toolshed-links-');
    t.after(() => rm(dir, { recursive: true, force: true }));
    const folder = path.join(dir, 'plugins', GROUP);
    await mkdir(folder, { recursive: true });
    await copyFile(path.join(processPlugins, GROUP, 'index.js'), path.join(folder, 'index.js'));
    await mkdir(path.join(dir, 'node_modules', '@toolshed'), { recursive: true });
    await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(dir, 'node_modules', '@toolshed', 'plugin-sdk'), 'dir');
    for (const [link, target] of Object.entries(links)) {
      await mkdir(path.dirname(path.join(folder, link)), { recursive: true });
      await symlink(target, path.join(folder, link));
    }
    try {
      const service = await buildTestService({ plugins: { dirs: [path.join(dir, 'plugins')] } }, { builtinDir: builtinPluginDir });
      t.after(() => service.stop());
      return service;
    } catch (error) {
      return error as Error;
    }
  }
  const refusal = (link: string, target: string): string =>
    `- its folder holds a link out of what its processes may read (${link} → ${target}): Node's permission model follows links`;

  it('stop the start, naming the plugin and the link, when one leads out of it: to /proc, or to a file the service reads', async (t) => {
    // Shipped by a red-team plugin: through them it read the service's configuration file and /proc/<service>/cmdline.
    for (const [link, target] of [['proc', '/proc'], ['deep/config.yaml', '/etc/hostname']] as const) {
      const outcome = await startWith(t, { [link]: target });
      assert.ok(outcome instanceof Error, `started with ${link} → ${target}`);
      assert.match(outcome.message, /^Cannot load the plugin .*\/plugins\/rogue\/index\.js:\n/);
      assert.ok(outcome.message.endsWith(refusal(link, target)), outcome.message);
    }
  });

  it('stop the start when one in its node_modules leads to a folder that is not a package: the root, whose whole tree it made readable', async (t) => {
    const outcome = await startWith(t, { 'node_modules/rootfs': '/' });
    assert.ok(outcome instanceof Error, 'started with node_modules/rootfs → /');
    assert.ok(outcome.message.endsWith(refusal('node_modules/rootfs', '/')), outcome.message);
  });

  it('are followed when they stay within it or lead to a package its modules resolve (as npm link makes)', async (t) => {
    const outcome = await startWith(t, { 'alias.js': './index.js', 'node_modules/sdk': path.join(repoRoot, 'plugin-sdk') });
    assert.ok(!(outcome instanceof Error), String(outcome));
    assert.deepEqual((await send(outcome.url, `/v1/${GROUP}/echo`, { body: { text: 'x' } })).json, { text: 'x' });
  });
});
