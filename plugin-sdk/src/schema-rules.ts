/**
 * Rules a manifest's schemas must follow, and the one transformation the wire contract needs.
 * Pure functions over plain JSON Schema objects.
 */
type SchemaNode = Record<string, unknown>;

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Calls `visit` on `schema` and every sub-schema below it, with its JSON Pointer. */
function walk(schema: unknown, pointer: string, visit: (node: SchemaNode, pointer: string) => void): void {
  if (!isNode(schema)) return;
  visit(schema, pointer);
  for (const key of ['properties', 'patternProperties', '$defs']) {
    const children = schema[key];
    if (isNode(children)) {
      for (const [name, child] of Object.entries(children)) walk(child, `${pointer}/${key}/${name}`, visit);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains']) walk(schema[key], `${pointer}/${key}`, visit);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((child, index) => walk(child, `${pointer}/${key}/${index}`, visit));
  }
}

/**
 * Lists the object schemas that accept unknown properties without saying so. The contract wants
 * 400 for an unknown property and responses with only the listed fields, so every object must
 * set `additionalProperties` (usually `false`) or use `patternProperties` (a record).
 */
export function findOpenObjects(schema: unknown): string[] {
  const open: string[] = [];
  walk(schema, '#', (node, pointer) => {
    // A branch of allOf/anyOf/oneOf with properties but no type is a rule over the object's fields
    // (`anyOf: [{ properties: { digits: { const: true } } }, …]`), not an object of its own.
    const isRule = node.type === undefined && /\/(?:allOf|anyOf|oneOf)\/\d+$/.test(pointer);
    const isObject = node.type === 'object' || (isNode(node.properties) && !isRule);
    if (isObject && !('additionalProperties' in node) && !isNode(node.patternProperties)) open.push(pointer);
  });
  return open;
}

/** True when a schema of this `type` accepts values of `kind`. */
function accepts(type: unknown, kind: string): boolean {
  return type === kind || (Array.isArray(type) && type.includes(kind));
}

/**
 * The strings without `maxLength` and arrays without `maxItems` in `schema`, as "pointer: what":
 * an unbounded field is how one request eats the service. A string limited to `enum` or `const`
 * is bounded already; a field may say why it needs no bound with `x-unbounded: "<reason>"`.
 */
export function findUnboundedFields(schema: unknown): string[] {
  const unbounded: string[] = [];
  walk(schema, '', (node, pointer) => {
    const reason = node['x-unbounded'];
    if (reason !== undefined) {
      if (typeof reason !== 'string' || reason.trim() === '') unbounded.push(`${pointer || '/'}: x-unbounded must be a non-empty reason`);
      return;
    }
    if (accepts(node.type, 'string') && node.maxLength === undefined && node.enum === undefined && node.const === undefined) {
      unbounded.push(`${pointer || '/'}: a string without maxLength (bound it, or give the reason it needs none as x-unbounded)`);
    }
    if (accepts(node.type, 'array') && node.maxItems === undefined) {
      unbounded.push(`${pointer || '/'}: an array without maxItems (bound it, or give the reason it needs none as x-unbounded)`);
    }
  });
  return unbounded;
}

/**
 * The schema as a client sees it: a property with a `default` is filled in by the kernel, so it is
 * not required on the wire even though the handler always receives it.
 */
export function toWireSchema<T>(schema: T): T {
  const copy = JSON.parse(JSON.stringify(schema)) as T;
  walk(copy, '#', (node) => {
    const properties = node.properties;
    if (!Array.isArray(node.required) || !isNode(properties)) return;
    const required = node.required.filter((name) => !(isNode(properties[name]) && 'default' in properties[name]));
    if (required.length > 0) node.required = required;
    else delete node.required;
  });
  return copy;
}

/** Resolves a `#/a/b` schema pointer inside `schema`; `undefined` when it leads nowhere. */
export function resolveSchemaPointer(schema: unknown, pointer: string): unknown {
  const segments = pointer.replace(/^#\/?/, '').split('/').filter((segment) => segment !== '');
  let node: unknown = schema;
  for (const raw of segments) {
    if (typeof node !== 'object' || node === null) return undefined;
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
