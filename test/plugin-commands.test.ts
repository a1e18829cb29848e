// `toolshed plugin check` and `toolshed plugin new`'s refusals, run as an author runs them: their
// exact output and exit code. bin/toolshed.js runs in a child process where the process is the
// subject (exit codes 0 and 1 as the shell sees them, source maps turned on in a process that
// started without them); the other answers come from the runCli cli/main.ts runs, in this process
// (test/support/cli.ts). (A scaffolded plugin's own `npm test`, which runs the check, is in
// scaffold.test.ts; `plugin dev` in plugin-dev.test.ts.)
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { toolshedInProcess } from './support/cli.js';
import { offlineEnv, repoRoot, run, runOk } from './support/packages.js';
import { externalPlugins, fixtures } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const bin = path.join(repoRoot, 'bin', 'toolshed.js');
// The test runner's configuration variables must not leak in; NODE_V8_COVERAGE stays, so the
// commands' code counts toward coverage as in cli.test.ts.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['TOOLSHED_CONFIG', 'PORT', 'HOST', 'NODE_TEST_CONTEXT'].includes(name)));
const toolshed = (args: readonly string[]) => run(process.execPath, [bin, ...args], { cwd: repoRoot, env });
const checkPlugins = path.join(fixtures, 'check-plugins');

/** A configuration file holding `yaml`, in a folder of its own. */
async function configFile(yaml: string): Promise<string> {
  const file = path.join(tempFolder('toolshed-check-config-'), 'config.yaml');
  await writeFile(file, yaml);
  return file;
}

