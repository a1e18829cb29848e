/**
 * The MCP tool list, derived from the registry as the OpenAPI document is: one tool per mounted
 * operation, so a plugin becomes a tool the moment it loads and a disabled group has none. Nothing
 * here knows a tool by name; names, texts, schemas and hints all come from the manifests.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { OperationInfo } from '../kernel/executor.js';

/** The tools and the operation behind each name. */
export interface ToolCatalog {
  readonly tools: readonly Tool[];
  readonly operations: ReadonlyMap<string, OperationInfo>;
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
function describe(info: OperationInfo): string {
  const definition = info.definition;
  const parts = [sentence(definition.summary)];
  if (definition.description) parts.push(definition.description.trim());
  if (info.groupSummary) parts.push(`Part of the ${info.group} tools: ${sentence(info.groupSummary)}`);
  const codes = Object.entries(info.errors);
  if (codes.length > 0) parts.push(`Refuses with: ${codes.map(([code, text]) => `${code} (${text})`).join('; ')}.`);
  const example = definition.examples[0];
  if (example) parts.push(`Example: ${JSON.stringify(example.body)} gives ${JSON.stringify(example.response)}.`);
  if (definition.upstream === true) parts.push('Calls an outside service; its answer can change over time.');
  return parts.join('\n\n');
}

function toolOf(operation: OperationInfo): Tool {
  const definition = operation.definition;
  const upstream = definition.upstream === true;
  return {
    name: toolName(operation.group, operation.operation),
    title: definition.summary,
    description: describe(operation),
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

/** The catalog of every operation the executor runs, in its order. */
export function buildToolCatalog(operations: readonly OperationInfo[]): ToolCatalog {
  const tools: Tool[] = [];
  const byName = new Map<string, OperationInfo>();
  for (const operation of operations) {
    const tool = toolOf(operation);
    tools.push(tool);
    byName.set(tool.name, operation);
  }
  return { tools, operations: byName };
}
