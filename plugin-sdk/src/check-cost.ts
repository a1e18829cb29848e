/**
 * What one check of a value against a manifest's schema may cost, bounded when the manifest is
 * checked, before the schema is used. The service checks bodies, and contained plugins' answers,
 * of up to `workers.offloadBytes` on its main thread, and the schema is the plugin author's:
 * branches that each descend into the same child (`anyOf: [allOf: [{ items: S }, …], { items: S }]`
 * through a `$ref` to itself) check that child twice at every level, so the work doubles with each
 * level of the value. That made a 70-byte body cost the main thread 0.9 s at 26 levels, and a
 * minute at 32.
 *
 * The bound is the check's *fan*: at each depth below the value checked, the most schema nodes
 * one value node there is checked against, each weighted by the data it compares with (an `enum`'s
 * entries, a `const`, the names under `required` and `properties`). A whole check then costs at
 * most about the fan times the value's size. Branches add their fans; a child is checked against
 * what every keyword of its parent gives it, the larger of an array's element and an object's
 * member. `$ref` and `$dynamicRef` are not taken: a schema that refers to itself has no fan at
 * all, whose value may nest as deep as it likes (an answer), and a shared part of a manifest is
 * written by sharing the object in JavaScript, which reaches the service as the same schema.
 */

/**
 * The largest fan a manifest's schema may have. Describing what is wrong with a body is the dear
 * part: at fan 60 (a union of 20 object forms) a crafted 63 KiB body (about the most the main
 * thread checks with the default `workers.offloadBytes`) took it 44–56 ms to describe, under 1 ms
 * to check. The built-ins' largest is 52 (unit-converter's body).
 */
export const MAX_CHECK_FAN = 64;

/** Keywords whose schemas apply to the value itself. */
const SAME_VALUE = ['not', 'if', 'then', 'else'];
const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'];
/** Keywords whose schemas apply to an array's elements, and to an object's members. */
const ELEMENT = ['additionalItems', 'contains', 'unevaluatedItems'];
const MEMBER = ['additionalProperties', 'unevaluatedProperties'];
/** Keywords holding data a check compares with: each part of it weighs as one more node. */
const DATA = ['enum', 'const', 'required', 'dependentRequired', 'type'];

type Node = Record<string, unknown>;
/** At index d, the weighted schema nodes one value node d levels below the checked value meets. */
type Fan = readonly number[];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One part per JSON value in `data`, nested ones included. */
function dataSize(data: unknown): number {
  if (Array.isArray(data)) return data.reduce((sum: number, item) => sum + dataSize(item), 1);
  if (isNode(data)) return Object.values(data).reduce((sum: number, item) => sum + 1 + dataSize(item), 1);
  return 1;
}

/**
 * Parts of a node's data that weigh as much as the node: comparing with one `enum` entry or looking
 * for one property name costs a nanosecond or two, checking a value against a schema node and
 * describing what it breaks tens. A 64 KiB body against an `enum` of 600 strings (fan 39): about
 * 8 ms to check when every item is the last entry, and 8 to describe.
 */
const PARTS_PER_NODE = 16;

/** A node's own weight: itself, and the data it compares with and the names of its properties at {@link PARTS_PER_NODE} to one. */
function weightOf(node: Node): number {
  let parts = 0;
  for (const keyword of DATA) if (node[keyword] !== undefined) parts += dataSize(node[keyword]);
  for (const keyword of ['properties', 'patternProperties']) if (isNode(node[keyword])) parts += Object.keys(node[keyword]).length;
  return 1 + Math.ceil(parts / PARTS_PER_NODE);
}

const sum = (a: Fan, b: Fan): Fan => Array.from({ length: Math.max(a.length, b.length) }, (_, depth) => (a[depth] ?? 0) + (b[depth] ?? 0));
const larger = (a: Fan, b: Fan): Fan => Array.from({ length: Math.max(a.length, b.length) }, (_, depth) => Math.max(a[depth] ?? 0, b[depth] ?? 0));
const NONE: Fan = [];

/** Why a schema has no fan at all (a reference, or an object that contains itself): a walk over it would not end. */
export class UnboundedSchema extends Error {}

class FanCounter {
  readonly #done = new WeakMap<object, Fan>();
  readonly #open = new WeakSet<object>();

