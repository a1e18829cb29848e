// The layer rule (docs/decisions.md, "Layers"): arrows point one way,
//   front doors (kernel/http, mcp, tool-pages, cli, recipes) → the host (kernel/host) → plugin-sdk ← plugins,
// with service/ (the composition root) wiring host and front doors, and cli/ (the process's entry)
// starting the service or the stdio door. The host knows no transport; every door enters it through
// kernel/host/index.ts (what a door runs on the pool may use kernel/host/body.ts, which loads far less), and a door built on the HTTP door (MCP at /mcp) enters that through kernel/http/index.ts. `npm test` runs this over the real tree
// (scripts/check-layers.mjs); test/layers.test.ts runs it over test/fixtures/layers/ to show that
// each rule fails on a new arrow back. Paths are relative to the folder depcruise runs in.
// Colocated tests (`kernel/x.test.ts`) obey their folder's rules; only test/ may import anything.
// The SDK has three faces (plugin-sdk/package.json "exports"): `.` for a plugin's source, `/testing`
// for its tests, `/contract` for the host and the doors that read manifests.

const FRONT_DOORS = '^(mcp|tool-pages|cli|recipes)/';
const HOST_ENGINE_MODULES = '^(node:)?(worker_threads|v8|vm)$';
// Built-in plugins, and the example of a third-party one (examples/<name>/ is one plugin each).
const PLUGIN = '^(plugins|examples)/';
const KOA = '(^|node_modules/)(koa|koa-[^/]+|@koa/[^/]+)(/|$)';
// A plugin's tests and the helpers only they import.
const PLUGIN_TEST = '^(plugins|examples)/.+(\\.test|/test-helpers)\\.ts$';
// The SDK as a plugin reaches it: by its package name (unresolved before the SDK is built), or the
// built file that name resolves to (plugin-sdk/dist/), or a file of its source by path.
const SDK = '^@toolshed/plugin-sdk(/|$)|(^|/)plugin-sdk/(src|dist)/';
/** The files of the SDK's faces named, each as its package name gives it or as built or source file. */
const sdkFaces = (...faces) =>
  faces.map((face) => `^@toolshed/plugin-sdk${face === 'index' ? '' : `/${face}`}$|(^|/)plugin-sdk/(src|dist)/${face}\\.(ts|js|d\\.ts)$`).join('|');
