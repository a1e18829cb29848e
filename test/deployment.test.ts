// The deployment files (issue 12) checked for the facts they must keep: no container engine runs in
// CI (nor on the machine this was written on), so the image is not built here; what can be checked
// without one is: the Dockerfile's runtime stage, its HEALTHCHECK probe run for real, compose.yaml and
// its mounted configuration validated by the kernel, nginx's upstream, the systemd unit, and that
// every package the built service imports is a production dependency.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { loadConfig, type Config } from '../kernel/host/config.js';
import { BODY_LIMIT } from '../kernel/host/json-body.js';
import { memoryBudgetBytes, sizeBytes } from './support/memory-budget.js';
import { startTestService, type TestService } from './support/service.js';
import { unitSettings } from './support/unit-file.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const defaults = path.join(root, 'config/default.yaml');

// ---- Dockerfile ----

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile's stages, each a list of instructions (continuation lines joined, comments dropped). */
function dockerStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const logical = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

const stages = dockerStages(read('Dockerfile'));
const runtime = stages.at(-1) ?? [];
const all = (keyword: string): Instruction[] => runtime.filter((instruction) => instruction.keyword === keyword);
const last = (keyword: string): string => all(keyword).at(-1)?.args ?? '';

/** The exec-form array of a CMD (or HEALTHCHECK ... CMD) instruction; undefined for the shell form. */
function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
}

const healthcheck = execForm(last('HEALTHCHECK').replace(/^.*?\bCMD\s+/, ''));

