// The systemd steps of docs/deployment.md, run as written (issue 39): deploy/install-systemd.sh
// installs this checkout's build into a scratch folder standing for /, and the installed unit's
// ExecStart, with its paths mapped into that folder, must serve /healthz and stop on SIGTERM. No
// systemd runs here: the unit's Environment and LoadCredential are applied the way systemd applies
// them (the credential copied into a folder `%d` names). The entry point is read from the unit, so
// moving it only changes the unit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import fg from 'fast-glob';
import { send } from './support/http.js';
import { offlineEnv, repoRoot, run } from './support/packages.js';
import { exitOf, listeningUrl } from './support/started-service.js';
import { unitSettings } from './support/unit-file.js';
import { tempFolder } from './support/temp-folder.js';

const script = 'deploy/install-systemd.sh';
const read = (file: string): string => readFileSync(path.join(repoRoot, file), 'utf8');


const scratch = tempFolder('toolshed-systemd-');
/** A path of the real system, inside the scratch folder. */
const mapped = (absolute: string): string => path.join(scratch, absolute);

/** The script's folders, each inside the scratch folder. */
const installEnv = (): NodeJS.ProcessEnv =>
  offlineEnv({ TOOLSHED_PREFIX: mapped('/opt/toolshed'), TOOLSHED_ETC: mapped('/etc/toolshed'), SYSTEMD_UNIT_DIR: mapped('/etc/systemd/system'), TOOLSHED_BIN: mapped('/usr/local/bin') });
/** Text of the installed system (a unit's value, a script) with its /opt/ and /etc/ paths mapped into the scratch folder. */
const mapPaths = (text: string): string => text.replace(/(^|\s|=|:-)(\/(opt|etc)\/)/g, `$1${scratch}$2`);


