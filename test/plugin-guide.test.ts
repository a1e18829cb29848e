// docs/writing-a-plugin.md, followed as a reader would: every ```sh block runs here, in order, in a
// home folder of its own that holds `toolshed` (this checkout) and gets `my-plugins`. A comment line
// `# {...}` right after a command is its expected answer. The few commands that would reach the npm
// registry or a fixed port have stand-ins, listed in `standIns` with the reason; a stand-in that the
// page no longer uses fails the test, as does a command the page adds without one that works.
// The ```ts blocks the page presents as the scaffold's files must be those files, and every name the
// page imports from the SDK must be one it exports.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import * as sdk from '@toolshed/plugin-sdk';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import * as sdkTesting from '@toolshed/plugin-sdk/testing';
import semver from 'semver';
import { pluginFiles } from '../cli/scaffold/templates.js';
import { linkRegistryPackages, linkToolshed, offlineEnv, repoRoot, run, runOk, unpackTarball } from './support/packages.js';
import { tempFolder } from './support/temp-folder.js';

const guide = await readFile(path.join(repoRoot, 'docs', 'writing-a-plugin.md'), 'utf8');
const home = tempFolder('toolshed-guide-');
await symlink(repoRoot, path.join(home, 'toolshed'), 'dir');
const env = offlineEnv({ HOME: home });
/** Packages installed into the checkout, removed afterwards (see installIntoToolshed). */
const installedIntoToolshed: string[] = [];
after(() => Promise.all(installedIntoToolshed.map((folder) => rm(folder, { recursive: true, force: true }))));

/** One command of the page: its text (continuation lines and heredocs included) and expected answer. */
interface Step {
  readonly command: string;
  expected?: string;
}

/** The commands of every ```sh block, in page order. */
function stepsOf(markdown: string): Step[] {
  const steps: Step[] = [];
  for (const [, block] of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const lines = block!.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.trim() === '') continue;
      if (line.startsWith('#')) {
        const previous = steps.at(-1);
        if (line.startsWith('# {') && previous !== undefined && previous.expected === undefined) previous.expected = line.slice(2);
        continue;
      }
      let command = line;
      while (command.endsWith('\\')) command += `\n${lines[++index]}`;
      const heredoc = /<<'?(\w+)'?/.exec(command);
      if (heredoc) {
        do command += `\n${lines[++index]}`;
        while (lines[index] !== heredoc[1] && index < lines.length);
      }
      steps.push({ command });
    }
  }
  return steps;
}

/** Runs `command` with bash in `cwd`, as a reader's shell would. */
function shell(command: string, cwd: string, extraEnv: NodeJS.ProcessEnv = {}) {
  return run('bash', ['-c', `cd "$0" && ${command}`, cwd], { cwd: home, env: { ...env, ...extraEnv } });
}