describe('toolshed plugin check', () => {
  it('exits 0 when every example answers as it shows', async () => {
    // greeting's one example: {"name":"Ada"} → {"greeting":"Hello, Ada!"}.
    const outcome = await toolshed(['plugin', 'check', path.join(externalPlugins, 'greeting')]);
    assert.deepEqual(outcome, { code: 0, stdout: 'plugin greeting: loads, and its 1 example of 1 operation answer as shown\n', stderr: '' });
  });

  it('exits 1 naming plugin, operation, example and difference, and the failure of an example that got a 500', async () => {
    const outcome = await toolshed(['plugin', 'check', path.join(fixtures, 'check-plugins', 'wrong-example')]);
    assert.equal(outcome.code, 1);
    assert.equal(outcome.stdout, '');
    const lines = outcome.stderr.split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      'toolshed: plugin wrong-example: examples do not answer as they show:',
      // "abc" upper-cased is "ABC", not the "ABD" the second example shows; the first ("XYZ") is right.
      '- wrong-example/upper example 2 (wrong): /upper: expected "ABD", got "ABC"',
      // The handler reads .length of undefined: a TypeError, thrown at the fixture's line 34.
      '- wrong-example/fails example 1: answered 500 internal_error: ' + lines[2]!.slice(lines[2]!.indexOf('An internal error')),
    ]);
    assert.match(lines[2]!, /\(TypeError at handler \(file:.*\/wrong-example\/index\.js:34:\d+\)\)$/);
    assert.equal(lines.length, 4);
  });

  it('checks a folder not named after its group, noting that plugins.dirs would need the name', async () => {
    // Inside the checkout, so the copy imports the SDK from its node_modules as the fixture does.
    const folder = path.join(await mkdtemp(path.join(repoRoot, 'dist', 'check-')), 'my-greeting');
    await mkdir(folder);
    await copyFile(path.join(externalPlugins, 'greeting', 'index.js'), path.join(folder, 'index.js'));
    const outcome = await toolshedInProcess(['plugin', 'check', folder]);
    assert.deepEqual(outcome, {
      code: 0,
      stdout:
        'note: to be served from plugins.dirs the folder must be named "greeting", not "my-greeting"\n' +
        'plugin greeting: loads, and its 1 example of 1 operation answer as shown\n',
      stderr: '',
    });
    await rm(path.dirname(folder), { recursive: true });
  });

  it('exits 1 with the kernel\'s own reason when the plugin cannot be loaded, and the command that fixes it', async () => {
    // A folder of its own under the private mkdtemp one: a plugin's own folder must be open to others (plugins.user auto).
    const dir = path.join(tempFolder('toolshed-check-'), 'unbuilt');
    await mkdir(dir);
    await writeFile(path.join(dir, 'index.js'), "export { default } from './dist/index.js';\n");
    const outcome = await toolshedInProcess(['plugin', 'check', dir]);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /^toolshed: Cannot load the plugin .*index\.js:\n- Cannot find module .*dist\/index\.js/);
    assert.ok(outcome.stderr.endsWith(`- build it: npm run build in ${dir}\n`), outcome.stderr);
  });

  it('names a field the answer has but its schema does not declare, never its value', async () => {
    const outcome = await toolshedInProcess(['plugin', 'check', path.join(checkPlugins, 'extra-field')]);
    assert.equal(outcome.code, 1);
    const lines = outcome.stderr.split('\n');
    assert.equal(lines[0], 'toolshed: plugin extra-field: examples do not answer as they show:');
    assert.match(lines[1]!, /^- extra-field\/echo example 1: answered 500 internal_error: .*\(the answer breaks the response schema: \/echoed: not declared in the response schema\)$/);
    assert.ok(!outcome.stderr.includes('secret-value'), 'the value (the example\'s text) is not shown');
  });

  it("names a tool a model's client would skip or refuse, with the rule, its clients and the place", async () => {
    // Its one example answers as shown; its body's tuple has a list of item schemas, which OpenAI's function schemas refuse.
    const outcome = await toolshedInProcess(['plugin', 'check', path.join(checkPlugins, 'tuple-field')]);
    assert.deepEqual(outcome, {
      code: 1,
      stdout: '',
      stderr:
        'toolshed: plugin tuple-field: MCP tools a model\'s client would skip or refuse (docs/mcp.md, "Schemas every client takes"):\n' +
        '- tuple-field_sum: array-items (OpenAI) at /properties/point: is an array without an items schema\n',
    });
  });

  it("names the plugin's TypeScript line in the stack of a bug (source maps on, on the pool too)", async () => {
    // ts-stack/src/index.ts line 12 reads `shape.sides!.count` of a shape without sides; built, that is build/index.js line 6.
    const outcome = await toolshed(['plugin', 'check', path.join(checkPlugins, 'ts-stack')]);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /^- ts-stack\/sides example 1: answered 500 internal_error: .*\(TypeError at sidesOf \(.*\/ts-stack\/src\/index\.ts:12:\d+\)\)$/m);
  });

  describe('refuses what `toolshed serve` refuses, in its words', () => {
    it('a group that is built in, unless plugins.disabled names it', async () => {
      const plugin = path.join(checkPlugins, 'builtin-group');
      const refused = await toolshedInProcess(['plugin', 'check', plugin]);
      assert.deepEqual(refused, {
        code: 1,
        stdout: '',
        stderr:
          'toolshed: plugin base64: toolshed serve would not start with it.\nInvalid configuration:\n' +
          `- /plugins: loads "base64" from ${path.join(plugin, 'index.js')}, but that group is built in: to replace the built-in plugin, add "base64" to plugins.disabled\n`,
      });
      // Named in plugins.disabled, it replaces the built-in plugin: serve starts, and the check passes.
      const config = await configFile('plugins:\n  disabled: [base64]\n');
      const replacing = await toolshedInProcess(['plugin', 'check', plugin, '--config', config]);
      assert.deepEqual(replacing, { code: 0, stdout: 'note: to be served from plugins.dirs the folder must be named "base64", not "builtin-group"\nplugin base64: loads, and its 1 example of 1 operation answer as shown\n', stderr: '' });
    });

    it('a group a configured plugin already has', async () => {
      const config = await configFile(`plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n`);
      const outcome = await toolshedInProcess(['plugin', 'check', path.join(fixtures, 'replacement-plugins', 'greeting'), '--config', config]);
      assert.equal(outcome.code, 1);
      assert.match(outcome.stderr, /^toolshed: plugin greeting: toolshed serve would not start with it\.\nA plugin cannot be loaded:\n- \/plugins: Cannot load the plugin .*replacement-plugins\/greeting\/index\.js:\n {2}- the group "greeting" is already provided by .*external-plugins\/greeting\/index\.js\n$/);
    });

    it("a configuration section a built-in plugin has, naming both plugins (issue 45, finding 2)", async () => {
      const plugin = path.join(fixtures, 'section-claimants', 'regex-thief');
      assert.deepEqual(await toolshedInProcess(['plugin', 'check', plugin]), {
        code: 1,
        stdout: '',
        stderr:
          'toolshed: plugin regex-thief: toolshed serve would not start with it.\nInvalid configuration:\n' +
          `- /regex: is claimed by two plugins, regex-tester (built in) and regex-thief (${path.join(plugin, 'index.js')}): a configuration section belongs to one plugin\n`,
      });
    });

    it("the plugin's configuration section as the configuration gives it", async () => {
      const config = await configFile('configured:\n  greeting: 5\n');
      const outcome = await toolshedInProcess(['plugin', 'check', path.join(checkPlugins, 'configured'), '--config', config]);
      assert.deepEqual(outcome, {
        code: 1,
        stdout: '',
        stderr: 'toolshed: plugin configured: toolshed serve would not start with it.\nInvalid configuration:\n- /configured/greeting: must be a string\n',
      });
      // The same section, valid, is the one the examples are answered with.
      const valid = await toolshedInProcess(['plugin', 'check', path.join(checkPlugins, 'configured'), '--config', await configFile('configured:\n  greeting: Hi\n')]);
      assert.equal(valid.code, 1);
      assert.match(valid.stderr, /^- configured\/greet example 1: \/greeting: expected "Hello, Ada", got "Hi, Ada"$/m);
    });
  });

  describe('install scripts, which npm runs as whoever installs the package (issue 45, finding 8)', () => {
    const fixture = path.join(checkPlugins, 'install-scripts');
    const warning =
      'warning: plugin install-scripts: its package.json declares install scripts (postinstall: ' +
      `"node -e \\"require('fs').writeFileSync(require('os').homedir() + '/owned', '')\\"", prepare: "node build.js"), ` +
      "which npm runs as the user who installs it, with that user's environment: install it with npm install --ignore-scripts " +
      '(docs/writing-a-plugin.md, section 7)\n';
    const passed = 'plugin install-scripts: loads, and its 1 example of 1 operation answer as shown\n';

    it('warns of them, naming each, for a plugin folder and for an installed package', async () => {
      assert.deepEqual(await toolshedInProcess(['plugin', 'check', fixture]), { code: 0, stdout: passed, stderr: warning });
      // Installed by name where the kernel resolves packages (as test/plugin-guide.test.ts installs one).
      const installed = path.join(repoRoot, 'dist', 'node_modules', 'toolshed-plugin-install-scripts');
      await rm(installed, { recursive: true, force: true });
      await mkdir(installed, { recursive: true });
      try {
        for (const file of ['index.js', 'package.json']) await copyFile(path.join(fixture, file), path.join(installed, file));
        assert.deepEqual(await toolshedInProcess(['plugin', 'check', 'toolshed-plugin-install-scripts']), { code: 0, stdout: passed, stderr: warning });
      } finally {
        await rm(installed, { recursive: true, force: true });
      }
    });

    it('npm runs a postinstall as the installing user unless --ignore-scripts, as the guide installs', async () => {
      const work = tempFolder('toolshed-install-scripts-');
      const npmEnv = offlineEnv({ HOME: work });
      const pkg = path.join(work, 'pkg');
      await mkdir(pkg);
      // The guide's command, as section 7 of docs/writing-a-plugin.md writes it.
      const guide = await readFile(path.join(repoRoot, 'docs', 'writing-a-plugin.md'), 'utf8');
      assert.match(guide, /^npm install --ignore-scripts ~\/my-plugins\/word-tools\/toolshed-plugin-word-tools-0\.1\.0\.tgz$/m);
      await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: 'owns-home', version: '1.0.0', scripts: { postinstall: "node -e \"require('fs').writeFileSync(require('os').homedir() + '/owned', '')\"" } }));
      await runOk('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: pkg, env: npmEnv });
      const tarball = path.join(work, 'owns-home-1.0.0.tgz');
      for (const [project, flags, runs] of [['ignoring', ['--ignore-scripts'], false], ['plain', [], true]] as const) {
        const cwd = path.join(work, project);
        await mkdir(cwd);
        await writeFile(path.join(cwd, 'package.json'), '{"name":"checkout","version":"1.0.0","private":true}');
        await runOk('npm', ['install', ...flags, tarball], { cwd, env: npmEnv });
        assert.ok(existsSync(path.join(cwd, 'node_modules', 'owns-home', 'package.json')), `${project}: installed`);
        assert.equal(existsSync(path.join(work, 'owned')), runs, `${project}: the postinstall ${runs ? 'ran' : 'did not run'}`);
      }
    });
  });

  it('takes a name that is not a path as an installed package, as plugins.packages does', async () => {
    const outcome = await toolshedInProcess(['plugin', 'check', 'toolshed-plugin-not-installed']);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /^toolshed: Cannot load the plugin package toolshed-plugin-not-installed:/);
    assert.match(outcome.stderr, /- install it: npm install --ignore-scripts toolshed-plugin-not-installed/);
  });
});

