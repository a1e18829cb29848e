/**
 * What the model clients that take an MCP tool list document about a tool's name and input schema,
 * as checks over one listed tool. A tool that breaks one is skipped or refused by that client (the
 * Gemini CLI skips it with a warning; the OpenAI and Gemini APIs refuse the request that carries
 * it), so the listed schemas (mcp/compact-schema.ts) keep to all of them; the full schema stays
 * with the describe tool. Sources (docs/mcp.md, "Schemas every client takes"):
 *
 * - Gemini CLI's tool discovery (`hasValidTypes` in google-gemini/gemini-cli's MCP client): every
 *   schema node has a `type`, or is an `anyOf`/`allOf`/`oneOf` whose every branch has one; a tool
 *   with another node is skipped.
 * - The Gemini API's `FunctionDeclaration`: its `parameters` are "a select subset of an OpenAPI 3.0
 *   schema object" (the `Schema` message: one `type`, `enum`, `anyOf`, `properties`, `items` and
 *   bounds; no `const`, `$ref`, `allOf`, `oneOf`, `not`, conditionals or pattern properties); the
 *   name "a-z, A-Z, 0-9, or contain underscores, colons, dots, and dashes, with a maximum length of 64".
 * - OpenAI's function calling and Structured Outputs: "the root level object of a schema must be an
 *   object, and not use anyOf"; the supported types are string, number, boolean, integer, object,
 *   array, enum and anyOf; patternProperties, unevaluatedProperties, propertyNames, contains and
 *   unevaluatedItems are not supported; a function name is a-z, A-Z, 0-9, `_` and `-`, at most 64.
 * - Anthropic's tool use: `input_schema` is a JSON Schema of `type: "object"`.
 * - MCP 2025-11-25, server/tools: `inputSchema` MUST be a valid JSON Schema object (not null).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isTyped } from './compact-schema.js';

/** One rule a listed tool breaks, and where. */
export interface RuleBreak {
  /** The rule's name (`typed-node`, …). */
  readonly rule: string;
  /** The clients whose documentation states it. */
  readonly clients: string;
  /** JSON Pointer into the input schema ("" for the tool itself). */
  readonly path: string;
  readonly message: string;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const escape = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Keywords a client above does not take in a tool's parameters, with the clients that lack them. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['$ref', '$defs', 'definitions', 'const', 'prefixItems'].map((key) => [key, 'Gemini API'])),
  ...Object.fromEntries(
    ['allOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains'].map((key) => [key, 'Gemini API, OpenAI']),
  ),
};

/**
 * Calls `visit` on `schema` and every schema below it that describes a value (a property, an item, a
 * union's form), with its JSON Pointer. A rule's subschemas (`if`, `not`, …) are not walked: the
 * keyword itself is what a client refuses.
 */
function walk(schema: unknown, pointer: string, visit: (node: Node, pointer: string) => void): void {
  if (!isNode(schema)) return;
  visit(schema, pointer);
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    const children = schema[key];
    if (isNode(children)) for (const [name, child] of Object.entries(children)) walk(child, `${pointer}/${key}/${escape(name)}`, visit);
  }
  for (const key of ['items', 'additionalProperties']) walk(schema[key], `${pointer}/${key}`, visit);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, index) => walk(child, `${pointer}/${key}/${index}`, visit));
  }
}

/** The JSON Schema type of a constant: `integer` for whole numbers. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

interface ClientRule {
  readonly rule: string;
  readonly clients: string;
  /** The breaks of `tool`, as [path, message, the clients when only some of the rule's]. */
  check(tool: Tool): [string, string, string?][];
}

/** A rule over every schema node. */
const everyNode = (rule: string, clients: string, check: (node: Node) => string | [string, string] | undefined): ClientRule => ({
  rule,
  clients,
  check(tool) {
    const found: [string, string, string?][] = [];
    walk(tool.inputSchema, '', (node, pointer) => {
      const problem = check(node);
      if (typeof problem === 'string') found.push([pointer, problem]);
      else if (problem !== undefined) found.push([pointer, ...problem]);
    });
    return found;
  },
});

/** Every rule, in the order they are reported. */
export const CLIENT_RULES: readonly ClientRule[] = [
  {
    rule: 'tool-name',
    clients: 'OpenAI, Gemini API',
    check: (tool) => (/^[A-Za-z0-9_-]{1,64}$/.test(tool.name) ? [] : [['', `the name ${JSON.stringify(tool.name.slice(0, 80))} is not 1 to 64 of A-Z a-z 0-9 _ -`]]),
  },
  {
    rule: 'object-at-top',
    clients: 'OpenAI, Anthropic, MCP',
    check(tool) {
      const schema = tool.inputSchema as unknown;
      if (!isNode(schema) || schema.type !== 'object') return [['', 'the input schema is not of type "object"']];
      const top = ['anyOf', 'oneOf', 'allOf', 'enum', 'not'].filter((key) => key in schema);
      return top.map((key) => ['', `the input schema has ${key} at the top`]);
    },
  },
  everyNode('typed-node', 'Gemini CLI, Gemini API', (node) => (isTyped(node) || (Array.isArray(node.allOf) && node.allOf.length > 0 && node.allOf.every(isTyped)) ? undefined : 'has no type (nor a union whose every branch has one)')),
  everyNode('single-type', 'Gemini API', (node) => (node.type === undefined || (typeof node.type === 'string' && TYPES.has(node.type)) ? undefined : `its type ${JSON.stringify(node.type)} is not one of ${[...TYPES].join(', ')}`)),
  everyNode('enum-of-its-type', 'Gemini API, OpenAI', (node) => {
    if (!Array.isArray(node.enum)) return undefined;
    if (typeof node.type !== 'string') return 'has an enum but no type';
    const stray = node.enum.find((value) => typeOf(value) !== node.type && !(node.type === 'number' && typeOf(value) === 'integer'));
    return stray === undefined ? undefined : `its enum holds ${JSON.stringify(stray)}, which is no ${node.type}`;
  }),
  everyNode('supported-keywords', 'Gemini API, OpenAI', (node) => {
    const used = Object.keys(UNSUPPORTED).filter((key) => key in node);
    if (used.length === 0) return undefined;
    return [`uses ${used.join(', ')}`, [...new Set(used.flatMap((key) => UNSUPPORTED[key]!.split(', ')))].join(', ')];
  }),
  everyNode('array-items', 'OpenAI', (node) => (node.type === 'array' && !isNode(node.items) ? 'is an array without an items schema' : undefined)),
];

/** Every rule `tool` breaks, with where; empty when every client above takes it. */
export function clientRuleBreaks(tool: Tool): RuleBreak[] {
  return CLIENT_RULES.flatMap(({ rule, clients, check }) => check(tool).map(([path, message, some]) => ({ rule, clients: some ?? clients, path, message })));
}

/** One break as a line: `rule (clients) at /path: message`. */
export const describeBreak = (found: RuleBreak): string => `${found.rule} (${found.clients}) at ${found.path || '/'}: ${found.message}`;
