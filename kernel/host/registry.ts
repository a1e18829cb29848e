/**
 * The registry: every enabled operation, compiled once, keyed by its URL path, with its plugin's
 * validated configuration. Plugin config sections are checked here, because only now is it known
 * which top-level keys belong to a plugin.
 */
import { isToolshedError, SUPERLINEAR_OFFLOAD_BYTES, type ErrorDetail, type Plugin } from '@toolshed/plugin-sdk';
import { resolvePluginConfig } from '@toolshed/plugin-sdk/contract';
import { compileOperation, termsOf, type CompiledOperation, type OperationTerms } from './operations.js';
import type { ManifestData } from './manifest-data.js';
import { ConfigError, coreSections, withSuggestions, type Config } from './config.js';
import type { DeferredModule } from './deferred-plugin.js';
import type { LoadedPlugin } from './discover.js';
import { didYouMean } from './nearest.js';

/** What the kernel knows of an operation wherever it runs. */
interface OperationEntry {
  /** `/v1/<group>/<operation>`. */
  readonly path: string;
  /** The plugin's configuration section, validated. */
  readonly config: unknown;
  /** The plugin's import specifier, for running the operation in a worker. */
  readonly module: string;
  /** The operation's deadline in milliseconds (`operations.deadlineMs`, or its group's own). */
  readonly deadlineMs: number;
  /** The 422 codes the operation may answer, with their descriptions. */
  readonly errors: Readonly<Record<string, string>>;
}

/** An operation of a built-in or trusted plugin: its module is imported here, on the main thread, too. */
export interface HostedOperation extends OperationEntry {
  readonly placement: 'host';
  readonly operation: CompiledOperation;
  /** Where the request's work runs (see the SDK's `offload`): the main thread, or the built-ins' pool. */
  readonly offload: 'auto' | 'always' | 'never';
  /** With `offload: 'auto'`, bodies larger than this many bytes run on the pool (`workers.offloadBytes`, `workers.linearOffloadBytes` for `cost: 'linear'`, the SDK's 512 for `cost: 'superlinear'`). */
  readonly offloadBytes: number;
}

/**
 * An operation of a plugin the operator did not write and did not trust (`plugins.dirs`/`packages`,
 * not in `plugins.trusted`): the main thread holds its manifest as data, with no handler to call,
 * and its handler runs in that plugin's own processes, under the operation's deadline.
 */
export interface ContainedOperation extends OperationEntry {
  readonly placement: 'own-processes';
  readonly operation: OperationTerms;
}

/** An operation as the kernel serves it; `placement` says where its work may run. */
export type RegisteredOperation = HostedOperation | ContainedOperation;

/** What the kernel mounts. */
export interface Registry {
  /** Enabled operations by path. */
  readonly operations: ReadonlyMap<string, RegisteredOperation>;
  /** Enabled plugins, in load order (a contained plugin's manifest is data only). */
  readonly plugins: readonly ManifestData[];
  /** The enabled plugins imported on the main thread (built-ins, trusted groups): the ones warmed and closed here. */
  readonly hosted: readonly Plugin[];
  /** The enabled built-ins whose modules are imported on first use, by group (kernel/host/deferred-plugin.ts). */
  readonly deferred: ReadonlyMap<string, DeferredModule>;
  /** Built-in groups served by a third-party plugin instead, with where that plugin came from. */
  readonly replaced: ReadonlyMap<string, string>;
  /** Groups that were found but are switched off by `plugins.enabled` / `plugins.disabled`. */
  readonly disabledGroups: readonly string[];
}

/**
 * The built-in plugins third-party ones replace. A third-party plugin may take a built-in's group
 * only when `plugins.disabled` names that group exactly: a replacement is meant, not a clash.
 */