// The host by its package name (`toolshed/testing`), or the built file that resolves to.
const HOST_BY_NAME = '^toolshed(/|$)|(^|/)dist/(kernel|service)/';
// Everything that speaks a transport: the HTTP door, Koa, Node's servers and sockets.
const TRANSPORT = `^kernel/http/|${KOA}|^(node:)?(http|https|http2|net|tls)$`;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle anywhere, type-only imports included: a cycle means two files are one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kernel-imports-no-front-door',
      comment: 'The kernel knows no front door: service/ wires them to it.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: '^(mcp|tool-pages|cli|recipes|service)/' },
    },
    {
      name: 'host-knows-no-transport',
      comment: 'kernel/host/ runs operations for every door: it imports no door, no Koa, no HTTP server; refusals are the SDK\'s typed errors, which each door maps.',
      severity: 'error',
      from: { path: '^kernel/host/' },
      to: { path: TRANSPORT },
    },
    {
      name: 'doors-enter-the-host-through-its-entry',
      comment: 'A door (the HTTP door, MCP, the pages, the CLI, recipes) and the composition root use the host through kernel/host/index.ts, and what it runs on the pool through kernel/host/body.ts (a body\'s bytes and the JSON rules) too.',
      severity: 'error',
      from: { path: '^(kernel/http|mcp|tool-pages|cli|recipes|service)/' },
      to: { path: '^kernel/host/', pathNot: '^kernel/host/(index|body)\\.ts$' },
    },
    {
      name: 'doors-enter-the-http-door-through-its-entry',
      comment:
        'What builds on the HTTP door (MCP at /mcp, the composition root, the CLI\'s openapi) uses it through kernel/http/index.ts only; ' +
        'the API key format (api-keys.ts, node:crypto alone) is its one other entry, so `keys new` makes a key without loading Koa.',
      severity: 'error',
      from: { path: '^(mcp|tool-pages|cli|recipes|service)/' },
      to: { path: '^kernel/http/', pathNot: '^kernel/http/(index|api-keys)\\.ts$' },
    },
    {
      name: 'only-tests-import-a-plugin',
      comment: 'Plugins are discovered at run time by path, never imported by name, not even by service/.',
      severity: 'error',
      from: { path: '^(kernel|mcp|tool-pages|cli|recipes|service|plugin-sdk)/' },
      to: { path: PLUGIN },
    },
    {
      name: 'sdk-is-the-contract-only',
      comment: 'plugin-sdk/ imports nothing of the host, a front door, a plugin or the tests.',
      severity: 'error',
      from: { path: '^plugin-sdk/' },
      to: { path: '^(kernel|mcp|tool-pages|cli|recipes|service|test)/' },
    },
    {
      name: 'sdk-has-no-engine-machinery',
      comment: 'worker_threads, v8 and vm belong to the host, which hands a handler what it needs through its context.',
      severity: 'error',
      from: { path: '^plugin-sdk/' },
      to: { path: HOST_ENGINE_MODULES },
    },
    {
      name: 'plugin-imports-only-the-sdk',
      comment: 'A plugin imports the SDK and npm packages, never the host (not even by its package name, toolshed/testing), a front door, the service or the tests.',
      severity: 'error',
      from: { path: PLUGIN },
      to: { path: `^(kernel|mcp|tool-pages|cli|recipes|service|test)/|${HOST_BY_NAME}` },
    },
    {
      name: 'plugin-source-imports-the-sdk-face-only',
      comment: "A plugin's source imports the SDK's `.` only: not /testing (its tests' helpers), not /contract (what the host composes a plugin with), not a file of the SDK by path.",
      severity: 'error',
      from: { path: PLUGIN, pathNot: PLUGIN_TEST },
      to: { path: SDK, pathNot: sdkFaces('index') },
    },
    {
      name: 'plugin-tests-import-the-sdk-and-its-testing-face',
      comment: "A plugin's tests import the SDK's `.` and /testing, never /contract: a test that needs the host (its worker threads, its contract) lives in test/, which hands the host in.",
      severity: 'error',
      from: { path: PLUGIN_TEST },
      to: { path: SDK, pathNot: sdkFaces('index', 'testing') },
    },
    {
      name: 'plugin-imports-no-other-plugin',
      comment: 'One folder per group: a plugin never imports another plugin.',
      severity: 'error',
      from: { path: '^(plugins|examples)/([^/]+)/' },
      to: { path: PLUGIN, pathNot: '^$1/$2/' },
    },
    {
      name: 'plugin-imports-no-koa',
      comment: 'A handler never sees Koa: the kernel speaks HTTP, a plugin only its body and context.',
      severity: 'error',
      from: { path: PLUGIN },
      to: { path: KOA },
    },
    {
      name: 'front-door-imports-no-other-front-door',
      comment: 'mcp/, tool-pages/ and recipes/ are each a client of the kernel only; service/ wires them.',
      severity: 'error',
      from: { path: '^(mcp|tool-pages|recipes)/' },
      to: { path: `${FRONT_DOORS}|^service/`, pathNot: '^$1/' },
    },
    {
      name: 'cli-starts-only-the-service-or-mcp',
      comment: 'cli/ is the process entry: it may start the composed service/ or the stdio door in mcp/, nothing else of the other doors.',
      severity: 'error',
      from: { path: '^cli/' },
      to: { path: '^(tool-pages|recipes)/' },
    },
    {
      name: 'service-is-started-by-cli',
      comment: 'The composition root is started by cli/ and imports it never (that arrow would make a folder cycle).',
      severity: 'error',
      from: { path: '^service/' },
      to: { path: '^cli/' },
    },
    {
      name: 'only-tests-import-tests',
      comment: 'Shipped code never depends on the test folder.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    // Type-only imports count: `import type` across a layer is still an arrow back.
    tsPreCompilationDeps: true,
    // Packages are seen (koa is a rule) but not read; the build output (the SDK's, and the host's that
    // `toolshed/testing` resolves to) is the source again.
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    // Fixtures are test data (test/fixtures/layers/ breaks every rule on purpose); an example's own
    // install and build output are not its source.
    exclude: { path: '^test/fixtures/|^examples/[^/]+/(node_modules|dist)/' },
    moduleSystems: ['es6'],
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
