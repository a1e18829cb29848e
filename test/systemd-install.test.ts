// The systemd steps of docs/deployment.md, run as written (issue 39): deploy/install-systemd.sh
// installs this checkout's build into a scratch folder standing for /, and the installed unit's
// ExecStart, with its paths mapped into that folder, must serve /healthz and stop on SIGTERM. No
// systemd runs here: the unit's Environment and LoadCredential are applied the way systemd applies
// them (the credential copied into a folder `%d` names). The entry point is read from the unit, so
// moving it only changes the unit.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { send } from './support/http.js';
import { offlineEnv, repoRoot, run } from './support/packages.js';
import { exitOf, listeningUrl } from './support/started-service.js';
import { unitSettings } from './support/unit-file.js';

const script = 'deploy/install-systemd.sh';


let scratch: string;
/** A path of the real system, inside the scratch folder. */
const mapped = (absolute: string): string => path.join(scratch, absolute);

before(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'toolshed-systemd-'));
});
after(() => rm(scratch, { recursive: true, force: true }));

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
      env: offlineEnv({ TOOLSHED_PREFIX: mapped('/opt/toolshed'), TOOLSHED_ETC: mapped('/etc/toolshed'), SYSTEMD_UNIT_DIR: mapped('/etc/systemd/system') }),
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
    const expand = (value: string): string => value.replaceAll('%d', credentials).replace(/(^|\s|=)(\/(opt|etc)\/)/g, `$1${scratch}$2`);
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

  it('refuses to copy over an installed tree', async () => {
    const again = await run(path.join(repoRoot, script), [], {
      cwd: tmpdir(),
      env: offlineEnv({ TOOLSHED_PREFIX: mapped('/opt/toolshed'), TOOLSHED_ETC: mapped('/etc/toolshed'), SYSTEMD_UNIT_DIR: mapped('/etc/systemd/system') }),
    });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /exists; install into a new folder/);
  });
});
