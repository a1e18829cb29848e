// The `toolshed` executable as an operator runs it: its exact stdout, stderr and exit code. Where
// the process is the subject (each exit code as the shell sees it, stdin, `serve` and its signals
// and refusal, what a command loads) bin/toolshed.js runs in a child process; the other answers of
// the commands come from the runCli that cli/main.ts runs, in this process (test/support/cli.ts).
// `call` is held to the HTTP service's answers for the same bodies.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { builtinPluginDir } from '../kernel/host/index.js';
import { startToolshed as start, toolshed, toolshedInProcess, type CliOutcome } from './support/cli.js';
import { send } from './support/http.js';
import { buildTestService, externalPlugins, fixtures, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

async function tempFile(name: string, text: string): Promise<string> {
  const file = path.join(tempFolder('toolshed-cli-'), name);
  await writeFile(file, text);
  return file;
}

describe('toolshed call', () => {
  it('answers on stdout, from an argument or from stdin', async () => {
    // "hi" is 0x68 0x69: 011010 000110 1001(00) → a G k, padded with one "=" (RFC 4648 §4).
    assert.deepEqual(await toolshedInProcess(['call', 'base64/encode', '{"text":"hi"}']), { code: 0, stdout: '{"base64":"aGk="}\n', stderr: '' });
    assert.deepEqual(await toolshed(['call', 'base64/encode', '-'], '{"text":"hi"}'), { code: 0, stdout: '{"base64":"aGk="}\n', stderr: '' });
  });

  it('writes a refusal as the contract\'s error body on stderr and exits 1', async () => {
    const details = '[{"path":"/text","message":"must be a string"}]';
    const body = `{"error":{"code":"validation_failed","message":"The request body does not match the schema","details":${details}}}\n`;
    assert.deepEqual(await toolshed(['call', 'base64/encode', '{"text":1}']), { code: 1, stdout: '', stderr: body });
  });

  it('names the nearest operation for an unknown one and exits 2', async () => {
    const outcome = await toolshed(['call', 'base64/encdoe', '{"text":"hi"}']);
    assert.equal(outcome.code, 2);
    assert.equal(outcome.stdout, '');
    assert.equal(outcome.stderr.split('\n')[0], 'toolshed: There is no operation "base64/encdoe". Did you mean base64/encode? "toolshed openapi" lists every operation.');
  });

  describe('gives the answers the HTTP service gives', () => {
    // The service answers in process (its answers are the subject, not its socket).
    let service: InProcessService;
    let configFile: string;
    before(async () => {
      // The built-in plugins and the fixture plugins, with a short budget for work on the pool; the
      // probe is trusted, so its operations run where they choose (spin on the pool, the rest here).
      const config = { plugins: { dirs: [externalPlugins], trusted: ['kernel-probe'] }, workers: { requestBudgetMs: 300 } };
      service = await buildTestService(config, { builtinDir: builtinPluginDir });
      configFile = await tempFile('probe.yaml', JSON.stringify(config));
    });
    after(() => service.stop());

    const cases: [string, string][] = [
      ['base64/encode', '{"text":1,"extra":true}'], // 400 validation_failed, two details
      ['base64/encode', '{"text": "hi",'], // 400 invalid_json with a position
      ['base64/encode', '[1]'], // 400: not an object
      ['kernel-probe/declared', ''], // 400 invalid_json: an empty body is not {}
      ['base64/decode', '{"base64":"!!"}'], // 422 invalid_base64
      ['kernel-probe/echo', '{"text":"x"}'], // 200 with defaults filled
      ['kernel-probe/declared', '{}'], // 422 declared by the plugin
      ['kernel-probe/spin', '{}'], // offload 'always': 422 input_too_complex once the 300 ms budget is spent
      ['kernel-probe/upstream', '{}'], // 502 upstream_error
      ['base64/encode', JSON.stringify({ text: 'x'.repeat(70_000) })], // over workers.offloadBytes: on the pool
      ['base64/encode', JSON.stringify({ text: 1, pad: 'x'.repeat(70_000) })], // a 400 from the pool
    ];
    for (const [target, body] of cases) {
      it(`${target} ${body.slice(0, 40)}`, async () => {
        const answer = await send(service.url, `/v1/${target}`, { body, headers: { 'Content-Type': 'application/json' } });
        const outcome = await toolshedInProcess(['call', target, body, '--config', configFile]);
        if (answer.status < 400) assert.deepEqual(outcome, { code: 0, stdout: `${answer.text}\n`, stderr: '' });
        else assert.deepEqual(outcome, { code: answer.status < 500 ? 1 : 3, stdout: '', stderr: `${answer.text}\n` });
      });
    }
  });

  it('names a plugin bug\'s type, never its message, and exits 3', async () => {
    const configFile = await tempFile('probe.yaml', `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n  trusted: [kernel-probe]\n`);
    // The probe's crash throws TypeError("cannot handle <text>"): the message would quote the input.
    const outcome = await toolshed(['call', 'kernel-probe/crash', '{"text":"MARKER-51c"}', '--config', configFile]);
    const message = 'An internal error occurred in kernel-probe.crash (TypeError); this is a bug in the plugin';
    assert.deepEqual(outcome, { code: 3, stdout: '', stderr: `{"error":{"code":"internal_error","message":"${message}"}}\n` });
  });
});

describe('toolshed config', () => {
  it('check prints every problem of a file and exits 1', async () => {
    const file = await tempFile('bad.yaml', 'server:\n  port: 70000\nrateLimit:\n  windowSeconds: 0\n');
    const expected = 'Invalid configuration:\n- /server/port: must be <= 65535\n- /rateLimit/windowSeconds: must be >= 1\n';
    assert.deepEqual(await toolshed(['config', 'check', file]), { code: 1, stdout: expected, stderr: '' });
  });

  it('check names kernel, plugin-section and plugin-name problems together', async () => {
    // One pass names every kind: a kernel section, a plugin section, a key no one owns, a group name.
    const file = await tempFile('bad.yaml', 'log:\n  level: loud\ndns:\n  timeoutMs: 0\ncolour: blue\nplugins:\n  disabled: [no-such-group]\n');
    const outcome = await toolshedInProcess(['config', 'check', file]);
    assert.equal(outcome.code, 1);
    assert.deepEqual(outcome.stdout.split('\n').slice(1, -1).sort(), [
      '- /colour: is not a known configuration key',
      '- /dns/timeoutMs: must be >= 1',
      '- /log/level: must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent"',
      '- /plugins/disabled/0: "no-such-group" matches no plugin group',
    ]);
  });

  it('check and serve name the same problems, every one of them (the kernel, a plugin section, a group name)', async () => {
    const file = await tempFile('bad.yaml', 'server:\n  port: 70000\nrateLimit:\n  windowSeconds: 0\ndns:\n  timeoutMs: 0\nplugins:\n  disabled: [dns-lokup]\n');
    const problems =
      'Invalid configuration:\n- /server/port: must be <= 65535\n- /rateLimit/windowSeconds: must be >= 1\n- /dns/timeoutMs: must be >= 1\n' +
      '- /plugins/disabled/0: "dns-lokup" matches no plugin group; did you mean "dns-lookup"?\n';
    assert.deepEqual(await toolshedInProcess(['config', 'check', file]), { code: 1, stdout: problems, stderr: '' });
    assert.deepEqual(await toolshed(['serve', '--config', file]), { code: 1, stdout: '', stderr: `Toolshed could not start.\n${problems}` });
  });

  it('refuses a group pattern that matches no group, naming the nearest, and suggests the key meant', async () => {
    // "hsh-*" is one edit (an inserted "a") and a wildcard away from hash-generator; "hots" is
    // "host" with two letters swapped; "rateLimits" is rateLimit plus an "s".
    const file = await tempFile('typos.yaml', 'server:\n  hots: 0.0.0.0\nrateLimits: {}\nplugins:\n  enabled: [base64, "hsh-*"]\n');
    const problems =
      'Invalid configuration:\n- /server/hots: is not an allowed property; did you mean "host"?\n' +
      '- /rateLimits: is not a known configuration key; did you mean "rateLimit"?\n' +
      '- /plugins/enabled/1: "hsh-*" matches no plugin group; did you mean "hash-generator"?\n';
    assert.deepEqual(await toolshedInProcess(['config', 'check', file]), { code: 1, stdout: problems, stderr: '' });
    assert.deepEqual(await toolshed(['serve', '--config', file]), { code: 1, stdout: '', stderr: `Toolshed could not start.\n${problems}` });
  });

  it('check reports a plugin that does not load next to the other problems', async () => {
    const folder = path.join(fixtures, 'bad-plugins', 'folder-mismatch');
    const file = await tempFile('bad.yaml', `server:\n  port: -1\nplugins:\n  dirs: [${JSON.stringify(folder)}]\n`);
    const plugin = path.join(folder, 'wrong-name', 'index.js');
    const expected =
      'Invalid configuration, and a plugin cannot be loaded:\n- /server/port: must be >= 0\n' +
      `- /plugins: Cannot load the plugin ${plugin}:\n  - the folder is named "wrong-name" but the group is "right-name"; they must be equal\n`;
    assert.deepEqual(await toolshedInProcess(['config', 'check', file]), { code: 1, stdout: expected, stderr: '' });
  });

  it("check and serve refuse a configuration section claimed twice, a built-in's or another plugin's, naming both (issue 45, finding 2)", async () => {
    const dir = path.join(fixtures, 'section-claimants');
    const file = await tempFile('claims.yaml', `plugins:\n  dirs: [${JSON.stringify(dir)}]\n`);
    const at = (group: string): string => path.join(dir, group, 'index.js');
    const problems =
      'Invalid configuration:\n' +
      `- /shared: is claimed by two plugins, also-shared (${at('also-shared')}) and claims-shared (${at('claims-shared')}): a configuration section belongs to one plugin\n` +
      `- /regex: is claimed by two plugins, regex-tester (built in) and regex-thief (${at('regex-thief')}): a configuration section belongs to one plugin\n`;
    assert.deepEqual(await toolshedInProcess(['config', 'check', file]), { code: 1, stdout: problems, stderr: '' });
    assert.deepEqual(await toolshed(['serve', '--config', file]), { code: 1, stdout: '', stderr: `Toolshed could not start.\n${problems}` });
    // A replacement of regex-tester (its group, in plugins.disabled) takes its section with its place.
    const replacing = await tempFile('replacing.yaml', `plugins:\n  dirs: [${JSON.stringify(path.join(fixtures, 'section-replacement'))}]\n  disabled: [regex-tester]\n`);
    assert.deepEqual(await toolshedInProcess(['config', 'check', replacing]), { code: 0, stdout: `The configuration is valid (${replacing}): 30 plugins, 58 operations enabled.\n`, stderr: '' });
  });

  it('check passes the defaults and counts what they serve', async () => {
    // 30 groups and 58 operations: the contract's count (README).
    const expected = 'The configuration is valid (the defaults): 30 plugins, 58 operations enabled.\n';
    assert.deepEqual(await toolshed(['config', 'check']), { code: 0, stdout: expected, stderr: '' });
  });

  it('print shows the merged configuration with key digests and the Redis password masked', async () => {
    const digest = createHash('sha256').update('tsk_example').digest('hex');
    const file = await tempFile('keys.yaml', `auth:\n  apiKeys:\n    - { name: ci, sha256: "${digest}" }\nrateLimit:\n  redis: { url: "redis://:hunter2@127.0.0.1:6379" }\ndns:\n  timeoutMs: 2500\n`);
    const outcome = await toolshedInProcess(['config', 'print', file]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.ok(!outcome.stdout.includes(digest) && !outcome.stdout.includes('hunter2'));
    const printed = parseYaml(outcome.stdout) as Record<string, Record<string, unknown>>;
    assert.deepEqual(printed.auth, { apiKeys: [{ name: 'ci', sha256: '…' }], required: false });
    assert.deepEqual(printed.rateLimit!.redis, { url: 'redis://:…@127.0.0.1:6379', unavailable: 'local', commandTimeoutMs: 100 });
    // The file's value over the default one; a default the file does not touch.
    assert.equal((printed.dns as { timeoutMs: number }).timeoutMs, 2500);
    assert.equal(printed.server!.port, 8080);
  });

  it('print shows each enabled plugin\'s section and no disabled plugin\'s (docs/cli.md)', async () => {
    assert.match((await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8')).replace(/\s+/g, ' '), /each enabled plugin's section as that plugin resolved it/);
    const file = await tempFile('disabled.yaml', 'plugins:\n  disabled: [dns-lookup]\n');
    const printed = parseYaml((await toolshedInProcess(['config', 'print', file])).stdout) as Record<string, unknown>;
    // dns is dns-lookup's section (config/default.yaml has it); regex is regex-tester's, enabled.
    assert.equal(printed.dns, undefined);
    assert.equal((printed.regex as { timeoutMs: number }).timeoutMs, 1000);
    assert.deepEqual((printed.plugins as { disabled: string[] }).disabled, ['dns-lookup']);
  });

  it('print shows the saved recipes the service serves (docs/cli.md, issue 47)', async () => {
    assert.match((await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8')).replace(/\s+/g, ' '), /and the saved recipes \(`recipes:`, each served as `POST \/v1\/recipes\/<name>`\)/);
    const saved = { 'jwt-in-base64': { summary: 'Decode a JWT wrapped in Base64', steps: [{ operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] } };
    const file = await tempFile('saved.yaml', JSON.stringify({ recipes: saved }));
    const outcome = await toolshedInProcess(['config', 'print', file]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.deepEqual((parseYaml(outcome.stdout) as { recipes?: unknown }).recipes, saved);
    // The printed configuration starts a service that serves the recipe: it is the whole of it.
    const printed = await tempFile('printed.yaml', outcome.stdout);
    const served = JSON.parse((await toolshedInProcess(['openapi', '--config', printed])).stdout) as { paths: Record<string, unknown> };
    assert.ok('/v1/recipes/jwt-in-base64' in served.paths);
  });
});

describe('toolshed openapi', () => {
  it('prints the document of the enabled plugins: 58 operations by default, and recipes/run and recipes/identify', async () => {
    const outcome = await toolshedInProcess(['openapi']);
    assert.equal(outcome.code, 0, outcome.stderr);
    const document = JSON.parse(outcome.stdout) as { paths: Record<string, { post?: unknown }> };
    assert.equal(Object.values(document.paths).filter((item) => item.post !== undefined).length, 58 + 2);
    assert.ok(document.paths['/v1/recipes/run'] !== undefined && document.paths['/v1/recipes/identify'] !== undefined);
  });

  it('prints what GET /v1/openapi.json serves for the same configuration', async () => {
    const config = { plugins: { dirs: [externalPlugins], disabled: ['dns-lookup'] } };
    const service = await buildTestService(config, { builtinDir: builtinPluginDir });
    try {
      const served = await send(service.url, '/v1/openapi.json', { method: 'GET' });
      const outcome = await toolshedInProcess(['openapi', '--config', await tempFile('c.yaml', JSON.stringify(config))]);
      assert.deepEqual(JSON.parse(outcome.stdout), served.json);
    } finally {
      await service.stop();
    }
  });
});

describe('toolshed keys new', () => {
  // One run for both tests: what it printed, and every module it loaded (test/support/module-log.ts).
  let outcome: CliOutcome;
  let loaded: string[];
  before(async () => {
    const log = path.join(tempFolder('toolshed-cli-'), 'modules.txt');
    const hook = new URL('./support/module-log.js', import.meta.url).href;
    outcome = await start(['keys', 'new', 'ci'], { node: ['--import', hook], env: { MODULE_LOG: log } }).outcome;
    loaded = (await readFile(log, 'utf8')).split('\n');
  });

  it('prints a tsk_ key once and the entry holding its SHA-256', () => {
    assert.equal(outcome.code, 0);
    const match = /^API key \(give it to the client once; it is not stored anywhere\):\n {2}(tsk_[0-9A-Za-z]{32})\n\nAdd this entry under auth\.apiKeys in your configuration file:\n {2}- \{ name: ci, sha256: "([0-9a-f]{64})" \}\n$/.exec(outcome.stdout);
    assert.ok(match, outcome.stdout);
    assert.equal(createHash('sha256').update(match[1]!).digest('hex'), match[2]);
  });

  it('loads neither the HTTP stack nor a plugin to make it, only the key format', () => {
    assert.ok(loaded.some((url) => url.endsWith('/dist/kernel/http/api-keys.js')), loaded.join('\n'));
    // Koa is bundled under dist/kernel/http/vendor/; the built-in plugins are under dist/plugins/.
    assert.deepEqual(loaded.filter((url) => /\/dist\/kernel\/http\/(?!api-keys\.js$)|\/dist\/plugins\//.test(url)), []);
  });
});

describe('toolshed help and usage', () => {
  it('answers --help on every command and group with its usage, exit 0', async () => {
    const helps: [string[], string][] = [
      [['--help'], 'Usage: toolshed <command>'],
      [['-h'], 'Usage: toolshed <command>'],
      [['serve', '--help'], 'Usage: toolshed serve [options]'],
      [['call', '--help'], 'Usage: toolshed call <group>/<operation> [json | -] [options]'],
      [['call', 'base64/encode', '-h'], 'Usage: toolshed call <group>/<operation>'],
      [['openapi', '--help'], 'Usage: toolshed openapi [options]'],
      [['config', '--help'], 'Usage: toolshed config <command>'],
      [['config', 'check', '--help'], 'Usage: toolshed config check [file]'],
      [['config', 'print', '--help'], 'Usage: toolshed config print [file]'],
      [['keys', '--help'], 'Usage: toolshed keys <command>'],
      [['keys', 'new', '--help'], 'Usage: toolshed keys new <name>'],
      [['plugin', '--help'], 'Usage: toolshed plugin <command>'],
      [['plugin', 'new', '--help'], 'Usage: toolshed plugin new <group> [dir] [options]'],
      [['plugin', 'check', '--help'], 'Usage: toolshed plugin check <folder | package> [options]\n'],
      [['plugin', 'dev', '--help'], 'Usage: toolshed plugin dev <folder> [options]'],
      [['recipe', '--help'], 'Usage: toolshed recipe <command>'],
      [['recipe', 'run', '--help'], 'Usage: toolshed recipe run <file | -> [options]'],
      [['identify', '--help'], 'Usage: toolshed identify <text | -> [options]'],
    ];
    for (const [args, usage] of helps) {
      const outcome = await toolshedInProcess(args);
      assert.equal(outcome.code, 0, args.join(' '));
      assert.equal(outcome.stderr, '');
      assert.ok(outcome.stdout.startsWith(usage), `${args.join(' ')}: ${outcome.stdout}`);
    }
  });

  it('answers --help on a group with its usage, options and every command\'s exit codes (docs/cli.md)', async () => {
    const cliDoc = (await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
    assert.match(cliDoc, /Every command and group answers `--help` \(or `-h`\) with its usage, options and exit codes/);
    for (const [group, commands] of [['config', ['check', 'print']], ['keys', ['new']], ['plugin', ['new', 'check', 'dev']]] as const) {
      const { stdout } = await toolshedInProcess([group, '--help']);
      assert.match(stdout, /\nOptions:\n {2}-h, --help/, group);
      assert.match(stdout, /\nExit codes: 0 this help, 2 usage error/, group);
      for (const command of commands) assert.match(stdout, new RegExp(`\\n {2}${group} ${command}: 0 `), `${group} ${command}`);
    }
  });

  it('prints the package version and the contract version', async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    // 1.0.0: the contract's version, as the README states it ("version 1.0.0, beta").
    assert.deepEqual(await toolshed(['--version']), { code: 0, stdout: `toolshed ${version} (API 1.0.0)\n`, stderr: '' });
  });

  it('refuses a wrong command line with a message on stderr and exit 2', async () => {
    const wrong: [string[], string][] = [
      [[], 'toolshed: Name a command.'],
      [['nope'], 'toolshed: "nope" is not a command.'],
      [['config'], 'toolshed: "config" needs a command: check, print.'],
      [['keys', 'old'], 'toolshed: "keys old" is not a command; "keys" has new.'],
      [['serve', '--nope'], 'toolshed: Unknown option \'--nope\'.'],
      [['serve', '--port'], 'toolshed: Option \'--port <value>\' argument missing'],
      [['call'], 'toolshed: Missing an argument: <group>/<operation> [json | -].'],
      [['openapi', 'extra'], 'toolshed: Too many arguments (it takes none).'],
      [['keys', 'new'], 'toolshed: Missing an argument: <name>.'],
      [['keys', 'new', 'a b'], 'toolshed: The key name may hold letters, digits, ".", "_" and "-" (at most 64).'],
      [['plugin', 'new'], 'toolshed: Missing an argument: <group> [dir].'],
      [['plugin', 'new', 'my-tool', 'dir', 'extra'], 'toolshed: Too many arguments (it takes <group> [dir]).'],
      [['plugin', 'new', 'my-tool', '--force'], 'toolshed: Unknown option \'--force\'.'],
    ];
    for (const [args, message] of wrong) {
      const outcome = await toolshedInProcess(args);
      assert.equal(outcome.code, 2, args.join(' '));
      assert.equal(outcome.stdout, '');
      assert.ok(outcome.stderr.startsWith(message), `${args.join(' ')}: ${outcome.stderr}`);
    }
  });
});

describe('toolshed serve', () => {
  it('serves /healthz on a free port and exits 0 on SIGTERM', async () => {
    const { child, outcome } = start(['serve', '--port', '0', '--host', '127.0.0.1']);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.once('close', () => reject(new Error(`serve ended before listening: ${output}`)));
      const look = (): void => {
        const found = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1];
        if (found === undefined) child.stdout!.once('data', look);
        else resolve(found);
      };
      look();
    });
    const health = await send(url, '/healthz', { method: 'GET' });
    assert.deepEqual([health.status, health.json], [200, { status: 'ok' }]);
    child.kill('SIGTERM');
    assert.equal((await outcome).code, 0);
  });

  it('says why it cannot start and exits 1', async () => {
    const expected = 'Toolshed could not start.\nInvalid configuration:\n- /server/port: must be <= 65535\n';
    assert.deepEqual(await toolshed(['serve', '--port', '70000']), { code: 1, stdout: '', stderr: expected });
  });
});
