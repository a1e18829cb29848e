/**
 * Every `toolshed` command: words, arguments, options, help. The work lives in the modules each
 * `run` imports on demand, so `--help` and `keys new` load no plugin and no HTTP stack.
 */
import type { Readable, Writable } from 'node:stream';
import { EXIT, write, type Command, type OptionSpec } from './command.js';

const configOption: OptionSpec = {
  type: 'string',
  value: '<file>',
  description: 'A YAML file merged over config/default.yaml (instead of $TOOLSHED_CONFIG)',
};

/** How every command that loads the configuration finds it. */
const configSources =
  'The configuration is read as `serve` reads it: config/default.yaml, the file (or $TOOLSHED_CONFIG)\n' +
  'merged over it, then $PORT and $HOST.';

const stringValue = (value: string | boolean | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

export const commands: readonly Command[] = [
  {
    words: ['serve'],
    args: '',
    summary: 'Start the HTTP service (what npm start runs)',
    help:
      'Serves every enabled plugin until SIGTERM or SIGINT, then stops accepting connections, lets\n' +
      'in-flight requests finish (at most server.shutdownTimeoutMs) and exits.\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 stopped by a signal, 1 could not start (the reason is on stderr), 2 usage error.',
    options: {
      config: configOption,
      port: { type: 'string', value: '<port>', description: 'Listen port, 0 for any free one (instead of $PORT)' },
      host: { type: 'string', value: '<address>', description: 'Listen address (instead of $HOST)' },
    },
    positionals: { min: 0, max: 0 },
    async run({ values }, io) {
      const { serve } = await import('../service/serve.js');
      const env: NodeJS.ProcessEnv = { ...io.env };
      if (typeof values.config === 'string') env.TOOLSHED_CONFIG = values.config;
      if (typeof values.port === 'string') env.PORT = values.port;
      if (typeof values.host === 'string') env.HOST = values.host;
      await serve(env, io.stderr);
      // Listening: the service owns the process now, and only a signal ends it (serve.ts).
      return new Promise<number>(() => undefined);
    },
  },
  {
    words: ['call'],
    args: '<group>/<operation> [json | -]',
    summary: 'Run one operation in this process, without a server',
    help:
      'Runs the operation on the JSON body given as the argument, read from stdin for "-", or {} when\n' +
      'there is none, with the same validation, defaults and error bodies as POST /v1/<group>/<operation>.\n' +
      'The answer goes to stdout as one line of JSON; an error body {"error":{...}} goes to stderr.\n\n' +
      `${configSources}\n\n` +
      'Example: toolshed call base64/encode \'{"text":"hi"}\'   prints {"base64":"aGk="}\n\n' +
      'Exit codes: 0 answered, 1 refused (a 4xx answer over HTTP, or the configuration cannot be loaded),\n' +
      '2 usage error (an unknown operation names the nearest one), 3 the operation failed (a 5xx answer).',
    options: { config: configOption },
    positionals: { min: 1, max: 2 },
    async run({ values, positionals }, io) {
      const { callCommand } = await import('./call.js');
      return callCommand(positionals[0]!, positionals[1], stringValue(values.config), io);
    },
  },
  {
    words: ['recipe', 'run'],
    args: '<file | ->',
    summary: 'Run a recipe (a chain of operations) in this process, without a server',
    help:
      'Runs the recipe in <file>, or read from stdin for "-": the JSON request POST /v1/recipes/run\n' +
      'takes ({"input": ..., "steps": [{"operation": "base64/decode"}, ...], "keep": "last"}), checked\n' +
      'against every step\'s schema before anything runs. The answer ({"result": ...}) goes to stdout as\n' +
      'one line of JSON; an error body {"error":{...}} goes to stderr, its details naming /steps/N.\n' +
      'Recipes are described in docs/recipes.md.\n\n' +
      `${configSources}\n\n` +
      'Example: echo \'{"input":"aGk=","steps":[{"operation":"base64/decode"}]}\' | toolshed recipe run -\n' +
      '         prints {"result":{"text":"hi"}}\n\n' +
      'Exit codes: 0 answered, 1 refused (a 4xx answer over HTTP: the recipe does not fit its operations,\n' +
      'or a step refused its input; the file or the configuration cannot be read), 2 usage error,\n' +
      '3 a step failed (a 5xx answer).',
    options: { config: configOption },
    positionals: { min: 1, max: 1 },
    async run({ values, positionals }, io) {
      const { recipeRunCommand } = await import('./recipe.js');
      return recipeRunCommand(positionals[0]!, stringValue(values.config), io);
    },
  },
  {
    words: ['identify'],
    args: '<text | ->',
    summary: 'Say what a text is (a JWT, Base64, a timestamp...) and the recipe that decodes it',
    help:
      'Identifies <text>, or stdin for "-" (less one final line break), as POST /v1/recipes/identify\n' +
      'does: candidates best first, each with a kind, a confidence, the recipe that decodes it (run it\n' +
      'with "toolshed recipe run") and a preview of its answer, as one line of JSON on stdout. Only\n' +
      'local operations run: nothing leaves the machine.\n\n' +
      `${configSources}\n\n` +
      'Example: toolshed identify 0x1F   prints {"candidates":[{"kind":"hex-number",...}]}\n\n' +
      'Exit codes: 0 answered (no candidate is an answer too), 1 refused (a 4xx answer: a text over\n' +
      '1,048,576 characters, a depth or limit out of range; or the configuration cannot be loaded),\n' +
      '2 usage error, ' +
      '3 failed (a 5xx answer).',
    options: {
      config: configOption,
      depth: { type: 'string', value: '<1-5>', description: 'Most layers unwrapped (default 3)' },
      limit: { type: 'string', value: '<1-20>', description: 'Most candidates answered (default 5)' },
    },
    positionals: { min: 1, max: 1 },
    async run({ values, positionals }, io) {
      const { identifyCommand } = await import('./recipe.js');
      return identifyCommand(positionals[0]!, { config: stringValue(values.config), depth: stringValue(values.depth), limit: stringValue(values.limit) }, io);
    },
  },
  {
    words: ['openapi'],
    args: '',
    summary: 'Print the OpenAPI document of the enabled plugins',
    help:
      'Prints the document GET /v1/openapi.json serves, as indented JSON.\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 printed, 1 the configuration cannot be loaded, 2 usage error.',
    options: { config: configOption },
    positionals: { min: 0, max: 0 },
    async run({ values }, io) {
      const [{ loadRegistry, servedOperations, withConfigFile }, { buildOpenApiDocument }, { API_VERSION }] = await Promise.all([
        import('./load.js'),
        import('../kernel/http/index.js'),
        import('../kernel/host/index.js'),
      ]);
      const { config, registry } = await loadRegistry(withConfigFile(io.env, stringValue(values.config)));
      await write(io.stdout, `${JSON.stringify(buildOpenApiDocument(servedOperations(config, registry), API_VERSION, registry.disabledGroups), null, 2)}\n`);
      return EXIT.ok;
    },
  },
  {
    words: ['mcp'],
    args: '',
    summary: 'Serve every operation as an MCP tool over stdio (for desktop agents)',
    help:
      'Speaks the Model Context Protocol on stdin/stdout until stdin ends: one tool per enabled\n' +
      'operation, run with the validation, worker pool and error bodies of the HTTP service, without\n' +
      'keys or rate limits. Log lines go to stderr; stdout carries only the protocol (docs/mcp.md).\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 the client closed stdin, 1 the configuration or a plugin cannot be loaded, 2 usage error.',
    options: { config: configOption },
    positionals: { min: 0, max: 0 },
    async run({ values }, io) {
      const [{ loadRegistry, openServiceHost, withConfigFile }, { serveStdio, stderrLogger }] = await Promise.all([import('./load.js'), import('../mcp/stdio.js')]);
      const { config, registry } = await loadRegistry(withConfigFile(io.env, stringValue(values.config)));
      const host = await openServiceHost(config, registry, stderrLogger(config.log.level));
      await serveStdio(host, io.stdin as Readable, io.stdout as Writable);
      return EXIT.ok;
    },
  },
  {
    words: ['config', 'check'],
    args: '[file]',
    summary: 'Check a configuration file and print every problem',
    help:
      'Checks the configuration the service would start with: the kernel\'s sections, every plugin\'s\n' +
      'section, unknown keys, plugin names in plugins.enabled/disabled, and that every plugin loads.\n' +
      'Prints every problem as "- <JSON pointer>: <what is wrong>", or one line when there is none.\n' +
      'With --connect it also connects to the Redis of rateLimit.redis.url and runs the rate-limit\n' +
      'script there, as the service will: a Redis that does not answer is a problem.\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 valid, 1 problems found (or a file cannot be read), 2 usage error.',
    options: { connect: { type: 'boolean', description: 'Also try the Redis of rateLimit.redis.url' } },
    positionals: { min: 0, max: 1 },
    async run({ values, positionals }, io) {
      const { checkConfig } = await import('./config-view.js');
      return checkConfig(positionals[0], io, values.connect === true);
    },
  },
  {
    words: ['config', 'print'],
    args: '[file]',
    summary: 'Print the merged configuration as YAML (secrets masked)',
    help:
      'Prints the configuration the service would run with, every default filled in (plugin sections\n' +
      'too), as YAML. API key digests and the password of rateLimit.redis.url are shown as "…".\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 printed, 1 the configuration has problems (listed on stderr), 2 usage error.',
    options: {},
    positionals: { min: 0, max: 1 },
    async run({ positionals }, io) {
      const { printConfig } = await import('./config-view.js');
      return printConfig(positionals[0], io);
    },
  },
  {
    words: ['keys', 'new'],
    args: '<name>',
    summary: 'Create an API key and print its configuration entry',
    help:
      'Prints a new random key (tsk_ and 32 letters and digits) once, and the auth.apiKeys entry holding\n' +
      'its name and SHA-256. The key itself is stored nowhere. The name may hold letters, digits, ".",\n' +
      '"_" and "-" (at most 64); it is what the access log shows for requests with the key.\n\n' +
      'Exit codes: 0 printed, 2 usage error (a bad name too).',
    options: {},
    positionals: { min: 1, max: 1 },
    async run({ positionals }, io) {
      const { newKeyText } = await import('./keys.js');
      await write(io.stdout, newKeyText(positionals[0]!));
      return EXIT.ok;
    },
  },
  {
    words: ['plugin', 'new'],
    args: '<group> [dir]',
    summary: 'Write a new plugin folder to start from',
    help:
      'Writes a plugin for the group <group> (kebab-case, its URL segment) into [dir], ./<group> by\n' +
      'default, and prints each file written. The folder must not exist or be empty; any name will do,\n' +
      'but plugins.dirs serves only a folder named after its group. A group the service already has\n' +
      '(built in, or loaded by the configuration) is refused, naming where it comes from.\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 written, 1 not written (the reason is on stderr), 2 usage error.',
    options: { config: configOption },
    positionals: { min: 1, max: 2 },
    async run({ values, positionals }, io) {
      const [{ scaffoldPlugin }, { takenGroups, withConfigFile }, path] = await Promise.all([import('./scaffold/scaffold.js'), import('./load.js'), import('node:path')]);
      const group = positionals[0]!;
      const dir = positionals[1] ?? group;
      const files = await scaffoldPlugin({ group, dir, taken: await takenGroups(withConfigFile(io.env, stringValue(values.config))) });
      await write(io.stdout, files.map((file) => `${path.join(dir, file)}\n`).join(''));
      return EXIT.ok;
    },
  },
  {
    words: ['plugin', 'check'],
    args: '<folder | package>',
    summary: "Load a plugin as the service would and replay its examples",
    help:
      'Loads the plugin as the service loads it (a folder as plugins.dirs loads each of its folders;\n' +
      'anything that is not a path on disk as an installed package, as plugins.packages does), then\n' +
      'runs the check `serve` runs before it starts, with the plugin beside the built-in and configured\n' +
      'ones: whatever would stop `serve` (a group that is built in or taken, a bad plugin section, ...)\n' +
      'stops the check with the same words. Then it starts the service on 127.0.0.1 with just that\n' +
      'plugin and POSTs each example of each operation. An answer must equal the example\'s response\n' +
      '(for an example marked exact: false, be a 200). Prints one line when all do; otherwise, on\n' +
      'stderr, one line per difference: "<group>/<operation> example <n>: <JSON pointer>: expected\n' +
      '<value>, got <value>", or the status and error the example got instead, with what the log says\n' +
      'of it (the field an answer has but its schema does not declare, or the stack frame).\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 every example answers as shown, 1 the plugin cannot be loaded, serve would refuse\n' +
      'it, or an example differs, 2 usage error.',
    options: { config: configOption },
    positionals: { min: 1, max: 1 },
    async run({ values, positionals }, io) {
      const { checkPluginCommand } = await import('./plugin-check.js');
      return checkPluginCommand(positionals[0]!, io, stringValue(values.config));
    },
  },
  {
    words: ['plugin', 'dev'],
    args: '<folder>',
    summary: 'Serve a plugin folder beside the built-ins, restarting once per build',
    help:
      'Serves the built-in plugins, the configured ones and the plugin in <folder> (loaded as\n' +
      'plugins.dirs loads a folder), with source maps on, so a stack names the .ts line. Once per build\n' +
      '(the files one build writes are taken together) the service is started again with the new code:\n' +
      'when a file it loads has changed (node_modules/, .git/ and TypeScript sources aside). Run\n' +
      '"npx tsc --watch" in the folder beside it to rebuild on every save; when src/ is newer than dist/\n' +
      '(not built yet, or the build failed) it says so. When the changed plugin cannot be loaded, the\n' +
      'reason is printed and the next change is awaited. Stops on SIGINT or SIGTERM.\n\n' +
      `${configSources}\n\n` +
      'Exit codes: 0 stopped by a signal, 2 usage error.',
    options: {
      config: configOption,
      port: { type: 'string', value: '<port>', description: 'Listen port, 0 for any free one (instead of $PORT)' },
    },
    positionals: { min: 1, max: 1 },
    async run({ values, positionals }, io) {
      const { devCommand } = await import('./plugin-dev.js');
      return devCommand(positionals[0]!, { config: stringValue(values.config), port: stringValue(values.port) }, io);
    },
  },
];
