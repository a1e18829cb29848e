/**
 * The MCP tool list, derived from the operations as the OpenAPI document is: one tool per mounted
 * operation, so a plugin becomes a tool the moment it loads and a disabled group has none. Nothing
 * here knows a tool by name; names, texts, schemas and hints all come from the manifests.
 *
 * Each tool exists twice: the short entry tools/list answers (what a model reads before it does
 * anything, so every byte counts) and the full definition the `describe` tool answers (worked
 * example, refusal codes, output schema, the input schema exactly as the OpenAPI document has it).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { nearest, type OperationInfo } from '../kernel/host/index.js';
import { compactInputSchema } from './compact-schema.js';

/** What a tool is made of: data about one operation, whoever serves it. */
export interface ToolOperation {
  readonly group: string;
  readonly operation: string;
  readonly summary: string;
  readonly description?: string;
  /** The plugin's one-line summary of its group. */
  readonly groupSummary?: string;
  /** As in the OpenAPI document: JSON Schema 2020-12, defaulted fields optional. */
  readonly requestSchema: unknown;
  readonly responseSchema: unknown;
  readonly examples: readonly { readonly body: unknown; readonly response: unknown }[];
  /** The 422 codes it may answer, with their meaning. */
  readonly errors: Readonly<Record<string, string>>;
  readonly upstream: boolean;
  readonly deterministic: boolean;
}

/** The tools and the operation behind each name; `Op` is whatever the front door runs. */
export interface ToolCatalog<Op = OperationInfo> {
  /** The short entries tools/list answers, in operation order. */
  readonly tools: readonly Tool[];
  /** The full definition of each tool, by name. */
  readonly full: ReadonlyMap<string, Tool>;
  readonly operations: ReadonlyMap<string, Op>;
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

/** What the listed entry of a tool whose schema leaves out a rule across fields says about it. */
export const RULE_LEFT_OUT = 'A rule across fields, worded in their descriptions, is checked too; `describe` gives the full schema.';

/** The most bytes of an operation's description a listed entry keeps (whole sentences; at least the first). */
export const BRIEF_DESCRIPTION_BYTES = 150;

/** The description's leading sentences, up to {@link BRIEF_DESCRIPTION_BYTES}. */
function brief(description: string): string {
  // A sentence ends at . ! ? before a capital, a backtick or a parenthesis ("e.g. \"tr\"" and "1.5" do not end one).
  const sentences = description.trim().split(/(?<=[.!?])\s+(?=[A-Z`(])/);
  let kept = '';
  for (const next of sentences) {
    const longer = kept === '' ? next : `${kept} ${next}`;
    if (Buffer.byteLength(longer) > BRIEF_DESCRIPTION_BYTES) break;
    kept = longer;
  }
  return kept;
}

/** What a model chooses by: what the tool does and the first of what the manifest says about it. */
function shortDescription(source: ToolOperation, rulesLeftOut: boolean): string {
  const parts = [sentence(source.summary)];
  const kept = brief(source.description ?? '');
  if (kept !== '') parts.push(kept);
  if (rulesLeftOut) parts.push(RULE_LEFT_OUT);
  return parts.join(' ');
}

/** Everything: the group it belongs to, the refusals it may answer and one worked example too. */
function fullDescription(source: ToolOperation): string {
  const parts = [sentence(source.summary)];
  if (source.description) parts.push(source.description.trim());
  if (source.groupSummary) parts.push(`Part of the ${source.group} tools: ${sentence(source.groupSummary)}`);
  const codes = Object.entries(source.errors);
  if (codes.length > 0) parts.push(`Refuses with: ${codes.map(([code, meaning]) => `${code} (${meaning})`).join('; ')}.`);
  const example = source.examples[0];
  if (example) parts.push(`Example: ${JSON.stringify(example.body)} gives ${JSON.stringify(example.response)}.`);
  if (source.upstream) parts.push('Calls an outside service; its answer can change over time.');
  return parts.join('\n\n');
}

/** The full definition: the schemas exactly as the OpenAPI document has them. */
function fullTool(source: ToolOperation): Tool {
  return {
    name: toolName(source.group, source.operation),
    title: source.summary,
    description: fullDescription(source),
    // JSON Schema 2020-12, the dialect MCP assumes when a schema names none (TypeBox writes it).
    inputSchema: plain(source.requestSchema) as Tool['inputSchema'],
    // MCP wants an object at the top of outputSchema; every operation answers an object.
    outputSchema: plain(source.responseSchema) as Tool['outputSchema'],
    annotations: {
      title: source.summary,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: !source.upstream && source.deterministic,
      openWorldHint: source.upstream,
    },
  };
}

/**
 * The listed entry: no output schema (a client needs none to read structuredContent), the input
 * schema with the same checks written shorter, and of the hints only those that differ from MCP's
 * defaults (destructive and idempotent mean nothing for a read-only tool).
 */
function shortTool(source: ToolOperation): Tool {
  const { schema, rulesLeftOut } = compactInputSchema(plain(source.requestSchema));
  return {
    name: toolName(source.group, source.operation),
    description: shortDescription(source, rulesLeftOut.length > 0),
    inputSchema: schema as Tool['inputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: source.upstream },
  };
}

/** The catalog of `entries` (each operation with the data its tool is made of), in their order. */
export function buildTools<Op>(entries: Iterable<{ readonly operation: Op; readonly source: ToolOperation }>): ToolCatalog<Op> {
  const tools: Tool[] = [];
  const full = new Map<string, Tool>();
  const operations = new Map<string, Op>();
  for (const { operation, source } of entries) {
    const tool = shortTool(source);
    tools.push(tool);
    full.set(tool.name, fullTool(source));
    operations.set(tool.name, operation);
  }
  return { tools, full, operations };
}

/** The catalog of every operation the executor runs, in its order. */
export function buildToolCatalog(operations: readonly OperationInfo[]): ToolCatalog<OperationInfo> {
  return buildTools(
    operations.map((info) => {
      const source: ToolOperation = {
        group: info.group,
        operation: info.operation,
        summary: info.summary,
        description: info.description,
        groupSummary: info.groupSummary,
        requestSchema: info.requestSchema,
        responseSchema: info.responseSchema,
        examples: info.examples,
        errors: info.errors,
        upstream: info.upstream,
        deterministic: info.definition.deterministic !== false,
      };
      return { operation: info, source };
    }),
  );
}

/** Longer names are not compared: no tool name is anywhere near that long. */
const MAX_COMPARED_LENGTH = 120;

/**
 * The tool name nearest to a mistyped `name`, as the API's 404 names the nearest path: at most
 * three edits away (letter case ignored), else the first tool of the group the name starts with.
 */
export function nearestTool(name: string, known: readonly string[]): string | undefined {
  if (name.length > MAX_COMPARED_LENGTH) return undefined;
  // `*` is a wildcard to typoDistance; a tool name never has one.
  const wanted = name.toLowerCase().replace(/\*/g, '');
  const close = nearest(wanted, known, 3);
  if (close !== undefined) return close;
  const group = wanted.split('_')[0];
  return known.find((candidate) => candidate.startsWith(`${group}_`));
}