describe('the systemd steps of docs/deployment.md', () => {
  it('are the script, which the doc runs', async () => {
    const doc = await readFile(path.join(repoRoot, 'docs/deployment.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## systemd'), doc.indexOf('\n## ', doc.indexOf('\n## systemd') + 1));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    assert.match(block, new RegExp(`^npm ci && npm run build\\b.*\\nsudo ${script.replaceAll('.', '\\.')}\\b`, 'm'));
    // Nothing copied by hand beside it: a list of folders is what went stale (issue 39).
    assert.doesNotMatch(block, /\bcp\b/);
  });

  it('install a tree whose ExecStart serves /healthz and stops on SIGTERM', { timeout: 180_000 }, async () => {
    const installed = await run(path.join(repoRoot, script), [], {
      cwd: tmpdir(), // the script finds the checkout itself
      env: installEnv(),
    });
    assert.equal(installed.code, 0, `${installed.stdout}\n${installed.stderr}`);

    // Every folder of the build but the compiled tests: a new front door cannot be left behind.
    const built = (await readdir(path.join(repoRoot, 'dist'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const copied = (await readdir(mapped('/opt/toolshed/dist'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    assert.deepEqual(copied.sort(), built.filter((name) => name !== 'test').sort());
    // Root's only: the configuration may hold a Redis password.
    assert.equal((await stat(mapped('/etc/toolshed/toolshed.yaml'))).mode & 0o777, 0o600);

    const unit = unitSettings(await readFile(mapped('/etc/systemd/system/toolshed.service'), 'utf8'));
    // systemd hands the root-only file over as a credential: a copy in the folder %d names.
    const credentials = path.join(scratch, 'credentials');
    await mkdir(credentials);
    for (const credential of unit.get('LoadCredential') ?? []) {
      const [id = '', source = ''] = credential.split(':');
      await copyFile(mapped(source), path.join(credentials, id));
    }
    const expand = (value: string): string => mapPaths(value.replaceAll('%d', credentials));
    const environment: NodeJS.ProcessEnv = { PATH: process.env.PATH, PORT: '0' }; // PORT: a free port instead of 8080
    for (const assignment of unit.get('Environment') ?? []) {
      const [name = '', ...value] = expand(assignment).split('=');
      environment[name] = value.join('=');
    }
    const [executable = '', ...args] = (unit.get('ExecStart')?.at(-1) ?? '').split(/\s+/);
    assert.equal(executable, '/usr/bin/node', 'docs/deployment.md: Node must be at /usr/bin/node');
    const entry = expand(args[0] ?? '');
    assert.ok(entry.startsWith(mapped('/opt/toolshed/')), `ExecStart runs a file of the installed tree: ${entry}`);

    const child = spawn(process.execPath, [entry, ...args.slice(1).map(expand)], {
      cwd: expand(unit.get('WorkingDirectory')?.at(-1) ?? '/'),
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exit = exitOf(child);
    try {
      const url = await listeningUrl(child);
      const health = await send(url, '/healthz', { method: 'GET' });
      assert.equal(health.status, 200);
      assert.deepEqual(health.json, { status: 'ok' });
      // And an operation: the plugins and the SDK came along.
      const encoded = await send(url, '/v1/base64/encode', { body: { text: 'hi' } });
      assert.equal(encoded.status, 200, encoded.text);
    } finally {
      child.kill('SIGTERM');
    }
    assert.deepEqual(await exit, { code: 0, signal: null });
  });

  it('installed the files the image holds: the same build, without a compiled test', async () => {
    // The image's rule (its build stage), which the script applies to its copy.
    assert.match(read('Dockerfile'), /RUN npm run build && find dist plugin-sdk\/dist -name '\*\.test\.\*' -delete && rm -rf plugin-sdk\/dist\/fixtures\n/);
    // dist/node_modules is where test/plugin-guide.test.ts installs a package while other tests run.
    const files = (cwd: string): Promise<string[]> => fg('**/*', { cwd, dot: true, ignore: ['node_modules/**'] }).then((list) => list.sort());
    const imageRule = (file: string): boolean => !/\.test\./.test(path.basename(file)) && !file.startsWith('fixtures/');
    const built = (await files(path.join(repoRoot, 'dist'))).filter((file) => !file.startsWith('test/') && file !== 'tsconfig.tsbuildinfo' && imageRule(file));
    assert.deepEqual(await files(mapped('/opt/toolshed/dist')), built);
    assert.deepEqual(await files(mapped('/opt/toolshed/plugin-sdk/dist')), (await files(path.join(repoRoot, 'plugin-sdk', 'dist'))).filter(imageRule));
    // docs/deployment.md says so.
    assert.match(read('docs/deployment.md').replace(/\s+/g, ' '), /lays out that tree, the same as the image's \(the compiled `dist\/` and the built SDK without their tests,/);
  });

  it('installed a toolshed command that reads the site\'s configuration, as the doc runs it', async () => {
    const command = await readFile(mapped('/usr/local/bin/toolshed'), 'utf8');
    assert.equal((await stat(mapped('/usr/local/bin/toolshed'))).mode & 0o777, 0o755);
    // The same node as the unit's ExecStart.
    const unit = unitSettings(await readFile(mapped('/etc/systemd/system/toolshed.service'), 'utf8'));
    const node = (unit.get('ExecStart')?.at(-1) ?? '').split(' ')[0]!;
    assert.ok(command.split('\n').includes(`exec ${node} /opt/toolshed/dist/cli/main.js "$@"`), command);
    const runnable = path.join(scratch, 'toolshed-command');
    await writeFile(runnable, mapPaths(command), { mode: 0o755 });
    const site = mapped('/etc/toolshed/toolshed.yaml');
    const toolshed = (...args: string[]) => run(runnable, args, { cwd: tmpdir(), env: { PATH: process.env.PATH } });

    assert.deepEqual(await toolshed('config', 'check'), { code: 0, stdout: `The configuration is valid (${site}): 30 plugins, 58 operations enabled.\n`, stderr: '' });
    await writeFile(site, 'server:\n  hots: 0.0.0.0\n');
    const refused = await toolshed('config', 'check');
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /^- \/server\/hots: is not an allowed property; did you mean "host"\?$/m);
    await writeFile(site, '');
    const key = await toolshed('keys', 'new', 'ci');
    assert.equal(key.code, 0, key.stderr);
    assert.match(key.stdout, /\btsk_[A-Za-z0-9]{32}\b/);

    // The doc's steps check the file with it before the start, and make keys with it.
    const doc = read('docs/deployment.md');
    const section = doc.slice(doc.indexOf('\n## systemd'), doc.indexOf('\n## ', doc.indexOf('\n## systemd') + 1));
    assert.match(/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '', /^sudo toolshed config check\b[^\n]*\nsudo systemctl daemon-reload && sudo systemctl enable --now toolshed\b/m);
    assert.match(doc, /^ *toolshed keys new ci +# on a systemd host/m);
  });

  it('asks for the Node versions CI tests and the image runs', async () => {
    const { engines } = JSON.parse(read('package.json')) as { engines: { node: string } };
    const floor = /^>=(\d+)\.(\d+)\.0$/.exec(engines.node);
    const latest = /^NODE26_VERSION=(\d+)\./m.exec(read('.ci/run'))?.[1];
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read('Dockerfile'))?.[1];
    assert.ok(floor && latest && image);
    const doc = read('docs/deployment.md').replace(/\s+/g, ' ');
    assert.ok(doc.includes(`use Node ${floor[1]}.${floor[2]} or newer: CI tests Node ${floor[1]} and Node ${latest}, and the image runs Node ${image})`), 'the systemd section names them');
  });

  it('refuses to copy over an installed tree', async () => {
    const again = await run(path.join(repoRoot, script), [], {
      cwd: tmpdir(),
      env: installEnv(),
    });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists; install into a new folder/);
  });
});
