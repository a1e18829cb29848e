// examples/hmac-signature is a third-party plugin as it would be published: its own package.json,
// build and tests. Here it is built and tested with its own scripts, packed with npm, installed from
// the tarball by package name, and served next to a folder plugin made by `toolshed plugin new`.
// It is built once: `npm test` builds it, and the pack takes that build (`--ignore-scripts`) instead
// of running prepack, the same `npm run build` again (a whole tsc, ~4 s of CPU); that prepack is
// the build is checked in the manifest.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scaffoldPlugin } from '../cli/scaffold/scaffold.js';
import { send } from './support/http.js';
import { linkRegistryPackages, linkToolshed, packedFiles, repoRoot, runOk, unpackTarball } from './support/packages.js';
import { buildTestService, type InProcessService } from './support/service.js';
import { tempFolder } from './support/temp-folder.js';

const example = path.join(repoRoot, 'examples', 'hmac-signature');
const work = tempFolder('toolshed-example-');
/**
 * Where `npm install <tarball>` in the Toolshed checkout would put the package is node_modules/; the
 * test leaves the checkout's own node_modules alone and uses dist/node_modules, which the kernel
 * (dist/kernel/discover.js) resolves package names from just the same.
 */
const installed = path.join(repoRoot, 'dist', 'node_modules', 'toolshed-plugin-hmac');
let service: InProcessService | undefined;

/** What `npm test` printed, and what `npm pack` then wrote into `work`. */
let tested: string;
let packed: { filename: string; files: string[] };

before(async () => {
  await rm(installed, { recursive: true, force: true });
  tested = await runOk('npm', ['test'], { cwd: example });
  packed = await packedFiles(example, work);
});
after(async () => {
  await service?.stop();
  await rm(installed, { recursive: true, force: true });
});

describe('the example package plugin', () => {
  it('passes its own tests with its own scripts: every RFC 4231 vector, the encodings, the refusals', () => {
    assert.match(tested, /pass 27\b/);
    assert.match(tested, /fail 0\b/);
  });

  it('packs its built code, README and package.json only, and names the SDK as a peer', async () => {
    assert.equal(packed.filename, 'toolshed-plugin-hmac-1.0.0.tgz');
    assert.deepEqual(packed.files, ['README.md', 'dist/hmac.js', 'dist/index.js', 'package.json']);
    const manifest = JSON.parse(await readFile(path.join(example, 'package.json'), 'utf8')) as Record<string, unknown>;
    // `npm pack` builds first (README: "npm pack  # here: builds"), with the build `npm test` ran.
    assert.equal((manifest.scripts as Record<string, string>).prepack, 'npm run build');
    assert.deepEqual(manifest.peerDependencies, { '@toolshed/plugin-sdk': '^1.0.0' });
    assert.equal(manifest.dependencies, undefined, 'it brings nothing that Toolshed would load twice');
  });
});