describe('Dockerfile', () => {
  it('builds in one stage and runs in another, with production dependencies only', () => {
    assert.ok(stages.length >= 2, 'multi-stage');
    assert.ok(stages[0]!.some((step) => step.keyword === 'RUN' && /\bnpm ci\b/.test(step.args) && !step.args.includes('--omit=dev')));
    assert.ok(stages[0]!.some((step) => step.keyword === 'RUN' && step.args.includes('npm run build')));
    const installs = all('RUN').filter((step) => /\bnpm (ci|install)\b/.test(step.args));
    assert.equal(installs.length, 1);
    assert.match(installs[0]!.args, /\bnpm ci --omit=dev\b/);
    assert.ok(!all('RUN').some((step) => step.args.includes('npm run build')), 'no build (no dev dependencies) in the runtime stage');
  });

  it('copies the compiled service, the built SDK the workspace link points at, and the default configuration', () => {
    const copied = all('COPY').map((step) => step.args.split(/\s+/));
    for (const needed of ['dist/kernel', 'dist/service', 'dist/cli', 'dist/mcp', 'dist/recipes', 'dist/tool-pages', 'dist/plugins', 'plugin-sdk/dist', 'plugin-sdk/package.json', 'config', 'package-lock.json']) {
      assert.ok(copied.some((parts) => parts.slice(0, -1).some((source) => source.replace(/^\/app\//, '') === needed)), `runtime stage copies ${needed}`);
    }
  });

  it('copies every source folder tsconfig.json compiles into the build stage, and the runtime stage copies each one built', () => {
    // A folder left out of the build stage compiles to nothing, and the runtime stage's COPY of it
    // fails the build (service/ and recipes/ were, after the kernel was split).
    const { include } = JSON.parse(read('tsconfig.json')) as { include: string[] };
    const sources = include.filter((folder) => folder !== 'test');
    const buildAt = stages[0]!.findIndex((step) => step.keyword === 'RUN' && step.args.includes('npm run build'));
    const copiedToBuild = stages[0]!.slice(0, buildAt).filter((step) => step.keyword === 'COPY').map((step) => step.args.split(/\s+/)[0]);
    const copiedFromBuild = all('COPY').filter((step) => step.args.startsWith('--from=build')).map((step) => step.args.split(/\s+/)[1]);
    for (const folder of sources) {
      assert.ok(copiedToBuild.includes(folder), `the build stage copies ${folder}/ before npm run build`);
      assert.ok(copiedFromBuild.includes(`/app/dist/${folder}`), `the runtime stage copies dist/${folder}`);
    }
  });

  it('copies every script npm run build runs, and the scripts those import, into the build stage before it runs', () => {
    const build = (JSON.parse(read('package.json')) as { scripts: { build: string } }).scripts.build;
    const scripts = [...build.matchAll(/\bnode (\S+\.mjs)/g)].map((match) => match[1]!);
    assert.ok(scripts.includes('scripts/bundle-plugins.mjs'), build);
    for (const script of [...scripts]) {
      for (const [, imported] of read(script).matchAll(/from '\.\/([\w.-]+\.mjs)'/g)) scripts.push(`scripts/${imported}`);
    }
    assert.ok(scripts.includes('scripts/server-bundle-options.mjs'), 'the bundle scripts share their esbuild options');
    const buildAt = stages[0]!.findIndex((step) => step.keyword === 'RUN' && step.args.includes('npm run build'));
    const copied = stages[0]!.slice(0, buildAt).filter((step) => step.keyword === 'COPY').flatMap((step) => step.args.split(/\s+/).slice(0, -1));
    for (const script of scripts) assert.ok(copied.includes(script), `the build stage copies ${script} before npm run build`);
  });

  it('lets through .dockerignore every file the build copies from the context', () => {
    const ignore = read('.dockerignore').split('\n');
    assert.equal(ignore.find((line) => line.trim() !== '' && !line.startsWith('#')), '**', 'everything is left out unless let in');
    const sources = stages.flat().filter((step) => step.keyword === 'COPY' && !step.args.startsWith('--from'));
    for (const parts of sources.map((step) => step.args.split(/\s+/).slice(0, -1))) {
      for (const source of parts) {
        assert.ok(existsSync(path.join(root, source)), `${source} exists`);
        assert.ok(ignore.includes(`!${source}`) || ignore.includes(`!${source}/`), `.dockerignore lets ${source} in`);
      }
    }
  });

  it('runs node itself as PID 1, as a user that is not root, listening on every interface', () => {
    assert.deepEqual(execForm(last('CMD')), ['node', 'dist/service/main.js']);
    assert.equal(all('ENTRYPOINT').length, 0);
    const user = last('USER');
    assert.ok(user !== '' && !/^(root|0)(:|$)/.test(user), `USER ${user}`);
    assert.match(all('ENV').map((step) => step.args).join(' '), /\bHOST=0\.0\.0\.0\b/);
    assert.ok(runtime.findIndex((step) => step.keyword === 'USER') > runtime.findLastIndex((step) => step.keyword === 'RUN'), 'USER after the last RUN');
  });

  it('has a HEALTHCHECK that asks /healthz with node (no curl), and the probe works', async () => {
    assert.ok(healthcheck, 'exec form');
    assert.equal(healthcheck[0], 'node');
    assert.match(healthcheck.join(' '), /\/healthz/);
    const service: TestService = await startTestService();
    const port = new URL(service.url).port;
    // Asynchronously: the service answers from this very process.
    const probe = (): Promise<number | null> =>
      new Promise((resolve) => spawn(process.execPath, healthcheck.slice(1), { env: { ...process.env, PORT: port }, stdio: 'ignore' }).once('exit', resolve));
    try {
      assert.equal(await probe(), 0, 'healthy service');
    } finally {
      await service.stop();
    }
    assert.equal(await probe(), 1, 'nothing listening');
  });
});

// ---- compose.yaml and its mounted configuration ----

interface ComposeService {
  build?: unknown;
  image?: string;
  pull_policy?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, unknown>;
  stop_grace_period?: string;
  mem_limit?: string;
  ports?: string[];
  healthcheck?: { interval?: string };
  read_only?: boolean;
  cap_drop?: string[];
  security_opt?: string[];
  user?: string;
  tmpfs?: string[];
}

// compose.yaml shares settings through YAML merge keys (`<<: *hardened`), which Compose reads.
const compose = parseYaml(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
/** The image `docker build -t toolshed .` tags, as docs/deployment.md names it. */
const imageTag = 'toolshed';
const toolsheds = services.filter(([, service]) => service.image === imageTag);
const proxies = services.filter(([, service]) => /^nginx\b/.test(service.image ?? ''));
const redises = services.filter(([, service]) => /^redis\b/.test(service.image ?? ''));

/** The host file a service mounts at `target`, relative to the repository. */
function mounted(service: ComposeService, target: string): string | undefined {
  const volume = service.volumes?.find((entry) => entry.split(':')[1] === target);
  return volume?.split(':')[0]?.replace(/^\.\//, '');
}

function seconds(duration: string): number {
  const match = /^(\d+)(s|m)$/.exec(duration);
  assert.ok(match, `duration ${duration}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
}

/** What a stop may take: the drain, in-flight requests, then plugins and workers (each up to the shutdown timeout). */
const stopMs = (config: Config): number => config.server.drainDelayMs + 2 * config.server.shutdownTimeoutMs;
const siteConfig = (): Promise<Config> => loadConfig({ TOOLSHED_CONFIG: path.join(root, 'deploy/toolshed.yaml') }, defaults);

describe('compose.yaml', () => {
  it('runs two Toolshed instances of one image built once, one nginx and one Redis', () => {
    assert.equal(toolsheds.length, 2);
    assert.equal(proxies.length, 1);
    assert.equal(redises.length, 1);
    const builders = toolsheds.filter(([, service]) => service.build !== undefined);
    assert.equal(builders.length, 1, 'one instance builds the image');
    assert.equal(builders[0]![1].build, '.');
    for (const [name, service] of toolsheds) if (service.build === undefined) assert.equal(service.pull_policy, 'never', `${name} runs the image built here`);
    assert.match(read('docs/deployment.md'), new RegExp(`docker build -t ${imageTag} \\.`));
    assert.ok(!read('docs/deployment.md').includes(`${imageTag}:local`), 'the docs use the one tag');
    assert.deepEqual(Object.keys(proxies[0]![1].depends_on ?? {}).sort(), toolsheds.map(([name]) => name).sort());
  });

  it('mounts deploy/toolshed.yaml where TOOLSHED_CONFIG points, and the kernel accepts it: one trusted proxy, the compose Redis', async () => {
    for (const [name, service] of toolsheds) {
      const target = service.environment?.TOOLSHED_CONFIG;
      assert.ok(target, `${name} names its configuration`);
      assert.equal(mounted(service, target), 'deploy/toolshed.yaml');
    }
    const config = await siteConfig();
    assert.equal(config.server.trustProxy, 1);
    assert.equal(new URL(config.rateLimit.redis.url ?? '').hostname, redises[0]![0]);
    for (const [name, service] of toolsheds) {
      assert.ok(seconds(service.stop_grace_period ?? '10s') * 1000 > stopMs(config), `${name}: stop_grace_period covers the drain and both shutdown phases`);
      // The image probes every 30 s; nginx waits for both instances to be healthy before it starts.
      assert.ok(seconds(service.healthcheck?.interval ?? '30s') <= 5, `${name}: probed every few seconds`);
    }
  });

  it('hardens Redis as it hardens the instances: read-only, no capability, no new privileges, not root, /data in memory', () => {
    for (const [name, service] of [...toolsheds, ...redises]) {
      assert.equal(service.read_only, true, name);
      assert.deepEqual(service.cap_drop, ['ALL'], name);
      assert.ok(service.security_opt?.includes('no-new-privileges:true'), name);
    }
    const [, redis] = redises[0]!;
    assert.ok(redis.user !== undefined && !/^(root|0)(:|$)/.test(redis.user), `redis user ${redis.user}`);
    assert.deepEqual(redis.tmpfs, ['/data']);
  });

  it('mounts deploy/nginx.conf, whose upstream names both instances on the image port', () => {
    assert.equal(mounted(proxies[0]![1], '/etc/nginx/nginx.conf'), 'deploy/nginx.conf');
    const nginx = read('deploy/nginx.conf');
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(nginx);
    assert.ok(upstream);
    const servers = [...upstream[2]!.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((match) => `${match[1]}:${match[2]}`);
    assert.deepEqual(servers.sort(), toolsheds.map(([name]) => `${name}:8080`).sort());
    assert.match(all('ENV').map((step) => step.args).join(' '), /\bPORT=8080\b/);
    assert.match(nginx, new RegExp(`proxy_pass\\s+http://${upstream[1]};`));
    // With trustProxy 1 the service believes the last X-Forwarded-For entry: nginx must set it.
    assert.match(nginx, /proxy_set_header\s+X-Forwarded-For\s+\$remote_addr;/);
    // Larger bodies are refused by nginx itself (the service would answer 413 and close mid-body).
    assert.equal(/client_max_body_size\s+(\d+)m;/.exec(nginx)?.[1], String(BODY_LIMIT / 1024 / 1024));
    assert.match(nginx, /location\s*=\s*\/metrics\s*\{[^}]*return 404/, 'metrics stay on the private network');
  });

  it('serves HTTPS only, with the certificate compose mounts from a folder git keeps empty', () => {
    const nginx = read('deploy/nginx.conf');
    const listens = [...nginx.matchAll(/^\s*listen\s+([^;]+);/gm)].map((match) => match[1]!);
    assert.deepEqual(listens, ['443 ssl']);
    const [, proxy] = proxies[0]!;
    assert.deepEqual(proxy.ports, ['8443:443']);
    const certs = mounted(proxy, '/etc/nginx/certs');
    assert.equal(certs, 'deploy/certs');
    for (const directive of ['ssl_certificate', 'ssl_certificate_key']) {
      const file = new RegExp(`^\\s*${directive}\\s+(\\S+);`, 'm').exec(nginx)?.[1] ?? '';
      assert.match(file, /^\/etc\/nginx\/certs\/[\w.]+$/, directive);
      // docs/deployment.md's openssl command writes exactly these files.
      assert.ok(read('docs/deployment.md').includes(`${certs}/${path.basename(file)}`), `the docs make ${path.basename(file)}`);
    }
    assert.deepEqual(read('deploy/certs/.gitignore').split('\n').filter((line) => line !== '' && !line.startsWith('#')), ['*', '!.gitignore'], 'no key is ever committed');
    assert.match(nginx, /^\s*ssl_protocols\s+TLSv1\.2 TLSv1\.3;/m);
  });

  it('sends HSTS and Referrer-Policy on every answer, its own refusals included (issue 47)', () => {
    const nginx = read('deploy/nginx.conf');
    const server = nginx.slice(nginx.indexOf('server {'));
    const wanted = ['add_header Strict-Transport-Security "max-age=63072000" always;', 'add_header Referrer-Policy no-referrer always;'];
    // At least a year of HSTS (hstspreload.org's minimum), on errors too (`always`), and each value said why.
    const maxAge = Number(/Strict-Transport-Security "max-age=(\d+)"/.exec(server)?.[1]);
    assert.ok(maxAge >= 365 * 24 * 3600, `max-age ${maxAge}`);
    const serverLevel = server.replace(/location[^{]*\{[^}]*\}/g, '');
    for (const header of wanted) assert.ok(serverLevel.includes(header), `server: ${header}`);
    // nginx gives a location with an add_header of its own none of the server's: each repeats both.
    const locations = [...server.matchAll(/location\s+([^{]+)\{([^}]*)\}/g)].filter(([, , body]) => body!.includes('add_header'));
    assert.ok(locations.length > 0, 'the 503 location adds Retry-After');
    for (const [, name, body] of locations) for (const header of wanted) assert.ok(body!.includes(header), `${name!.trim()}: ${header}`);
    for (const header of ['Strict-Transport-Security', 'Referrer-Policy']) {
      const comment = new RegExp(`#[^\\n]*\\n(\\s*#[^\\n]*\\n)*\\s*add_header ${header}`).exec(serverLevel);
      assert.ok(comment, `a comment gives the reason for ${header}`);
    }
  });

  it('is described by docs/deployment.md with the port nginx.conf listens on', () => {
    const listens = [...read('deploy/nginx.conf').matchAll(/^\s*listen\s+(\d+)\b/gm)].map((match) => match[1]!);
    const named = [...read('docs/deployment.md').replace(/\s+/g, ' ').matchAll(/nginx[^.]*? starts as root to bind port (\d+)/g)].map((match) => match[1]!);
    assert.deepEqual(named, listens);
  });

  it('limits each instance\'s memory to at least what the mounted configuration may use, and the others too', async () => {
    const config = await siteConfig();
    for (const [name, service] of toolsheds) {
      assert.ok(sizeBytes(service.mem_limit ?? '0') >= memoryBudgetBytes(config), `${name}: mem_limit ${service.mem_limit}`);
    }
    for (const [name, service] of [...proxies, ...redises]) assert.ok(service.mem_limit !== undefined, `${name} has a memory limit`);
  });

  it('closes idle upstream connections before an instance would, and before its drain ends; retries only what was never sent', async () => {
    const nginx = read('deploy/nginx.conf');
    const upstream = /upstream\s+\w+\s*\{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const idleSeconds = Number(/^\s*keepalive_timeout\s+(\d+)s;/m.exec(upstream)?.[1]);
    const service: TestService = await startTestService();
    const nodeKeepAliveMs = service.server.keepAliveTimeout;
    await service.stop();
    assert.ok(idleSeconds * 1000 < nodeKeepAliveMs, `nginx keepalive_timeout ${idleSeconds} s < the service's ${nodeKeepAliveMs} ms`);
    assert.ok(idleSeconds * 1000 < (await siteConfig()).server.drainDelayMs, 'no idle connection outlives the drain');
    // Not `non_idempotent`: a POST already sent is never sent again.
    assert.match(nginx, /^\s*proxy_next_upstream\s+error timeout;/m);
  });
});

// ---- systemd ----


describe('deploy/toolshed.service', () => {
  const unit = unitSettings(read('deploy/toolshed.service'));
  const one = (key: string): string | undefined => unit.get(key)?.at(-1);

  it('starts node itself on dist/service/main.js with the configuration file named', () => {
    const exec = (one('ExecStart') ?? '').split(/\s+/);
    assert.match(exec[0] ?? '', /\/node$/);
    assert.match(exec[1] ?? '', /(^|\/)dist\/service\/main\.js$/);
    assert.ok(unit.get('Environment')?.some((value) => /^TOOLSHED_CONFIG=\S+\.ya?ml$/.test(value)));
  });

  it('hands the root-only configuration to the dynamic user as a credential, and reads it from the credentials directory', () => {
    assert.equal(one('DynamicUser'), 'yes');
    const [id, source] = (one('LoadCredential') ?? '').split(':');
    assert.equal(source, '/etc/toolshed/toolshed.yaml');
    // %d is systemd's specifier for $CREDENTIALS_DIRECTORY.
    assert.ok(unit.get('Environment')?.includes(`TOOLSHED_CONFIG=%d/${id}`), `TOOLSHED_CONFIG names the credential ${id}`);
  });

  it('stops with SIGTERM and waits longer than the drain and both shutdown phases before SIGKILL', async () => {
    assert.equal(one('KillSignal'), 'SIGTERM');
    for (const config of [await loadConfig({}, defaults), await siteConfig()]) {
      assert.ok(Number(one('TimeoutStopSec')) * 1000 > stopMs(config), `TimeoutStopSec ${one('TimeoutStopSec')}`);
    }
  });

  it('runs unprivileged and hardened', () => {
    assert.ok(one('DynamicUser') === 'yes' || (one('User') ?? 'root') !== 'root');
    for (const [key, value] of [['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['PrivateTmp', 'yes'], ['ProtectHome', 'yes'], ['CapabilityBoundingSet', '']]) {
      assert.equal(one(key), value, key);
    }
    // V8 writes machine code at run time: this setting would stop the service at once.
    assert.notEqual(one('MemoryDenyWriteExecute'), 'yes');
  });
});

// ---- production dependencies ----

/**
 * What a bundle imports: its import and export declarations and import() calls. TypeScript's full
 * parser, because its quick scanner (preProcessFile) loses its place in minified code and stops
 * finding imports. A bundled CommonJS library's require() goes through esbuild's helper, whose name
 * the minifier changes, so require() calls are not followed here.
 */
function bundleImports(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS));
  return found;
}

/** Package names the built files import (bare specifiers, static or dynamic with a literal). */
async function importedPackages(patterns: string[], atLeast: number): Promise<Map<string, string>> {
  // Bundles hold their libraries inside (dead AMD branches of UMD code name pseudo-packages such as
  // `exports`); what they import is checked on its own below.
  const files = await fg(patterns, { cwd: root, ignore: ['**/*.test.js', '**/*.bundle.js', '**/fixtures/**', '**/node_modules/**'] });
  assert.ok(files.length >= atLeast, `found the built files (${files.length}); build first`);
  const packages = new Map<string, string>();
  for (const file of files) {
    for (const { fileName: specifier } of ts.preProcessFile(read(file), true, true).importedFiles) {
      if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) continue;
      const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
      if (!packages.has(name)) packages.set(name, file);
    }
  }
  return packages;
}

describe('the runtime image installs every package the service imports', () => {
  it('the kernel, the command line, the tool pages and the plugins import only dependencies (or the workspace SDK), never devDependencies', async () => {
    const manifest = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; workspaces: string[] };
    const workspaces = manifest.workspaces.map((folder) => (JSON.parse(read(`${folder}/package.json`)) as { name: string }).name);
    const imported = await importedPackages(['dist/kernel/**/*.js', 'dist/service/**/*.js', 'dist/cli/**/*.js', 'dist/mcp/**/*.js', 'dist/recipes/**/*.js', 'dist/tool-pages/**/*.js', 'dist/plugins/**/*.js'], 100);
    for (const expected of ['koa-compress', 'prom-client', 'ioredis', '@modelcontextprotocol/sdk', '@toolshed/plugin-sdk']) assert.ok(imported.has(expected), `the walk sees ${expected}`);
    // Koa and fast-glob are bundled into dist/kernel/*/vendor/ (scripts/bundle-dependencies.mjs); yaml
    // too, but data-converter's own modules import it as well.
    for (const bundled of ['koa', 'fast-glob']) assert.ok(!imported.has(bundled), `the build bundled ${bundled}`);
    for (const [name, file] of imported) {
      assert.ok(name in manifest.dependencies || workspaces.includes(name), `${file} imports ${name}, which is not in dependencies`);
    }
  });

  it('each built-in plugin and pool module has a bundle beside it, importing the SDK and Node only', async () => {
    // scripts/bundle-plugins.mjs bundles each plugin with its own files and libraries (decisions.md,
    // "one bundle per built-in plugin"). ES imports only: bundled UMD libraries name each other in
    // dead AMD branches, and require() reaches only Node's built-ins.
    const indexes = (await fg('dist/plugins/*/index.js', { cwd: root })).sort();
    const bundles = (await fg('dist/plugins/*/*.bundle.js', { cwd: root })).sort();
    assert.ok(indexes.length >= 30, `found ${indexes.length} built plugins; build first`);
    for (const index of indexes) assert.ok(bundles.includes(index.replace(/index\.js$/, 'index.bundle.js')), index);
    // The modules plugins name for the worker pool have theirs too (sql-formatter's format.js, for one).
    assert.ok(bundles.includes('dist/plugins/sql-formatter/format.bundle.js'));
    for (const file of bundles) {
      const specifiers = bundleImports(file);
      // A pool module of plain functions (number-base-converter's convert.js) needs not even the SDK.
      assert.deepEqual(specifiers.filter((specifier) => !isBuiltin(specifier) && specifier !== '@toolshed/plugin-sdk'), [], file);
    }
    assert.ok(bundleImports('dist/plugins/base64/index.bundle.js').includes('@toolshed/plugin-sdk'), 'the SDK is imported, not bundled');
  });

  it('the dependency bundles (TypeBox, semver, RE2JS and regexpp, Koa, yaml, fast-glob) import only Node\'s own modules', () => {
    const bundles = ['plugin-sdk/dist/typebox.js', 'plugin-sdk/dist/semver.js', 'plugin-sdk/dist/regexp-libraries.js', 'dist/kernel/http/vendor/koa.js', 'dist/kernel/host/vendor/yaml.js', 'dist/kernel/host/vendor/fast-glob.js'];
    for (const file of bundles) {
      const specifiers = bundleImports(file);
      assert.ok(specifiers.length > 0 || read(file).length > 10_000, `${file} is a bundle`);
      assert.deepEqual(specifiers.filter((specifier) => !isBuiltin(specifier)), [], file);
    }
  });

  it('every server-side bundle is minified, its names left as written', async () => {
    // scripts/server-bundle-options.mjs: V8 keeps each loaded script's source for the life of the
    // process, so a readable bundle costs resident memory (decisions.md, "the server-side bundles are
    // minified"). esbuild's readable output is one line per statement, ~30 bytes each; minified, a
    // line ends only where a legal comment or a template literal does. Identifiers are not renamed,
    // so nothing needs esbuild's keepNames helper, which names each function as it is created.
    const files = [...(await fg('dist/plugins/*/*.bundle.js', { cwd: root })), 'plugin-sdk/dist/typebox.js', 'plugin-sdk/dist/semver.js', 'plugin-sdk/dist/regexp-libraries.js', 'dist/kernel/http/vendor/koa.js', 'dist/kernel/host/vendor/yaml.js', 'dist/kernel/host/vendor/fast-glob.js'];
    assert.ok(files.length >= 40, `found ${files.length} bundles; build first`);
    for (const file of files) {
      const text = read(file);
      const lines = text.split('\n').length;
      assert.ok(lines <= text.length / 400 + 10, `${file}: ${lines} lines in ${text.length} bytes is not minified`);
      assert.doesNotMatch(text, /"name",\{value:/, `${file} names no function at run time`);
    }
    // koa-compose's function under its own name, parameters included.
    assert.match(read('dist/kernel/http/vendor/koa.js'), /\bfunction compose\(middleware\)/);
  });

  it('the SDK imports only its own dependencies', async () => {
    const manifest = JSON.parse(read('plugin-sdk/package.json')) as { dependencies: Record<string, string> };
    const imported = await importedPackages(['plugin-sdk/dist/**/*.js'], 10);
    // TypeBox, semver and the regular-expression libraries are bundled into dist/typebox.js,
    // dist/semver.js and dist/regexp-libraries.js (the types still come from the packages), and the
    // bundles themselves import only Node's own modules.
    assert.ok(!imported.has('typebox'), 'the build bundled TypeBox');
    assert.ok(!imported.has('semver'), 'the build bundled semver');
    for (const name of ['re2js', '@eslint-community/regexpp']) assert.ok(!imported.has(name), `the build bundled ${name}`);
    for (const [name, file] of imported) assert.ok(name in manifest.dependencies, `${file} imports ${name}, which is not in the SDK's dependencies`);
  });
});
