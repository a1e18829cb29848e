/**
 * The input schema a tool shows in the default tools/list: the operation's request schema in the
 * subset of JSON Schema every major model client takes (mcp/client-rules.ts states the rules and
 * whose they are). What it writes differently and why:
 *
 * - The same checks, written so: a `const` or a union of constants is the `enum` it equals, and
 *   every `enum` says its `type` (TypeBox's `Type.Enum` writes none, and Gemini's CLI skips a tool
 *   with a type-less node); an `enum` of two types is an `anyOf` of one-type enums.
 * - Left out, the server still checks them (it validates against the full schema, which the
 *   describe tool answers): annotations (`examples`, `title`, `$comment`), a `pattern` over 80
 *   characters (the field's description says where it is), and every rule across fields — at the
 *   top (`allOf`, `if`, `not`…: model APIs want a plain object there; the tool's description says
 *   so) and inside (a union branch's `if`/`then`; its description is added to the object's).
 *   `patternProperties` go too (the object is then open): no client takes them.
 * - A node that takes any JSON value (no type at all) lists the types it may be: Gemini's CLI skips
 *   a tool with a type-less node. An array there holds scalars or objects (one level): the server
 *   takes any, the listed schema cannot say so to every client.
 *
 * Anything else a client refuses (a `$ref`, a tuple, an `allOf` of objects) is kept as it is, and
 * the rules flag it: `toolshed plugin check` names the rule (cli/plugin-check.ts).
 */

type Node = Record<string, unknown>;

/** Keywords that only annotate: dropped from the listed schema (descriptions and defaults stay). */
const ANNOTATIONS_LEFT_OUT = new Set(['examples', 'title', '$comment']);

/** Keywords that state a rule over the whole object when they stand at the top. */
export const TOP_LEVEL_RULES = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas'] as const;

