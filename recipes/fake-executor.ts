/**
 * For the tests of this folder only: a small executor that runs real plugin manifests through the
 * SDK's invoke() (the real validation pipeline and answer check), offers each operation's
 * definition as a structured clone without its handler (as a worker-hosted manifest arrives), and
 * counts every run so tests can assert how much work was done.
 */
import { readdirSync } from 'node:fs';
import { ToolshedError, type Plugin } from '@toolshed/plugin-sdk';
import { invoke } from '@toolshed/plugin-sdk/testing';
import { type Answer, answerOf, type Executor, joinedBytes, nearest, type OperationInfo, type RunRequest } from '../kernel/host/index.js';

export interface FakeExecutorOptions {
  /** Plugins beside (or instead of) the built-ins. */
  readonly plugins?: readonly Plugin[];
  /** Leave the built-in plugins out. */
  readonly withoutBuiltins?: boolean;
  /** The answer cap in bytes (422 output_too_large above it); default 32 MiB. */
  readonly answerCapBytes?: number;
}

export interface FakeExecutor extends Executor {
  /** Every run asked for, in order, its operation by name and its body as a value, however it was sent. */
  readonly runs: (RunRequest & { readonly operation: string })[];
}

/** Every built-in plugin, from the compiled plugins/ folder. */
export async function builtinPlugins(): Promise<Plugin[]> {
  const folder = new URL('../plugins/', import.meta.url);
  const groups = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(groups.map(async (group) => (await import(new URL(`${group}/index.js`, folder).href) as { default: Plugin }).default));
}

function infoOf(plugin: Plugin, name: string): OperationInfo {
  // Functions do not survive a structured clone; a worker-hosted manifest arrives without them.
  const data = { ...plugin.operations[name]!, handler: undefined };
  return {
    id: `${plugin.group}.${name}`,
    name: `${plugin.group}/${name}`,
    group: plugin.group,
    operation: name,
    summary: data.summary,
    description: data.description,
    requestSchema: data.body,
    responseSchema: data.response,
    examples: data.examples.map((example) => ({ ...example, body: { ...example.body } })),
    errors: plugin.errors ?? {},
    upstream: data.upstream === true,
    definition: structuredClone(data),
  };
}

/** An executor over the built-in plugins (and `options.plugins`), fixed clock-free and in-process. */
export async function fakeExecutor(options: FakeExecutorOptions = {}): Promise<FakeExecutor> {
  const plugins = [...(options.withoutBuiltins === true ? [] : await builtinPlugins()), ...(options.plugins ?? [])];
  const byName = new Map<string, { plugin: Plugin; info: OperationInfo }>();
  for (const plugin of plugins) for (const name of Object.keys(plugin.operations)) byName.set(`${plugin.group}/${name}`, { plugin, info: infoOf(plugin, name) });
  const infos = [...byName.values()].map((entry) => entry.info);
  const cap = options.answerCapBytes ?? 32 * 1024 * 1024;
  const runs: FakeExecutor['runs'] = [];
  return {
    runs,
    operations: () => infos,
    find: (name) => byName.get(name)?.info,
    nearest: (name) => nearest(name, byName.keys(), 3),
    async run(request): Promise<Answer> {
      const name = typeof request.operation === 'string' ? request.operation : request.operation.name;
      const value = request.bytes === undefined ? request.body : (JSON.parse(Buffer.from(joinedBytes(request.bytes)).toString('utf8')) as unknown);
      runs.push({ ...request, operation: name, body: value });
      const entry = byName.get(name);
      if (entry === undefined) throw new ToolshedError(404, 'not_found', `No operation ${name}`);
      const answer = await invoke(entry.plugin, entry.info.operation, value, { signal: request.caller?.gone() });
      return answerOf(JSON.stringify(answer), cap);
    },
  };
}
