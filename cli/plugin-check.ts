/**
 * `toolshed plugin check <folder or package>`: loads the plugin as the kernel loads it
 * (kernel/host/discover.ts), then runs the very check `serve` runs before it starts
 * (kernel/host/inspect-config.ts: every plugin loads, no group is taken twice or built in, plugin
 * sections, patterns) with the plugin beside the built-in and configured ones, as `plugin dev`
 * serves it. Then it starts the real service with just that plugin (service/testing.ts) and sends
 * each operation's examples over HTTP, so every example takes a request's whole path: validation,
 * handler, response check, error body. Each answer is compared with the example's response; a
 * difference names the plugin, the operation, the example and what differs. Last, the plugin's MCP
 * tools as that service lists them are held to the rules model clients document (mcp/client-rules.ts):
 * a tool a client would skip or refuse is named with the rule and the place.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { OperationExample } from '@toolshed/plugin-sdk';
import { builtinPluginDir, ConfigError, installedPackageJson, loadPlugin } from '../kernel/host/index.js';
import { clientRuleBreaks, describeBreak } from '../mcp/client-rules.js';
import { startKernel } from '../service/testing.js';
import { EXIT, write, type CliIo } from './command.js';
import { inspectConfig, withConfigFile } from './load.js';

/** A folder or file on disk is named by path (absolute, so loadPlugin takes it as one); anything else is a package. */
export function pluginReference(argument: string): string {
  return statSync(argument, { throwIfNoEntry: false }) === undefined ? argument : path.resolve(argument);
}

