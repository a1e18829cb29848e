/**
 * The registry: every enabled operation, compiled once, keyed by its URL path, with its plugin's
 * validated configuration. Plugin config sections are checked here, because only now is it known
 * which top-level keys belong to a plugin.
 */
import { compilePlugin, resolvePluginConfig, isToolshedError, type CompiledOperation, type Plugin } from '@toolshed/plugin-sdk';
import { ConfigError, coreSections, type Config } from './config.js';
import type { LoadedPlugin } from './discover.js';

/** An operation as the kernel serves it. */
export interface RegisteredOperation {
  readonly operation: CompiledOperation;
  /** `/v1/<group>/<operation>`. */
  readonly path: string;
  /** The plugin's configuration section, validated. */
  readonly config: unknown;
  /** The plugin's import specifier, for running the operation in a worker. */
  readonly module: string;
  /** True when a large request's work runs on the worker pool (see the SDK's `offload`). */
  readonly offload: 'auto' | 'always' | 'never';
}

/** What the kernel mounts. */
export interface Registry {
  /** Enabled operations by path. */
  readonly operations: ReadonlyMap<string, RegisteredOperation>;
  /** Enabled plugins, in load order. */
  readonly plugins: readonly Plugin[];
  /** Groups that were found but are switched off by `plugins.enabled` / `plugins.disabled`. */
  readonly disabledGroups: readonly string[];
}

function matcher(patterns: readonly string[]): (group: string) => boolean {
  const expressions = patterns.map(
    (pattern) => new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`),
  );
  return (group) => expressions.some((expression) => expression.test(group));
}

function checkPluginSections(config: Config, loaded: readonly LoadedPlugin[]): Map<Plugin, unknown> {
  const problems: { path: string; message: string }[] = [];
  const owners = new Map<string, Plugin>();
  for (const { plugin } of loaded) if (plugin.config) owners.set(plugin.config.section, plugin);
  for (const key of Object.keys(config)) {
    if (!coreSections.has(key) && !owners.has(key)) problems.push({ path: `/${key}`, message: 'is not a known configuration key' });
  }
  const sections = new Map<Plugin, unknown>();
  for (const [section, plugin] of owners) {
    try {
      sections.set(plugin, resolvePluginConfig(plugin, config[section]));
    } catch (error) {
      if (!isToolshedError(error) || !error.details) throw error;
      problems.push(...error.details.map((detail) => ({ path: `/${section}${detail.path}`, message: detail.message })));
    }
  }
  for (const { plugin } of loaded) {
    if (coreSections.has(plugin.config?.section ?? '')) problems.push({ path: `/${plugin.config?.section}`, message: `is a kernel section; plugin ${plugin.group} cannot claim it` });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return sections;
}

/** Builds the registry from the loaded plugins and the configuration. */
export function buildRegistry(loaded: readonly LoadedPlugin[], config: Config): Registry {
  const sections = checkPluginSections(config, loaded);
  const groups = loaded.map(({ plugin }) => plugin.group);
  const unknown = [...config.plugins.enabled, ...config.plugins.disabled].filter(
    (pattern) => !pattern.includes('*') && !groups.includes(pattern),
  );
  if (unknown.length > 0) {
    throw new ConfigError(unknown.map((name) => ({ path: '/plugins', message: `names the unknown group "${name}"` })));
  }
  const isEnabled = matcher(config.plugins.enabled);
  const isDisabled = matcher(config.plugins.disabled);
  const operations = new Map<string, RegisteredOperation>();
  const plugins: Plugin[] = [];
  const disabledGroups: string[] = [];
  for (const { plugin, specifier } of loaded) {
    if (!isEnabled(plugin.group) || isDisabled(plugin.group)) {
      disabledGroups.push(plugin.group);
      continue;
    }
    plugins.push(plugin);
    for (const operation of compilePlugin(plugin)) {
      const path = `/v1/${operation.group}/${operation.name}`;
      const { upstream, offload = 'auto' } = operation.definition;
      operations.set(path, { operation, path, config: sections.get(plugin), module: specifier, offload: upstream === true ? 'never' : offload });
    }
  }
  return { operations, plugins, disabledGroups };
}
