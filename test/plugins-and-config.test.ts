// Plugin discovery, enable/disable, third-party plugins and configuration, as an operator meets them.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig, mergeConfig, validateCoreConfig } from '../kernel/host/config.js';
import { discoverPlugins } from '../kernel/host/discover.js';
import { send } from './support/http.js';
import { externalPlugins, fixtures, buildTestService, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const badPlugins = path.join(fixtures, 'bad-plugins');
const defaults = new URL('../../config/default.yaml', import.meta.url);
const services: InProcessService[] = [];
after(() => Promise.all(services.map((service) => service.stop())));

async function failsToLoad(dir: string, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(discoverPlugins({ builtinDir: path.join(badPlugins, dir), dirs: [], packages: [] }), (error: Error) => {
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

describe('plugin discovery stops the start, naming the file', () => {
  it('refuses a default export not made with definePlugin', () =>
    failsToLoad('not-a-manifest', /broken\/index\.js/, /not made with definePlugin/));
  it('refuses a folder named differently from its group', () =>
    failsToLoad('folder-mismatch', /wrong-name\/index\.js/, /folder is named "wrong-name" but the group is "right-name"/));
  it('refuses a plugin built for another SDK range', () => failsToLoad('sdk-range', /future\/index\.js/, /needs SDK \^2\.0\.0, this kernel has 1\.0\.0/));
  it('refuses a schema that does not compile and an open object', () =>
    failsToLoad('bad-schema', /bad-schema\/index\.js/, /body does not compile/, /response # must set additionalProperties/));
  it('refuses a file that does not even parse', () => failsToLoad('syntax-error', /oops\/index\.js/));
  it('refuses a plugin that throws while it loads, naming it and its error', () =>
    failsToLoad('throws-at-load', /thrower\/index\.js/, /cannot start without its data file/));
  it('refuses two plugins of the same group', async () => {
    await assert.rejects(
      // The same folder configured twice: every group in it arrives a second time. (A third-party
      // plugin of a built-in's group is a replacement, see plugin-loading.test.ts.)
      discoverPlugins({ builtinDir: null, dirs: [externalPlugins, externalPlugins], packages: [] }),
      /greeting\/index\.js[\s\S]*"greeting" is already provided by .*external-plugins\/greeting\/index\.js/,
    );
  });
  it('refuses a configured package that does not exist', async () => {
    await assert.rejects(discoverPlugins({ builtinDir: externalPlugins, dirs: [], packages: ['toolshed-no-such-plugin'] }), /package toolshed-no-such-plugin/);
  });
});

describe('third-party plugins', () => {
  it('loads a plugin written against the SDK alone from plugins.dirs and serves it over HTTP', async () => {
    const empty = tempFolder('toolshed-builtin-');
    const warmedBefore = (globalThis as { greetingWarmed?: number }).greetingWarmed ?? 0;
    const service = await buildTestService({ plugins: { dirs: [externalPlugins] } }, { builtinDir: empty });
    services.push(service);
    // Contained (issue 38): its module is imported, and warmed, in its own workers only, never on this thread.
    assert.equal((globalThis as { greetingWarmed?: number }).greetingWarmed ?? 0, warmedBefore, 'not imported on the main thread');
    assert.ok(service.logs.some((line) => line.includes('"msg":"plugins warmed"')));
    const hello = await send(service.url, '/v1/greeting/hello', { body: { name: 'Grace', shout: true } });
    assert.deepEqual(hello.json, { greeting: 'HELLO, GRACE!' });
    const blank = await send(service.url, '/v1/greeting/hello', { body: { name: ' ' } });
    assert.deepEqual(blank.json, { error: { code: 'nobody_to_greet', message: 'Give a name that is not blank' } });
  });
});

describe('enabled and disabled groups', () => {
  it('answers 404 for a disabled group and leaves it out of the OpenAPI document', async () => {
    const service = await buildTestService({ plugins: { disabled: ['kernel-*'] } });
    services.push(service);
    assert.equal((await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' } })).status, 404);
    assert.equal((await send(service.url, '/v1/greeting/hello', { body: { name: 'x' } })).status, 200);
    const document = (await send(service.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(document.paths), ['/v1/greeting/hello', '/v1/recipes/run', '/v1/recipes/identify']);
  });

  it('mounts only the enabled groups', async () => {
    const service = await buildTestService({ plugins: { enabled: ['greeting'] } });
    services.push(service);
    assert.equal((await send(service.url, '/v1/kernel-probe/echo', { body: { text: 'x' } })).status, 404);
  });

  it('refuses to start when enabled or disabled name a group that does not exist (a typo would go unnoticed)', async () => {
    await assert.rejects(buildTestService({ plugins: { disabled: ['greetng'] } }), /\/plugins\/disabled\/0: "greetng" matches no plugin group; did you mean "greeting"\?/);
  });
});

describe('configuration', () => {
  it('reads config/default.yaml with the documented defaults', async () => {
    const config = await loadConfig({}, defaults);
    assert.deepEqual(config.server, {
      host: '127.0.0.1',
      port: 8080,
      trustProxy: 0,
      shutdownTimeoutMs: 10000,
      drainDelayMs: 0,
      writeTimeoutMs: 30000,
      headersTimeoutMs: 20000,
      requestTimeoutMs: 60000,
      maxAnswerBytes: 32 * 1024 * 1024,
      readingBytes: 128 * 1024 * 1024,
      readingBytesPerClient: 32 * 1024 * 1024,
      minBodyBytesPerSecond: 1024,
      bodyRateGraceMs: 5000,
      sendingBytes: 128 * 1024 * 1024,
      sendingBytesPerClient: 32 * 1024 * 1024,
      maxConnections: 10000,
      connectionsPerClient: 1024,
    });
    assert.deepEqual(config.workers, { threads: 2, memoryMb: 256, maxQueue: 256, idleMs: 30000, niceness: 10, offloadBytes: 65536, linearOffloadBytes: 262144, requestBudgetMs: 10000 });
    assert.deepEqual(config.rateLimit, { anonymous: { max: 30 }, apiKey: { max: 600 }, windowSeconds: 60, redis: { unavailable: 'local', commandTimeoutMs: 100 } });
    assert.deepEqual(config.auth, { apiKeys: [], required: false });
    assert.deepEqual(config.cors, { origins: ['*'] });
    assert.deepEqual(config.plugins, { dirs: [], packages: [], enabled: ['*'], disabled: [], trusted: [], workers: { processes: 1, pipeline: 16, maxQueue: 16, memoryMb: 256, rssMb: 512 }, limits: {}, env: {}, grants: {}, user: 'auto' });
    assert.deepEqual(config.operations, { deadlineMs: 10000, groupDeadlineMs: {}, warmUp: true });
    assert.deepEqual(config.watchdog, { blockedMs: 100 });
    assert.deepEqual(config.dns, { resolvers: { cloudflare: 'https://cloudflare-dns.com/dns-query', google: 'https://dns.google/dns-query' }, timeoutMs: 5000 });
    assert.deepEqual(config.regex, { timeoutMs: 1000 });
  });

  it('merges TOOLSHED_CONFIG over the defaults, then PORT and HOST over both', async () => {
    const dir = tempFolder('toolshed-config-');
    const file = path.join(dir, 'local.yaml');
    await writeFile(file, 'server:\n  port: 9000\nrateLimit:\n  anonymous:\n    max: 5\n');
    const config = await loadConfig({ TOOLSHED_CONFIG: file, HOST: '0.0.0.0' }, defaults);
    assert.equal(config.server.port, 9000);
    assert.equal(config.server.host, '0.0.0.0');
    assert.deepEqual(config.rateLimit.anonymous, { max: 5 });
    assert.deepEqual(config.rateLimit.apiKey, { max: 600 }, 'sibling keys keep their defaults');
    assert.equal((await loadConfig({ TOOLSHED_CONFIG: file, PORT: '7001' }, defaults)).server.port, 7001);
  });

  it('stops the start naming every bad key', async () => {
    const dir = tempFolder('toolshed-config-');
    const file = path.join(dir, 'bad.yaml');
    await writeFile(file, 'server:\n  port: "eighty"\n  colour: blue\nrateLimit:\n  windowSeconds: 0\nauth:\n  apiKeys: [{ name: ci, sha256: nothex }]\n');
    await assert.rejects(loadConfig({ TOOLSHED_CONFIG: file }, defaults), (error: ConfigError) => {
      assert.ok(error instanceof ConfigError);
      const paths = error.problems.map((problem) => problem.path).sort();
      assert.deepEqual(paths, ['/auth/apiKeys/0/sha256', '/rateLimit/windowSeconds', '/server/colour', '/server/port']);
      assert.match(error.message, /\/server\/colour: is not an allowed property/);
      return true;
    });
    await assert.rejects(loadConfig({ PORT: 'abc' }, defaults), /\/server\/port: must be an integer/);
    await assert.rejects(loadConfig({ TOOLSHED_CONFIG: path.join(dir, 'missing.yaml') }, defaults), /Cannot read the configuration file/);
    await writeFile(file, 'server: [unclosed');
    await assert.rejects(loadConfig({ TOOLSHED_CONFIG: file }, defaults), /not valid YAML/);
  });

  it('refuses duplicate key names or digests', () => {
    const digest = 'a'.repeat(64);
    assert.throws(() => validateCoreConfig({ auth: { apiKeys: [{ name: 'a', sha256: digest }, { name: 'a', sha256: digest.toUpperCase() }] } }), (error: ConfigError) => {
      assert.deepEqual(error.problems.map((problem) => problem.path), ['/auth/apiKeys/1/name', '/auth/apiKeys/1/sha256']);
      return true;
    });
  });

  it('checks plugin sections against their plugin and refuses keys nobody owns', async () => {
    await assert.rejects(buildTestService({ probe: { delayMs: -1 }, colour: 'blue' }), (error: ConfigError) => {
      assert.deepEqual(error.problems.map((problem) => `${problem.path} ${problem.message}`).sort(), ['/colour is not a known configuration key', '/probe/delayMs must be >= 0']);
      return true;
    });
  });

  it('merges objects key by key and replaces arrays and scalars', () => {
    assert.deepEqual(mergeConfig({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: null }), { a: { b: 1, c: [3] }, d: null });
  });
});