async function versionOf(folder: string): Promise<string> {
  return (JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The copy of `name` at exactly `version` among this checkout's installed packages. */
async function installedCopy(name: string, version: string): Promise<string> {
  for (const nodeModules of [path.join(repoRoot, 'plugin-sdk', 'node_modules'), path.join(repoRoot, 'node_modules')]) {
    const folder = path.join(nodeModules, name);
    if (existsSync(folder) && (await versionOf(folder)) === version) return folder;
  }
  throw new Error(`${name}@${version} is not installed in this checkout`);
}

/**
 * `npm install` in the plugin folder, without the registry: the SDK comes from the tarball its
 * package.json names (as npm would unpack it), the SDK's exact dependencies and the registry dev
 * dependencies from this checkout, each checked against the version asked for.
 */
async function installPluginDependencies(cwd: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(cwd, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  const nodeModules = path.join(cwd, 'node_modules');
  const sdkSpec = manifest.devDependencies['@toolshed/plugin-sdk']!;
  assert.match(sdkSpec, /^file:/, 'the SDK comes from the tarball beside package.json');
  const sdkFolder = path.join(nodeModules, '@toolshed', 'plugin-sdk');
  await unpackTarball(path.join(cwd, sdkSpec.slice('file:'.length)), sdkFolder);
  assert.ok(semver.satisfies(await versionOf(sdkFolder), manifest.peerDependencies['@toolshed/plugin-sdk']!), 'the dev SDK meets the peer range');
  const sdkManifest = JSON.parse(await readFile(path.join(sdkFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const [name, version] of Object.entries(sdkManifest.dependencies)) {
    // Copied, not linked: at run time the plugin has its own SDK and TypeBox, separate from the kernel's.
    await mkdir(path.dirname(path.join(nodeModules, name)), { recursive: true }); // a scope's folder
    await runOk('cp', ['-R', await installedCopy(name, version), path.join(nodeModules, name)], { cwd });
  }
  // Toolshed itself, named by its path from the plugin folder: npm links the checkout.
  const toolshedSpec = manifest.devDependencies.toolshed!;
  assert.match(toolshedSpec, /^file:/);
  assert.equal(await realpath(path.resolve(cwd, toolshedSpec.slice('file:'.length))), await realpath(repoRoot), 'the dev dependency is this checkout');
  await linkToolshed(nodeModules);
  const registryPackages = Object.keys(manifest.devDependencies).filter((name) => name !== '@toolshed/plugin-sdk' && name !== 'toolshed');
  for (const name of registryPackages) {
    assert.ok(semver.satisfies(await versionOf(path.join(repoRoot, 'node_modules', name)), manifest.devDependencies[name]!), name);
  }
  await linkRegistryPackages(nodeModules, registryPackages);
}

/**
 * `npm install <tarball>` in the Toolshed checkout, without changing the checkout's package.json,
 * lockfile or node_modules: the package is unpacked into dist/node_modules, which the kernel
 * (dist/kernel/discover.js) resolves package names from just the same. It must need nothing but
 * its peer, the checkout's SDK.
 */
async function installIntoToolshed(tarball: string): Promise<void> {
  const staging = await mkdtemp(path.join(home, 'unpacked-'));
  await unpackTarball(tarball, staging);
  const manifest = JSON.parse(await readFile(path.join(staging, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: object;
    peerDependencies: Record<string, string>;
  };
  assert.equal(manifest.dependencies, undefined);
  assert.ok(semver.satisfies(SDK_VERSION, manifest.peerDependencies['@toolshed/plugin-sdk']!));
  const target = path.join(repoRoot, 'dist', 'node_modules', manifest.name);
  await rm(target, { recursive: true, force: true });
  installedIntoToolshed.push(target);
  await unpackTarball(tarball, target);
}

/** The running `toolshed serve` of the page, and where it listens. */
let server: { url: string; stop: () => Promise<void> } | undefined;
after(() => server?.stop());

/** Starts `command` (a long-running server) with PORT=0 and waits for its `listening` log line. */
async function startServer(command: string, cwd: string): Promise<void> {
  const child = spawn('bash', ['-c', `cd "$0" && exec ${command}`, cwd], { env: { ...env, PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = stdout.split('\n').find((line) => line.includes('"msg":"listening"'));
      if (listening !== undefined) resolve((JSON.parse(listening) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`${command} exited ${code} before listening:\n${stderr}`)));
  });
  server = {
    url,
    stop: async () => {
      // The whole group: bash exec'd npm, which started node.
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
}

/** Commands the test cannot run as written, keyed by their text on the page. */
const standIns = new Map<string, { reason: string; run: (cwd: string) => Promise<string> }>([
  [
    'npm install',
    {
      reason: 'it downloads TypeScript, @types/node, typebox and semver from the registry; they are linked from this checkout, and Toolshed as npm links it',
      run: async (cwd) => {
        await installPluginDependencies(cwd);
        return '';
      },
    },
  ],
  [
    'npm install --ignore-scripts ~/my-plugins/word-tools/toolshed-plugin-word-tools-0.1.0.tgz',
    {
      reason: "it would change this checkout's package.json and lockfile; the tarball is unpacked where the kernel resolves packages",
      run: async () => {
        await installIntoToolshed(path.join(home, 'my-plugins', 'word-tools', 'toolshed-plugin-word-tools-0.1.0.tgz'));
        return '';
      },
    },
  ],
  [
    'npx toolshed serve --config ~/toolshed-local.yaml',
    {
      reason: 'port 8080 may be taken: the same command runs with PORT=0 and is left running for the next block',
      run: async (cwd) => {
        await startServer('npx toolshed serve --config ~/toolshed-local.yaml', cwd);
        return '';
      },
    },
  ],
  [
    `curl -s localhost:8080/v1/word-tools/reverse -H 'Content-Type: application/json' -d '{"text":"stressed"}'`,
    {
      reason: 'the server of the previous block listens on the port it was given, not on 8080',
      run: async (cwd) => {
        const command = `curl -s localhost:8080/v1/word-tools/reverse -H 'Content-Type: application/json' -d '{"text":"stressed"}'`;
        const outcome = await shell(command.replace('localhost:8080', new URL(server!.url).host), cwd);
        assert.equal(outcome.code, 0, outcome.stderr);
        await server!.stop();
        return outcome.stdout;
      },
    },
  ],
]);

describe('docs/writing-a-plugin.md', () => {
  it('runs every command block in order, with the answers it shows', async () => {
    const steps = stepsOf(guide);
    assert.ok(steps.length >= 15, `the page's commands were found (${steps.length})`);
    const used = new Set<string>();
    let cwd = home;
    for (const step of steps) {
      const cd = /^cd (\S+)$/.exec(step.command);
      if (cd) {
        const moved = await shell(`cd ${cd[1]} && pwd`, cwd);
        assert.equal(moved.code, 0, `${step.command}: ${moved.stderr}`);
        cwd = moved.stdout.trim();
        continue;
      }
      const standIn = standIns.get(step.command);
      let stdout: string;
      if (standIn) {
        used.add(step.command);
        stdout = await standIn.run(cwd);
      } else {
        const outcome = await shell(step.command, cwd);
        assert.equal(outcome.code, 0, `${step.command} (in ${cwd}) exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
        stdout = outcome.stdout;
      }
      if (step.expected !== undefined) assert.deepEqual(JSON.parse(stdout), JSON.parse(step.expected), step.command);
    }
    assert.deepEqual([...standIns.keys()].filter((command) => !used.has(command)), [], 'every stand-in is for a command the page still has');
    // What the page promised along the way.
    const plugin = path.join(home, 'my-plugins', 'word-tools');
    assert.ok(existsSync(path.join(plugin, `toolshed-plugin-sdk-${SDK_VERSION}.tgz`)));
    assert.ok(existsSync(path.join(plugin, 'dist', 'index.js')));
    assert.ok(existsSync(path.join(plugin, 'toolshed-plugin-word-tools-0.1.0.tgz')));
  });

  it('runs plugin dev where it and the scaffold\'s README both say: `npx toolshed plugin dev .` in the plugin folder', async () => {
    const flat = guide.replace(/\s+/g, ' ');
    const command = /`(npx toolshed plugin dev [^`]+)` in the plugin folder/.exec(flat)?.[1];
    assert.equal(command, 'npx toolshed plugin dev .');
    const readme = pluginFiles({ group: 'word-tools', sdkVersion: SDK_VERSION, toolshed: 'file:../../toolshed' }).find((file) => file.path === 'README.md')!.content;
    assert.ok(readme.replace(/\s+/g, ' ').includes(`\`${command}\` serves the plugin beside the built-in ones`), 'the README gives the same command');
    // In the folder the first test made and built, with Toolshed as its dev dependency.
    const plugin = path.join(home, 'my-plugins', 'word-tools');
    assert.ok(existsSync(path.join(plugin, 'dist', 'index.js')), 'the walk through the page ran first');
    await startServer(command, plugin);
    try {
      const answer = await fetch(`${server!.url}/v1/word-tools/reverse`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text":"stressed"}' });
      assert.deepEqual(await answer.json(), { reversed: 'desserts' });
    } finally {
      await server!.stop();
    }
  });

  it('shows the scaffold files exactly as `toolshed plugin new word-tools` writes them', () => {
    const files = new Map(pluginFiles({ group: 'word-tools', sdkVersion: SDK_VERSION, toolshed: 'file:../../toolshed' }).map((file) => [file.path, file.content]));
    const shown = [...guide.matchAll(/^```ts (\S+)\n([\s\S]*?)^```$/gm)];
    assert.deepEqual(shown.map(([, file]) => file), ['src/index.ts', 'src/index.test.ts']);
    for (const [, file, content] of shown) assert.equal(content, files.get(file!), file);
  });

  it('imports from each face of the SDK only names that face exports', () => {
    const faces: Readonly<Record<string, object>> = { '': sdk, '/testing': sdkTesting };
    // Type-only names (`type TestKernel`) have no value to find; the build checks them.
    const imports = [...guide.matchAll(/import \{([^}]+)\} from '@toolshed\/plugin-sdk(\/[a-z]+)?'/g)].flatMap(([, names, face = '']) =>
      names!.split(',').map((name) => [face, name.trim()] as const).filter(([, name]) => !name.startsWith('type ')),
    );
    assert.ok(imports.length >= 8, `the imports were found (${imports.length})`);
    for (const [face, name] of imports) {
      assert.ok(face in faces, `the page imports @toolshed/plugin-sdk${face}, which is not a face for plugins`);
      assert.ok(name in faces[face]!, `${name} is not exported by @toolshed/plugin-sdk${face}`);
    }
  });
});
