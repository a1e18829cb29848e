/**
 * The input schema a tool shows in the default tools/list: the operation's request schema with the
 * same checks, written shorter, and a plain object at the top. Model APIs that take a tool's schema
 * accept only `type: object` with properties there (several refuse or silently drop a tool with
 * `allOf`/`anyOf`/`oneOf` at the top), so a rule across fields stated there is left out of the
 * listed schema; the server still checks it (it validates against the full schema), the field
 * descriptions word it, and the `describe` tool gives the full schema.
 */

type Node = Record<string, unknown>;

/** Keywords that only annotate: dropped from the listed schema (descriptions and defaults stay). */
const ANNOTATIONS_LEFT_OUT = new Set(['examples', 'title', '$comment']);

/** Keywords that state a rule over the whole object when they stand at the top. */
export const TOP_LEVEL_RULES = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas'] as const;

/** Keywords whose value maps names (chosen by the plugin) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON Schema type names a constant satisfies. */
function typesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['number', 'integer'] : ['number'];
  return [typeof value];
}

/**
 * The constants of an `anyOf` whose every branch is one constant (TypeBox writes a union of
 * literals so), else undefined. `{ type: 'string', const: 'a' }` accepts exactly `'a'`, as an `enum`
 * entry does; a branch with any other keyword is not rewritten.
 */
function constantsOf(branches: unknown): unknown[] | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    if (!isNode(branch) || !('const' in branch)) return undefined;
    const keys = Object.keys(branch);
    if (!keys.every((key) => key === 'const' || key === 'type')) return undefined;
    if ('type' in branch && !typesOf(branch.const).includes(branch.type as string)) return undefined;
    values.push(branch.const);
  }
  return values;
}

/**
 * A longer `pattern` is left out of the listed schema (a date's or a language tag's runs to hundreds
 * of characters a model does not read); the field's description words the format and says where the
 * pattern is. Shorter ones stay.
 */
export const LONGEST_LISTED_PATTERN = 80;

/** What a field whose pattern is left out says about it. */
export const PATTERN_LEFT_OUT = 'the exact pattern: describe';

/** `node` with annotations left out and unions of literals as one `enum`, at every depth. */
function shorter(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shorter);
  if (!isNode(node)) return node;
  const result: Node = {};
  const longPattern = typeof node.pattern === 'string' && node.pattern.length > LONGEST_LISTED_PATTERN;
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS_LEFT_OUT.has(key) || (key === 'pattern' && longPattern)) continue;
    // A field may be called `title` or `examples`: only the schemas under a name are shortened.
    if (NAMED_SCHEMAS.has(key) && isNode(value)) result[key] = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, shorter(field)]));
    else if (key === 'anyOf' && !('enum' in node) && constantsOf(value) !== undefined) result.enum = constantsOf(value);
    else result[key] = shorter(value);
  }
  if (longPattern) {
    const described = typeof node.description === 'string' ? node.description.replace(/\.$/, '') : 'Checked against a pattern';
    result.description = `${described} (${PATTERN_LEFT_OUT})`;
  }
  return result;
}

/** The listed input schema, and which rules over the whole object it leaves out (the server still checks them). */
export function compactInputSchema(schema: unknown): { readonly schema: Node; readonly rulesLeftOut: readonly string[] } {
  const compact = shorter(schema) as Node;
  const rulesLeftOut = TOP_LEVEL_RULES.filter((key) => key in compact);
  for (const key of rulesLeftOut) delete compact[key];
  return { schema: compact, rulesLeftOut };
}