function replacements(loaded: readonly LoadedPlugin[], config: Config): Map<LoadedPlugin, LoadedPlugin> {
  const builtins = new Map(loaded.filter(({ origin }) => origin === 'built-in').map((entry) => [entry.plugin.group, entry]));
  const replaced = new Map<LoadedPlugin, LoadedPlugin>();
  const problems: { path: string; message: string }[] = [];
  for (const entry of loaded) {
    const builtin = entry.origin === 'built-in' ? undefined : builtins.get(entry.plugin.group);
    if (builtin === undefined) continue;
    if (config.plugins.disabled.includes(entry.plugin.group)) replaced.set(builtin, entry);
    else {
      const message = `loads "${entry.plugin.group}" from ${entry.source}, but that group is built in: to replace the built-in plugin, add "${entry.plugin.group}" to plugins.disabled`;
      problems.push({ path: '/plugins', message });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return replaced;
}

function matcher(patterns: readonly string[]): (group: string) => boolean {
  const expressions = patterns.map(
    (pattern) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`),
  );
  return (group) => expressions.some((expression) => expression.test(group));
}

/** Where a plugin came from, for a message naming it. */
const claimantOf = ({ origin, source }: LoadedPlugin): string => (origin === 'built-in' ? 'built in' : source);

/** Every plugin section resolved (defaults filled), and every problem of the plugin sections. */
function pluginSections(config: Config, loaded: readonly LoadedPlugin[], doors: DoorClaims): { sections: Map<ManifestData, unknown>; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const owners = new Map<string, LoadedPlugin>();
  for (const entry of loaded) {
    const section = entry.plugin.config?.section;
    if (section === undefined) continue;
    const first = owners.get(section);
    // A section belongs to one plugin: the second would read what the operator wrote for the first.
    // A plugin of the same group replaces the first (plugins.disabled says so), section and all.
    if (first !== undefined && first.plugin.group !== entry.plugin.group) {
      problems.push({ path: `/${section}`, message: `is claimed by two plugins, ${first.plugin.group} (${claimantOf(first)}) and ${entry.plugin.group} (${claimantOf(entry)}): a configuration section belongs to one plugin` });
      continue;
    }
    owners.set(section, entry);
  }
  const doorSections = new Set(doors.sections ?? []);
  const known = [...coreSections, ...doorSections, ...owners.keys()];
  for (const key of Object.keys(config)) {
    if (!coreSections.has(key) && !doorSections.has(key) && !owners.has(key)) problems.push({ path: `/${key}`, message: `is not a known configuration key${didYouMean(key, known)}` });
  }
  for (const [section, { plugin }] of owners) {
    if (doorSections.has(section)) problems.push({ path: `/${section}`, message: `belongs to a front door of the service; plugin ${plugin.group} cannot claim it` });
  }
  for (const { plugin, source } of loaded) {
    if (doors.reservedGroups?.includes(plugin.group)) problems.push({ path: '/plugins', message: `loads "${plugin.group}" from ${source}, but that group is reserved: the service serves /v1/${plugin.group}/ itself` });
  }
  const sections = new Map<ManifestData, unknown>();
  for (const [section, { plugin }] of owners) {
    try {
      // Reads `config` alone, data in every manifest.
      sections.set(plugin, resolvePluginConfig(plugin as Plugin, config[section]));
    } catch (error) {
      if (!isToolshedError(error) || !error.details) throw error;
      const found = error.details.map((detail) => ({ path: `/${section}${detail.path}`, message: detail.message }));
      problems.push(...withSuggestions(found, plugin.config!.schema, `/${section}`));
    }
  }
  for (const { plugin } of loaded) {
    if (coreSections.has(plugin.config?.section ?? '')) problems.push({ path: `/${plugin.config?.section}`, message: `is a kernel section; plugin ${plugin.group} cannot claim it` });
  }
  return { sections, problems };
}

/**
 * Every entry of `plugins.enabled` and `plugins.disabled` that matches no group (a typo would
 * otherwise switch nothing on or off, silently), naming the nearest group when it is a few edits
 * away. A lone `*` is never a typo (and matches nothing only when no plugin is installed).
 */
function groupPatternProblems(plugins: Config['plugins'], groups: readonly string[]): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const list of ['enabled', 'disabled'] as const) {
    for (const [index, pattern] of plugins[list].entries()) {
      if (pattern === '*' || groups.some(matcher([pattern]))) continue;
      problems.push({ path: `/plugins/${list}/${index}`, message: `"${pattern}" matches no plugin group${didYouMean(pattern, groups)}` });
    }
  }
  return problems;
}

/**
 * `plugins.trusted` may name only loaded third-party groups, `operations.groupDeadlineMs` only
 * loaded groups; a deadline, and the pool's request budget, must end before `server.writeTimeoutMs`
 * closes the silent connection.
 */
function containmentProblems(loaded: readonly LoadedPlugin[], config: Config): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  for (const name of config.plugins.trusted) {
    const found = loaded.find(({ plugin }) => plugin.group === name);
    if (found === undefined) problems.push({ path: '/plugins/trusted', message: `names the unknown group "${name}"` });
    else if (found.origin === 'built-in') problems.push({ path: '/plugins/trusted', message: `names the built-in group "${name}", which is trusted already` });
  }
  // A share, an environment or grants only a contained plugin's own processes would use.
  for (const key of ['limits', 'env', 'grants'] as const) {
    for (const name of Object.keys(config.plugins[key])) {
      const found = loaded.find(({ plugin }) => plugin.group === name);
      if (found === undefined) problems.push({ path: `/plugins/${key}/${name}`, message: 'names an unknown group' });
      else if (found.origin === 'built-in' || config.plugins.trusted.includes(name)) {
        problems.push({ path: `/plugins/${key}/${name}`, message: `names the ${found.origin === 'built-in' ? 'built-in' : 'trusted'} group "${name}", which runs in the service's own threads, not in processes of its own` });
      }
    }
  }
  for (const name of Object.keys(config.operations.groupDeadlineMs)) {
    if (!loaded.some(({ plugin }) => plugin.group === name)) problems.push({ path: `/operations/groupDeadlineMs/${name}`, message: 'names an unknown group' });
  }
  const deadlines: [string, number][] = [
    ['/operations/deadlineMs', config.operations.deadlineMs],
    // A request on the pool answers when its budget ends; a silent connection closed before that gets no answer at all.
    ['/workers/requestBudgetMs', config.workers.requestBudgetMs],
    ...Object.entries(config.operations.groupDeadlineMs).map(([name, ms]): [string, number] => [`/operations/groupDeadlineMs/${name}`, ms])];
  for (const [path, ms] of deadlines) {
    if (ms >= config.server.writeTimeoutMs) problems.push({ path, message: `must be shorter than server.writeTimeoutMs (${config.server.writeTimeoutMs}), which closes a silent connection first` });
  }
  return problems;
}