/** What `npm install` runs of a package, as the user who installs it and with that user's environment. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** The package.json of a plugin: its folder's, or an installed package's; undefined when it has none. */
function packageJsonOf(reference: string): Readonly<Record<string, unknown>> | undefined {
  if (!path.isAbsolute(reference)) return installedPackageJson(reference);
  try {
    return JSON.parse(readFileSync(path.join(statSync(reference).isDirectory() ? reference : path.dirname(reference), 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined; // No package.json, or not JSON: nothing for npm to run either.
  }
}

/** A warning naming the install scripts a plugin's package.json declares, or undefined when it declares none. */
export function installScriptsWarning(reference: string, group: string): string | undefined {
  const scripts = packageJsonOf(reference)?.scripts;
  if (typeof scripts !== 'object' || scripts === null) return undefined;
  const declared = INSTALL_SCRIPTS.filter((name) => typeof (scripts as Record<string, unknown>)[name] === 'string');
  if (declared.length === 0) return undefined;
  const listed = declared.map((name) => `${name}: ${shown((scripts as Record<string, unknown>)[name])}`).join(', ');
  return (
    `warning: plugin ${group}: its package.json declares install scripts (${listed}), which npm runs as the user who installs it, ` +
    'with that user\'s environment: install it with npm install --ignore-scripts (docs/writing-a-plugin.md, section 7)\n'
  );
}

/** JSON text cut to a readable length. */
function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Where `actual` differs from `expected`, as JSON Pointers with both values; at most `limit`. */
export function differences(expected: unknown, actual: unknown, pointer = '', limit = 5): string[] {
  if (isDeepStrictEqual(expected, actual)) return [];
  if (!isObject(expected) || !isObject(actual) || Array.isArray(expected) !== Array.isArray(actual)) {
    return [`${pointer || '/'}: expected ${shown(expected)}, got ${shown(actual)}`];
  }
  const found: string[] = [];
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const escaped = key.replaceAll('~', '~0').replaceAll('/', '~1');
    found.push(...differences(expected[key], actual[key], `${pointer}/${escaped}`, limit - found.length));
    if (found.length >= limit) break;
  }
  return found;
}

interface FailureLine {
  msg?: string;
  error?: { type?: string; stack?: string[] };
  fault?: { undeclaredCode?: string; problems?: string[]; pointers?: string[] };
}

/**
 * What the log says of the first failure, for a 500: the broken part of the manifest (each pointer
 * with what breaks there, never the value), or the error's type and the frame it was thrown at.
 */
function failureOf(logs: readonly string[]): string | undefined {
  for (const line of logs) {
    const { msg, error, fault } = JSON.parse(line) as FailureLine;
    if (msg !== 'request failed') continue;
    if (fault?.undeclaredCode !== undefined) return `threw the error code "${fault.undeclaredCode}", which the manifest does not declare`;
    if (fault !== undefined) return `the answer breaks the response schema: ${(fault.problems ?? fault.pointers ?? []).join('; ')}`;
    if (error) return `${error.type ?? 'an error'} ${error.stack?.[0] ?? ''}`.trim();
  }
  return undefined;
}

/** The rules model clients apply that the group's tools, as `url`'s /mcp lists them, break: `- tool: rule (clients) at /path: what`. */
async function toolProblems(url: string, group: string): Promise<string[]> {
  const response = await fetch(`${url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
  const { result } = (await response.json()) as { result: { tools: Parameters<typeof clientRuleBreaks>[0][] } };
  const tools = result.tools.filter((tool) => tool.name.startsWith(`${group}_`));
  return tools.flatMap((tool) => clientRuleBreaks(tool).map((found) => `${tool.name}: ${describeBreak(found)}`));
}

/**
 * Replays every example of the plugin `argument` names; resolves with the exit code. The
 * configuration (`configFile`, or $TOOLSHED_CONFIG) is read as `serve` reads it.
 */
export async function checkPluginCommand(argument: string, io: CliIo, configFile?: string): Promise<number> {
  // Stacks of a failing handler point at the plugin's TypeScript when it ships source maps (the
  // pool's workers turn them on themselves, kernel/host/offload.ts).
  process.setSourceMapsEnabled(true);
  const reference = pluginReference(argument);
  // The plugin on its own first, so a plugin that does not load says why in the loader's words.
  const { plugin } = await loadPlugin(reference);
  const warning = installScriptsWarning(reference, plugin.group);
  if (warning !== undefined) await write(io.stderr, warning);
  // The check `serve` runs before it starts, with the plugin beside the built-in and configured ones.
  const inspection = await inspectConfig(withConfigFile(io.env, configFile), builtinPluginDir, [reference]);
  if (inspection.problems.length > 0) {
    await write(io.stderr, `toolshed: plugin ${plugin.group}: toolshed serve would not start with it.\n${new ConfigError(inspection.problems).message}\n`);
    return EXIT.refused;
  }
  // The plugin's own section, as the configuration gives it (the fixture keeps only the kernel's).
  const section = plugin.config?.section;
  const given = section === undefined ? undefined : (inspection.config as Readonly<Record<string, unknown>>)[section];
  const kernel = await startKernel({ plugins: [reference], logLevel: 'error', config: section === undefined || given === undefined ? {} : { [section]: given } });
  const problems: string[] = [];
  let ruleBreaks: string[];
  let count = 0;
  try {
    for (const [name, operation] of Object.entries(plugin.operations)) {
      const examples: readonly OperationExample[] = operation.examples;
      for (const [index, example] of examples.entries()) {
        count++;
        const where = `${plugin.group}/${name} example ${index + 1}${example.title === undefined ? '' : ` (${example.title})`}`;
        const seen = kernel.logs().length;
        const response = await fetch(`${kernel.url}/v1/${plugin.group}/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(example.body),
        });
        const answer = (await response.json()) as unknown;
        if (response.status !== 200) {
          const error = (answer as { error?: { code?: string; message?: string } }).error;
          const failure = response.status === 500 ? failureOf(kernel.logs().slice(seen)) : undefined;
          problems.push(`${where}: answered ${response.status} ${error?.code}: ${error?.message}${failure === undefined ? '' : ` (${failure})`}`);
        } else if (example.exact !== false) {
          // exact: false marks random output: the kernel has checked the answer against the response schema.
          problems.push(...differences(example.response, answer).map((difference) => `${where}: ${difference}`));
        }
      }
    }
    ruleBreaks = await toolProblems(kernel.url, plugin.group);
  } finally {
    await kernel.stop();
  }
  if (problems.length > 0) await write(io.stderr, `toolshed: plugin ${plugin.group}: examples do not answer as they show:\n${problems.map((problem) => `- ${problem}\n`).join('')}`);
  if (ruleBreaks.length > 0) {
    const heading = `toolshed: plugin ${plugin.group}: MCP tools a model's client would skip or refuse (docs/mcp.md, "Schemas every client takes"):`;
    await write(io.stderr, `${heading}\n${ruleBreaks.map((line) => `- ${line}\n`).join('')}`);
  }
  if (problems.length > 0 || ruleBreaks.length > 0) return EXIT.refused;
  if (path.isAbsolute(reference) && statSync(reference).isDirectory() && path.basename(reference) !== plugin.group) {
    // Said, not refused: the folder may be a package's (a repository's name), which loads by its package name.
    await write(io.stdout, `note: to be served from plugins.dirs the folder must be named "${plugin.group}", not "${path.basename(reference)}"\n`);
  }
  const operations = Object.keys(plugin.operations).length;
  await write(io.stdout, `plugin ${plugin.group}: loads, and its ${count} example${count === 1 ? '' : 's'} of ${operations} operation${operations === 1 ? '' : 's'} answer as shown\n`);
  return EXIT.ok;
}