describe('Toolshed with a package plugin and a folder plugin', () => {
  before(async () => {
    // The tarball the file's `before` packed, unpacked as npm installs it.
    await unpackTarball(path.join(work, 'toolshed-plugin-hmac-1.0.0.tgz'), installed);
    // A folder plugin beside it, built as the scaffold wrote it (its SDK and TypeScript linked in).
    const plugins = path.join(work, 'plugins');
    await scaffoldPlugin({ group: 'word-tools', dir: path.join(plugins, 'word-tools') });
    await mkdir(path.join(plugins, 'node_modules', '@toolshed'), { recursive: true });
    await symlink(path.join(repoRoot, 'plugin-sdk'), path.join(plugins, 'node_modules', '@toolshed', 'plugin-sdk'), 'dir');
    await linkRegistryPackages(path.join(plugins, 'node_modules'), ['typescript', '@types/node']);
    // The scaffold's own test imports toolshed/testing: Toolshed is linked as its dev dependency.
    await linkToolshed(path.join(plugins, 'node_modules'));
    await runOk('npm', ['run', 'build'], { cwd: path.join(plugins, 'word-tools') });
    const builtin = tempFolder('toolshed-no-builtin-');
    service = await buildTestService({ plugins: { dirs: [plugins], packages: ['toolshed-plugin-hmac'] } }, { builtinDir: builtin });
  });

  it('installs the package without an SDK of its own: the peer is the SDK Toolshed runs', () => {
    assert.ok(existsSync(path.join(installed, 'dist', 'index.js')));
    assert.equal(existsSync(path.join(installed, 'node_modules')), false);
  });

  it('logs the version of each from its package.json, though the package does not export that file', async () => {
    const lines = service!.logs.join('').split('\n').filter((line) => line.includes('"msg":"plugin loaded"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    const versionOf = async (folder: string) => (JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;
    assert.deepEqual(lines.map(({ group, version }) => ({ group, version })), [
      { group: 'word-tools', version: await versionOf(path.join(work, 'plugins', 'word-tools')) },
      { group: 'hmac', version: await versionOf(example) },
    ]);
  });

  it('mounts the operations of both, and only those', async () => {
    const document = (await send(service!.url, '/v1/openapi.json', { method: 'GET' })).json as { paths: Record<string, unknown> };
    // recipes/identify and recipes/run are the service's own, whatever the plugins.
    assert.deepEqual(Object.keys(document.paths).sort(), ['/v1/hmac/sign', '/v1/hmac/verify', '/v1/recipes/identify', '/v1/recipes/run', '/v1/word-tools/reverse']);
  });

  it('signs and verifies over HTTP with the answers of RFC 4231', async () => {
    // RFC 4231 test case 2 (key "Jefe") under SHA-256 and SHA-512; case 1's key 0x0b × 20 as hex.
    const jefe = { key: 'Jefe', message: 'what do ya want for nothing?' };
    const sha256 = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    const sha512 = '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737';
    assert.deepEqual((await send(service!.url, '/v1/hmac/sign', { body: jefe })).json, { signature: sha256 });
    assert.deepEqual((await send(service!.url, '/v1/hmac/sign', { body: { ...jefe, algorithm: 'sha512' } })).json, { signature: sha512 });
    const case1 = { key: '0b'.repeat(20), keyEncoding: 'hex', message: 'Hi There' };
    assert.deepEqual((await send(service!.url, '/v1/hmac/sign', { body: case1 })).json, {
      signature: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    });
    assert.deepEqual((await send(service!.url, '/v1/hmac/verify', { body: { ...jefe, signature: sha256 } })).json, { valid: true });
    const tampered = `${sha256.slice(0, -1)}2`;
    assert.deepEqual((await send(service!.url, '/v1/hmac/verify', { body: { ...jefe, signature: tampered } })).json, { valid: false });
  });

  it('answers the refusals the plugin declares, through the kernel', async () => {
    const badHex = await send(service!.url, '/v1/hmac/sign', { body: { key: 'xyz', keyEncoding: 'hex', message: 'm' } });
    assert.equal(badHex.status, 422);
    assert.deepEqual(badHex.json, { error: { code: 'invalid_encoding', message: 'key is not hex: it needs an even number of the digits 0-9 and a-f' } });
    const badAlgorithm = await send(service!.url, '/v1/hmac/sign', { body: { key: 'k', message: 'm', algorithm: 'md5' } });
    assert.equal(badAlgorithm.status, 400);
    assert.equal((badAlgorithm.json as { error: { code: string } }).error.code, 'validation_failed');
  });

  it('serves the folder plugin beside it', async () => {
    assert.deepEqual((await send(service!.url, '/v1/word-tools/reverse', { body: { text: 'stressed' } })).json, { reversed: 'desserts' });
  });

  it('answers the request of the example README as it shows', async () => {
    const readme = await readFile(path.join(example, 'README.md'), 'utf8');
    const [, route, body, answer] = /curl -s localhost:8080(\S+) [^\n]*\\\n\s+-d '([^']+)'\n# (\{[^\n]*?\})/.exec(readme) ?? [];
    assert.ok(route !== undefined && body !== undefined && answer !== undefined, 'the README shows a request and its answer');
    assert.deepEqual((await send(service!.url, route, { body: JSON.parse(body) as object })).json, JSON.parse(answer));
  });
});