describe('toolshed plugin new refuses a group the service already has', () => {
  it('refuses a built-in group, naming the built-in plugin, and writes nothing', async () => {
    const dir = path.join(tempFolder('toolshed-new-'), 'mine');
    const outcome = await toolshedInProcess(['plugin', 'new', 'base64', dir]);
    assert.equal(outcome.code, 1);
    assert.match(outcome.stderr, /^toolshed: The group "base64" is taken: the built-in plugin .*\/dist\/plugins\/base64\/index(\.bundle)?\.js provides it\. Choose another name; nothing was written\.\n$/);
    assert.equal(existsSync(dir), false);
  });

  it('refuses a group the configuration loads, naming where from', async () => {
    const config = path.join(tempFolder('toolshed-new-'), 'config.yaml');
    await writeFile(config, `plugins:\n  dirs: [${JSON.stringify(externalPlugins)}]\n`);
    const dir = path.join(path.dirname(config), 'greeting');
    const outcome = await toolshedInProcess(['plugin', 'new', 'greeting', dir, '--config', config]);
    assert.equal(outcome.code, 1);
    assert.equal(outcome.stderr, `toolshed: The group "greeting" is taken: ${path.join(externalPlugins, 'greeting', 'index.js')} provides it. Choose another name; nothing was written.\n`);
    assert.equal(existsSync(dir), false);
  });
});