  fanOf(schema: unknown, pointer: string): Fan {
    if (!isNode(schema)) return [1];
    const known = this.#done.get(schema);
    if (known !== undefined) return known;
    if (this.#open.has(schema)) throw new UnboundedSchema(`${pointer || '/'}: the schema contains itself`);
    for (const keyword of ['$ref', '$dynamicRef']) {
      if (schema[keyword] !== undefined) throw new UnboundedSchema(`${pointer}/${keyword}: a reference is not taken; write the schema it names in its place`);
    }
    this.#open.add(schema);
    let fan: Fan = [weightOf(schema)];
    for (const keyword of SAME_VALUE) if (schema[keyword] !== undefined) fan = sum(fan, this.fanOf(schema[keyword], `${pointer}/${keyword}`));
    for (const keyword of SAME_VALUE_LISTS) fan = sum(fan, this.listFan(schema[keyword], `${pointer}/${keyword}`, sum));
    fan = sum(fan, this.mapFan(schema.dependentSchemas, `${pointer}/dependentSchemas`, sum));
    const child = larger(larger(this.elementFan(schema, pointer), this.memberFan(schema, pointer)), this.optionalFan(schema.propertyNames, `${pointer}/propertyNames`));
    fan = sum(fan, [0, ...child]);
    this.#open.delete(schema);
    this.#done.set(schema, fan);
    return fan;
  }

  /** What one element of an array meets: its place's schema (`items`, `prefixItems`), and the rest. */
  private elementFan(schema: Node, pointer: string): Fan {
    const items = Array.isArray(schema.items) ? this.listFan(schema.items, `${pointer}/items`, larger) : this.optionalFan(schema.items, `${pointer}/items`);
    let fan = larger(items, this.listFan(schema.prefixItems, `${pointer}/prefixItems`, larger));
    for (const keyword of ELEMENT) fan = sum(fan, this.optionalFan(schema[keyword], `${pointer}/${keyword}`));
    return fan;
  }

  /** What one member of an object meets: at most one of its `properties`, every `patternProperties`, and the rest. */
  private memberFan(schema: Node, pointer: string): Fan {
    let fan = this.mapFan(schema.properties, `${pointer}/properties`, larger);
    fan = sum(fan, this.mapFan(schema.patternProperties, `${pointer}/patternProperties`, sum));
    for (const keyword of MEMBER) fan = sum(fan, this.optionalFan(schema[keyword], `${pointer}/${keyword}`));
    return fan;
  }

  private optionalFan(schema: unknown, pointer: string): Fan {
    return schema === undefined ? NONE : this.fanOf(schema, pointer);
  }

  private listFan(list: unknown, pointer: string, join: (a: Fan, b: Fan) => Fan): Fan {
    if (!Array.isArray(list)) return NONE;
    return list.reduce((fan: Fan, item, index) => join(fan, this.fanOf(item, `${pointer}/${index}`)), NONE);
  }

  private mapFan(map: unknown, pointer: string, join: (a: Fan, b: Fan) => Fan): Fan {
    if (!isNode(map)) return NONE;
    return Object.entries(map).reduce((fan: Fan, [name, item]) => join(fan, this.fanOf(item, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)), NONE);
  }
}

/** The schema's fan: the most weighted schema nodes one value node meets at any depth (see above); throws UnboundedSchema with the pointer of what has none. */
export function checkFan(schema: unknown): number {
  return Math.max(0, ...new FanCounter().fanOf(schema, ''));
}

/** What is wrong with a fan of `fan`: past {@link MAX_CHECK_FAN}, or nothing. */
export function fanProblem(fan: number): string | undefined {
  if (fan <= MAX_CHECK_FAN) return undefined;
  return `/: a check could test one value against schema nodes weighing ${fan} (at most ${MAX_CHECK_FAN}): its allOf, anyOf, oneOf, not, if and dependentSchemas branches are too many, or nest too deep`;
}

/** What is wrong with the cost of checking a value against `schema`, as "pointer: what", or undefined. */
export function checkCostProblem(schema: unknown): string | undefined {
  try {
    return fanProblem(checkFan(schema));
  } catch (error) {
    if (error instanceof UnboundedSchema) return error.message;
    throw error;
  }
}

/**
 * The most JSON a body schema's defaults may add up to. The service fills them into each body
 * before checking it, on its main thread: a default of 400,000 small objects (8 MB) made the body
 * `{}` cost the main thread 100–120 ms, every request. The built-ins' largest is 48 bytes.
 */
export const MAX_DEFAULTS_BYTES = 4096;
/** `value` as JSON text, or undefined when it has none (a function, a BigInt, a cycle). */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}

/** Keywords whose schemas apply to each of many values: a default below one would be filled into each item. */
const EACH_OF_MANY = new Set(['items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems', 'additionalProperties', 'patternProperties', 'unevaluatedProperties', 'propertyNames']);
/** Keywords holding one schema, a list of them, or a map of them. */
const ONE = [...SAME_VALUE, ...ELEMENT, ...MEMBER, 'items', 'propertyNames'];
const LISTS = [...SAME_VALUE_LISTS, 'prefixItems', 'items'];
const MAPS = ['properties', 'patternProperties', 'dependentSchemas'];

/**
 * What is wrong with the defaults of body schema `schema`, as "pointer: what": a default inside
 * `items` or a map (a body of many small items would have each filled), and defaults that add up
 * to more than {@link MAX_DEFAULTS_BYTES} of JSON. Asked of a schema whose fan is bounded.
 */
export function defaultProblems(schema: unknown): string[] {
  const problems: string[] = [];
  let total = 0;
  const walk = (node: unknown, pointer: string, repeated: boolean): void => {
    if (!isNode(node)) return;
    if (node.default !== undefined) {
      if (repeated) problems.push(`${pointer}/default: a default inside items or a map is filled into each of its values; leave it to the handler`);
      const text = jsonText(node.default);
      if (text === undefined) problems.push(`${pointer}/default: is not JSON`);
      total += text?.length ?? 0;
    }
    const inner = (keyword: string, value: unknown, at: string): void => walk(value, at, repeated || EACH_OF_MANY.has(keyword));
    for (const keyword of ONE) if (isNode(node[keyword])) inner(keyword, node[keyword], `${pointer}/${keyword}`);
    for (const keyword of LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((item, index) => inner(keyword, item, `${pointer}/${keyword}/${index}`));
    }
    for (const keyword of MAPS) {
      const map = node[keyword];
      if (isNode(map)) for (const [name, item] of Object.entries(map)) inner(keyword, item, `${pointer}/${keyword}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(schema, '', false);
  if (total > MAX_DEFAULTS_BYTES) problems.push(`/: its defaults add up to ${total} bytes of JSON (at most ${MAX_DEFAULTS_BYTES}), filled into every body that leaves them out`);
  return problems;
}

