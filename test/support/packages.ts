/**
 * What the plugin-packaging tests share: running npm and friends offline, and laying out a
 * node_modules folder the way `npm install` would, from packages this checkout already has.
 */
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the compiled tests live in dist/test). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** What a command printed and how it ended. */
export interface CommandOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment for commands a test runs: npm never reaches a registry (tests use loopback only)
 * and does not look for its own updates. Coverage is off (NODE_V8_COVERAGE empty): the kernel's comes
 * from the in-process tests, and npm and tsc under coverage cost a third more CPU and write a report
 * each. Empty, not deleted: Node gives a child a deleted NODE_V8_COVERAGE back from its own
 * environment (child_process copies it in whenever the env handed over lacks the name). NODE_TEST_CONTEXT
 * is dropped so that a `node --test` these commands start reports as it would in a terminal, instead
 * of as a subtest of this test run.
 */
export function offlineEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    ...extra,
  };
  env.NODE_V8_COVERAGE = '';
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** Runs `file` with `args`; resolves with the outcome whatever the exit code. */
export function run(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd: options.cwd, env: options.env ?? offlineEnv(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : (error as { code?: unknown }).code;
      if (typeof code !== 'number') reject(error ?? new Error(`${file} did not end with an exit code`));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Runs a command that must succeed; on failure the error shows what it printed. */
export async function runOk(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const outcome = await run(file, args, options);
  if (outcome.code !== 0) {
    throw new Error(`${file} ${args.join(' ')} (in ${options.cwd}) exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
  }
  return outcome.stdout;
}

/**
 * Links registry packages of this checkout (typescript, @types/node, typebox, semver) into
 * `nodeModules`, plus `.bin/tsc`: what `npm install` would download, without a network.
 */
export async function linkRegistryPackages(nodeModules: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const target = path.join(nodeModules, name);
    await mkdir(path.dirname(target), { recursive: true });
    await symlink(path.join(repoRoot, 'node_modules', name), target, 'dir');
  }
  if (names.includes('typescript')) {
    await mkdir(path.join(nodeModules, '.bin'), { recursive: true });
    await symlink(path.join('..', 'typescript', 'bin', 'tsc'), path.join(nodeModules, '.bin', 'tsc'));
  }
}

/**
 * Links this checkout into `nodeModules` as the package `toolshed`, with its `.bin/toolshed`: what
 * `npm install` does for a plugin's `"toolshed": "file:<checkout>"` dev dependency.
 */
export async function linkToolshed(nodeModules: string): Promise<void> {
  await mkdir(path.join(nodeModules, '.bin'), { recursive: true });
  await symlink(repoRoot, path.join(nodeModules, 'toolshed'), 'dir');
  await symlink(path.join('..', 'toolshed', 'bin', 'toolshed.js'), path.join(nodeModules, '.bin', 'toolshed'));
}

/** Unpacks an npm tarball (its files sit under `package/`) into `folder`, as npm installs it. */
export async function unpackTarball(tarball: string, folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await runOk('tar', ['-xzf', tarball, '-C', folder, '--strip-components=1'], { cwd: folder });
}

/**
 * The `files` entries of `npm pack --json` for the package in `folder`, with no script run (the
 * caller has built it): a dry run, or the tarball written into `destination` when one is given.
 */
export async function packedFiles(folder: string, destination?: string): Promise<{ filename: string; files: string[] }> {
  const writing = destination === undefined ? ['--dry-run'] : ['--pack-destination', destination];
  const stdout = await runOk('npm', ['pack', ...writing, '--json', '--ignore-scripts'], { cwd: folder });
  const [report] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  return { filename: report.filename, files: report.files.map((file) => file.path).sort() };
}
