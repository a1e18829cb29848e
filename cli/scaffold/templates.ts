/**
 * The files of a new plugin folder. They are TypeScript strings rather than files on disk because
 * the build copies only compiled .ts into dist/, where `toolshed plugin new` runs from.
 */

/** One file to write, by its path relative to the plugin folder. */
export interface TemplateFile {
  readonly path: string;
  readonly content: string;
}

/** What the templates are filled in with. */
export interface TemplateValues {
  /** The plugin's group (kebab-case, already checked). */
  readonly group: string;
  /** The SDK version of this Toolshed: the range `^<version>` and the tarball's name come from it. */
  readonly sdkVersion: string;
  /** The `toolshed` dev dependency (`file:<path of the checkout>`): the kernel the tests start. */
  readonly toolshed: string;
}

/** The tarball `npm pack -w plugin-sdk` writes for this SDK version. */
export function sdkTarballName(sdkVersion: string): string {
  return `toolshed-plugin-sdk-${sdkVersion}.tgz`;
}

/** The npm package name a plugin of `group` gets. */
export function packageName(group: string): string {
  return `toolshed-plugin-${group}`;
}

function packageJson({ group, sdkVersion, toolshed }: TemplateValues): string {
  const manifest = {
    name: packageName(group),
    version: '0.1.0',
    description: `Toolshed plugin: the ${group} tools`,
    type: 'module',
    main: './dist/index.js',
    exports: './dist/index.js',
    // index.js lets Toolshed load the folder from plugins.dirs; the tests stay out of the package.
    files: ['index.js', 'dist', '!dist/*.test.js', '!dist/*.test.js.map'],
    engines: { node: '>=20.19.0' },
    scripts: {
      build: 'tsc',
      // The shell expands the glob: Node 20 does not, and Node 22+ would run a folder name as a script.
      // `toolshed plugin check` loads the plugin as the service does and replays its examples.
      test: 'npm run build && toolshed plugin check . && node --enable-source-maps --test dist/*.test.js',
      prepack: 'npm run build',
    },
    peerDependencies: { '@toolshed/plugin-sdk': `^${sdkVersion}` },
    devDependencies: {
      '@toolshed/plugin-sdk': `file:${sdkTarballName(sdkVersion)}`,
      '@types/node': '^20.19.0',
      toolshed,
      typescript: '^5.9.3',
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** noEmitOnError: a build with a type error writes nothing, so dist/ never holds a half-built plugin. */
const tsconfig = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "skipLibCheck": true,
    "types": ["node"],
    "rootDir": "src",
    "outDir": "dist",
    "sourceMap": true,
    "noEmitOnError": true
  },
  "include": ["src"]
}
`;

const entry = `// Toolshed loads <plugins dir>/<group>/index.js. The plugin is written in src/ and built into dist/.
export { default } from './dist/index.js';
`;

function manifestSource({ group, sdkVersion }: TemplateValues): string {
  return `import { defineOperation, definePlugin, Type } from '@toolshed/plugin-sdk';

const closed = { additionalProperties: false } as const;

export default definePlugin({
  group: '${group}',
  sdk: '^${sdkVersion}',
  summary: 'The ${group} tools',
  operations: {
    reverse: defineOperation({
      summary: 'Reverse a text, character by character',
      body: Type.Object({ text: Type.String({ maxLength: 10000, description: 'The text to reverse' }) }, closed),
      response: Type.Object({ reversed: Type.String() }, closed),
      examples: [{ body: { text: 'stressed' }, response: { reversed: 'desserts' } }],
      // Array.from splits by code point, so a character outside the BMP is not torn in two.
      handler: ({ text }) => ({ reversed: Array.from(text).reverse().join('') }),
    }),
  },
});
`;
}

function testSource({ group }: TemplateValues): string {
  return `import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { invoke, rejectsWith, startTestKernel, type TestKernel } from '@toolshed/plugin-sdk/testing';
import * as toolshed from 'toolshed/testing';
import plugin from './index.js';

test('reverse turns a text around by characters, not by UTF-16 units', async () => {
  const { reversed } = await invoke(plugin, 'reverse', { text: 'stressed' });
  assert.equal(reversed, 'desserts');
  assert.deepEqual(await invoke(plugin, 'reverse', { text: 'a\\u{1F600}b' }), { reversed: 'b\\u{1F600}a' });
});

test('every example answers as it shows', async () => {
  for (const [name, operation] of Object.entries(plugin.operations)) {
    for (const [index, example] of operation.examples.entries()) {
      const answer = await invoke(plugin, name, example.body);
      // exact: false marks random output: invoke() has checked it against the response schema.
      if (example.exact !== false) assert.deepEqual(answer, example.response, \`\${name} example \${index + 1}\`);
    }
  }
});

test('reverse refuses a body without text, naming the field', async () => {
  await rejectsWith(invoke(plugin, 'reverse', {}), 400, 'validation_failed', ['/text']);
});

// Over HTTP: the real Toolshed serving just this plugin (Toolshed is a dev dependency, handed in).
let kernel: TestKernel;
before(async () => {
  kernel = await startTestKernel(toolshed, { plugins: [new URL('./index.js', import.meta.url)] });
});
after(() => kernel.stop());

test('the service answers POST /v1/${group}/reverse, and refuses what the schema refuses', async () => {
  const answer = await kernel.post('${group}/reverse', { text: 'stressed' });
  assert.deepEqual([answer.status, answer.body], [200, { reversed: 'desserts' }]);
  const refused = await kernel.post('${group}/reverse', { text: 'stressed', extra: 1 });
  assert.equal(refused.status, 400);
  assert.deepEqual((refused.body as { error: { details: unknown } }).error.details, [{ path: '/extra', message: 'is not an allowed property; allowed: text' }]);
});
`;
}

function readme({ group, sdkVersion, toolshed }: TemplateValues): string {
  const tarball = sdkTarballName(sdkVersion);
  return `# ${packageName(group)}

A Toolshed plugin: the \`${group}\` tool group, served at \`POST /v1/${group}/<operation>\`.

## Set up

The SDK comes from a Toolshed checkout as a tarball kept in this folder (\`package.json\` names
\`file:${tarball}\`), so the folder installs on any machine:

\`\`\`sh
npm pack -w plugin-sdk --pack-destination /path/to/this/folder   # in the Toolshed checkout
npm install                                                       # here
\`\`\`

The tests start Toolshed itself, a dev dependency linked from the built checkout
(\`"toolshed": "${toolshed}"\`, the checkout's path from here); where the checkout lives elsewhere,
\`npm install --save-dev /path/to/toolshed\`.

## Build and test

\`npm test\` builds \`src/\` into \`dist/\` (with source maps, so stacks name \`src/\` lines; a
build with a type error writes nothing), runs \`toolshed plugin check .\` (the plugin loaded as the
service loads it and checked as \`serve\` checks it before it starts, each example sent over HTTP
and its answer compared) and then \`dist/*.test.js\` with Node's test runner, which replays every
example too; \`npm run build\` only builds. \`invoke()\` from \`@toolshed/plugin-sdk/testing\` runs
an operation through the service's validation without HTTP; \`startTestKernel(toolshed, …)\`
starts the service handed in (\`toolshed/testing\`) with just this plugin and gives a client for it. \`npx toolshed plugin dev .\` serves the plugin beside the built-in ones
and restarts once per build of \`dist/\` (run \`npx tsc --watch\` beside it); it says when \`src/\`
is newer than \`dist/\`.

## Load it

- As a folder: build it, then name the folder that holds this one in Toolshed's configuration,
  \`plugins: { dirs: [/path/to/parent] }\`. Toolshed loads \`${group}/index.js\`, which re-exports
  \`dist/index.js\`, so this folder must then be named \`${group}\`.
- As a package: \`npm pack\` here writes \`${packageName(group)}-0.1.0.tgz\`; \`npm install --ignore-scripts\`
  that file in the Toolshed checkout and set \`plugins: { packages: [${packageName(group)}] }\`. The SDK is a peer
  dependency, so the plugin then uses the SDK of the Toolshed that loads it.
`;
}

const gitignore = `node_modules/
dist/
`;

/** Every file of a new plugin folder, in the order they are written. */
export function pluginFiles(values: TemplateValues): TemplateFile[] {
  return [
    { path: 'package.json', content: packageJson(values) },
    { path: 'tsconfig.json', content: tsconfig },
    { path: 'index.js', content: entry },
    { path: 'src/index.ts', content: manifestSource(values) },
    { path: 'src/index.test.ts', content: testSource(values) },
    { path: 'README.md', content: readme(values) },
    { path: '.gitignore', content: gitignore },
  ];
}