/** Keywords that only ever state a rule across fields (or over names), wherever they stand: left out. */
const RULES = new Set(['not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'propertyNames', 'unevaluatedProperties']);

/** Keywords whose value maps names (chosen by the plugin) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', '$defs', 'definitions']);

/** Keywords that only say something about a value of a given type, or annotate: a node with nothing else takes any value. */
const SAYS_NOTHING_OF_TYPE = new Set(['description', 'default', 'examples', 'title', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

/** The JSON types a listed node of "any JSON value" takes; arrays hold the scalars and objects. */
const ANY_VALUE: readonly Node[] = [
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'object' },
  { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'object' }] } },
  { type: 'null' },
];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON Schema type of a constant: `integer` for whole numbers. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** True when a listed node says what type its values are: a `type`, or a union whose every branch does (Gemini's CLI's own test). */
export function isTyped(node: unknown): boolean {
  if (!isNode(node)) return false;
  if (typeof node.type === 'string' || Array.isArray(node.type)) return true;
  const branches = node.anyOf ?? node.oneOf;
  return Array.isArray(branches) && branches.length > 0 && branches.every(isTyped);
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
    if ('type' in branch && branch.type !== typeOf(branch.const) && !(branch.type === 'number' && typeOf(branch.const) === 'integer')) return undefined;
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

/** The describe tool's name, as the listed entries point to it. */
export const DESCRIBE_TOOL = 'toolshed-describe';

/** What a field whose pattern is left out says about it. */
export const PATTERN_LEFT_OUT = `the exact pattern: ${DESCRIBE_TOOL}`;

/** `enum` with its type: one `type` when its values share one, else an `anyOf` of one-type enums. */
function typedEnum(result: Node, values: readonly unknown[]): void {
  const byType = new Map<string, unknown[]>();
  // Whole numbers and others among the numbers are all numbers.
  const hasFraction = values.some((value) => typeOf(value) === 'number');
  for (const value of values) {
    const type = hasFraction && typeOf(value) === 'integer' ? 'number' : typeOf(value);
    byType.set(type, [...(byType.get(type) ?? []), value]);
  }
  if ('type' in result) return void (result.enum = [...values]);
  if (byType.size === 1) {
    const [[type, list]] = [...byType];
    result.type = type;
    result.enum = list;
    return;
  }
  delete result.enum;
  result.anyOf = [...byType].map(([type, list]) => ({ type, enum: list }));
}

/** Keywords by which a schema without a type of its own constrains the fields of the object it is applied to. */
const FIELD_RULES = ['required', 'properties', 'if', 'not', 'dependentRequired', 'dependentSchemas'];

/**
 * True when `entry` (of an `allOf`, or a branch of an `anyOf`/`oneOf`) is a rule across fields
 * (`{ required: ['text'] }`, `{ if: …, then: … }`) rather than a form of the value: it has no type,
 * enum or constant of its own and constrains named fields, itself or through its branches.
 */
function isRule(entry: unknown): boolean {
  if (!isNode(entry) || 'type' in entry || 'enum' in entry || 'const' in entry) return false;
  if (FIELD_RULES.some((key) => key in entry)) return true;
  const branches = entry.anyOf ?? entry.oneOf ?? entry.allOf;
  return Array.isArray(branches) && branches.length > 0 && branches.every(isRule);
}

/** The fields a rule's `then` binds (`password` in "if security is nopass, then password is empty"). */
function boundFields(rule: Node): string[] {
  const then = isNode(rule.then) ? rule.then : {};
  return [...new Set([...(Array.isArray(then.required) ? then.required : []), ...Object.keys(isNode(then.properties) ? then.properties : {})])].filter((name): name is string => typeof name === 'string');
}

/**
 * The rule descriptions of `entries` (rule schemas), for the object that held them. A rule worded
 * for the field it binds ("must be empty when security is nopass") gets the field's name first.
 */
function ruleWords(entries: readonly unknown[]): string[] {
  return entries.flatMap((entry) => {
    const words = isNode(entry) ? entry.description : undefined;
    if (!isNode(entry) || typeof words !== 'string') return [];
    const fields = boundFields(entry);
    return [fields.every((field) => words.includes(field)) ? words : `${fields.join(' and ')} ${words}`];
  });
}

/** `node` as listed (see the module comment), at every depth. */
function listedNode(node: unknown): unknown {
  if (!isNode(node)) return node;
  const result: Node = {};
  const longPattern = typeof node.pattern === 'string' && node.pattern.length > LONGEST_LISTED_PATTERN;
  const rulesWorded: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS_LEFT_OUT.has(key) || (key === 'pattern' && longPattern) || key === 'patternProperties') continue;
    if (RULES.has(key)) {
      if (key !== 'then' && key !== 'else') rulesWorded.push(...ruleWords([value]));
      continue;
    }
    if (NAMED_SCHEMAS.has(key) && isNode(value)) result[key] = Object.fromEntries(Object.entries(value).map(([name, field]) => [name, listedNode(field)]));
    else if (key === 'items' || key === 'additionalProperties') result[key] = isNode(value) ? listedNode(value) : value;
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const constants = constantsOf(value);
      if (constants !== undefined && !('enum' in node)) result.enum = constants;
      // A union of forms is listed as `anyOf` (a value that fits two forms of a `oneOf` is still refused by the server).
      else if (!value.every(isRule)) result.anyOf = value.map(listedNode);
    } else if (key === 'allOf' && Array.isArray(value)) {
      rulesWorded.push(...ruleWords(value.filter(isRule)));
      const kept = value.filter((entry) => !isRule(entry)).map(listedNode);
      if (kept.length > 0) result.allOf = kept;
    } else if (key === 'const') result.enum = [value];
    else result[key] = value;
  }
  if (Array.isArray(result.enum)) typedEnum(result, result.enum);
  // An object whose other names `patternProperties` allowed is open here: the server still closes it.
  if (isNode(node.patternProperties) && result.additionalProperties === false) delete result.additionalProperties;
  if (longPattern) {
    const described = typeof node.description === 'string' ? node.description.replace(/\.$/, '') : 'Checked against a pattern';
    result.description = `${described} (${PATTERN_LEFT_OUT})`;
  }
  if (rulesWorded.length > 0) {
    const own = typeof result.description === 'string' ? [result.description.replace(/\.$/, '')] : [];
    result.description = [...own, ...rulesWorded.filter((words) => !own.some((text) => text.includes(words)))].join('; ');
  }
  if (!isTyped(result) && Object.keys(result).every((key) => SAYS_NOTHING_OF_TYPE.has(key))) result.anyOf = ANY_VALUE.map((form) => structuredClone(form));
  return result;
}

/** The listed input schema, and which rules over the whole object it leaves out (the server still checks them). */
export function compactInputSchema(schema: unknown): { readonly schema: Node; readonly rulesLeftOut: readonly string[] } {
  const top = isNode(schema) ? schema : {};
  const rulesLeftOut = TOP_LEVEL_RULES.filter((key) => key in top);
  const plain = Object.fromEntries(Object.entries(top).filter(([key]) => !(TOP_LEVEL_RULES as readonly string[]).includes(key)));
  return { schema: listedNode(plain) as Node, rulesLeftOut };
}