/**
 * What the composition root's front doors claim (kernel/host/composite.ts, HostExtensions): top-level
 * configuration keys they read, and groups no plugin may take.
 */
export interface DoorClaims {
  readonly sections?: readonly string[];
  readonly reservedGroups?: readonly string[];
}

/** Builds the registry from the loaded plugins and the configuration; throws ConfigError naming every problem. */
export function buildRegistry(loaded: readonly LoadedPlugin[], config: Config, doors: DoorClaims = {}): Registry {
  const { sections, problems } = pluginSections(config, loaded, doors);
  problems.push(...groupPatternProblems(config.plugins, loaded.map(({ plugin }) => plugin.group)));
  problems.push(...containmentProblems(loaded, config));
  if (problems.length > 0) throw new ConfigError(problems);
  const isEnabled = matcher(config.plugins.enabled);
  const isDisabled = matcher(config.plugins.disabled);
  const replaced = replacements(loaded, config);
  const replacing = new Set(replaced.values());
  const operations = new Map<string, RegisteredOperation>();
  const plugins: ManifestData[] = [];
  const hosted: Plugin[] = [];
  const deferred = new Map<string, DeferredModule>();
  const trusted = new Set(config.plugins.trusted);
  const disabledGroups: string[] = [];
  for (const entry of loaded) {
    const { plugin, specifier, origin } = entry;
    if (replaced.has(entry)) continue;
    // A replacement is served whatever plugins.disabled says: its entry there disables the built-in.
    if (!isEnabled(plugin.group) || (isDisabled(plugin.group) && !replacing.has(entry))) {
      disabledGroups.push(plugin.group);
      continue;
    }
    plugins.push(plugin);
    const contained = origin !== 'built-in' && !trusted.has(plugin.group);
    // Discovery imports a trusted group here; a slip there must not run a third party's data as a handler.
    const imported = contained ? undefined : entry.imported;
    if (!contained && imported === undefined) throw new Error(`${plugin.group} is trusted but was not imported on this thread`);
    if (imported !== undefined) hosted.push(imported);
    if (imported !== undefined && entry.deferred !== undefined) deferred.set(plugin.group, entry.deferred);
    const deadlineMs = config.operations.groupDeadlineMs[plugin.group] ?? config.operations.deadlineMs;
    for (const name of Object.keys(plugin.operations)) {
      const path = `/v1/${plugin.group}/${name}`;
      const definition = plugin.operations[name]!;
      const codes = definition.errors ?? Object.keys(plugin.errors ?? {});
      const errors = Object.fromEntries(codes.map((code) => [code, plugin.errors?.[code] ?? '']));
      const entryOf = { path, config: sections.get(plugin), module: specifier, deadlineMs, errors };
      if (imported === undefined) {
        operations.set(path, { ...entryOf, placement: 'own-processes', operation: termsOf(plugin, name) });
        continue;
      }
      const { upstream, offload = 'auto', cost } = definition;
      const offloadBytes = cost === 'linear' ? config.workers.linearOffloadBytes : cost === 'superlinear' ? Math.min(SUPERLINEAR_OFFLOAD_BYTES, config.workers.offloadBytes) : config.workers.offloadBytes;
      const where = upstream === true ? 'never' : offload;
      operations.set(path, { ...entryOf, placement: 'host', operation: compileOperation(imported, name), offload: where, offloadBytes });
    }
  }
  return { operations, plugins, hosted, deferred, disabledGroups, replaced: new Map([...replaced].map(([builtin, entry]) => [builtin.plugin.group, entry.source])) };
}
