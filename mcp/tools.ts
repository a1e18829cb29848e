/**
 * The MCP tool list, derived from the registry as the OpenAPI document is: one tool per mounted
 * operation, so a plugin becomes a tool the moment it loads and a disabled group has none. Nothing
 * here knows a tool by name; names, texts, schemas and hints all come from the manifests.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Plugin } from '@toolshed/plugin-sdk';
import type { RegisteredOperation, Registry } from '../kernel/registry.js';

/** The tools and the operation behind each name. */
export interface ToolCatalog {
  readonly tools: readonly Tool[];
  readonly operations: ReadonlyMap<string, RegisteredOperation>;
}

/**
 * The tool name of an operation: `<group>_<operation>` (`hash-generator_hash`). Group and operation
 * names are kebab-case, so the underscore cannot be part of either and the name maps back to one
 * operation; it keeps to `[A-Za-z0-9_-]`, which every MCP client and model API accepts (some refuse
 * the dot of the operation id).
 */
export function toolName(group: string, operation: string): string {
  return `${group}_${operation}`;
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The first sentence's full stop, added only when the text has none. */
const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/**
 * What a model chooses by: what the tool does (summary, description), the group it belongs to,
 * the refusals it may answer, and one worked example. Field meanings and units are in the input
 * schema's own `description`s, which clients show beside it.
 */
function describe(registered: RegisteredOperation, plugin: Plugin | undefined): string {
  const definition = registered.operation.definition;
  const parts = [sentence(definition.summary)];
  if (definition.description) parts.push(definition.description.trim());
  if (plugin?.summary) parts.push(`Part of the ${plugin.group} tools: ${sentence(plugin.summary)}`);
  const pluginCodes = plugin?.errors ?? {};
  const codes = definition.errors ?? Object.keys(pluginCodes);
  if (codes.length > 0) parts.push(`Refuses with: ${codes.map((code) => `${code} (${pluginCodes[code] ?? ''})`).join('; ')}.`);
  const example = definition.examples[0];
  if (example) parts.push(`Example: ${JSON.stringify(example.body)} gives ${JSON.stringify(example.response)}.`);
  if (definition.upstream === true) parts.push('Calls an outside service; its answer can change over time.');
  return parts.join('\n\n');
}

function toolOf(registered: RegisteredOperation, plugin: Plugin | undefined): Tool {
  const { operation } = registered;
  const definition = operation.definition;
  const upstream = definition.upstream === true;
  return {
    name: toolName(operation.group, operation.name),
    title: definition.summary,
    description: describe(registered, plugin),
    // JSON Schema 2020-12, the dialect MCP assumes when a schema names none (TypeBox writes it).
    inputSchema: plain(operation.requestSchema) as Tool['inputSchema'],
    // MCP wants an object at the top of outputSchema; every operation answers an object.
    outputSchema: plain(operation.responseSchema) as Tool['outputSchema'],
    annotations: {
      title: definition.summary,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: !upstream && definition.deterministic !== false,
      openWorldHint: upstream,
    },
  };
}

/** The catalog of every operation `registry` mounts, in registry order. */
export function buildToolCatalog(registry: Registry): ToolCatalog {
  const plugins = new Map(registry.plugins.map((plugin) => [plugin.group, plugin]));
  const tools: Tool[] = [];
  const operations = new Map<string, RegisteredOperation>();
  for (const registered of registry.operations.values()) {
    const tool = toolOf(registered, plugins.get(registered.operation.group));
    tools.push(tool);
    operations.set(tool.name, registered);
  }
  return { tools, operations };
}
