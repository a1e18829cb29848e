/**
 * docs/api.md from the OpenAPI document: a pure function, so the committed file can be compared
 * with what the manifests say now. Every field with its type, default and bounds, every answer
 * with its status and codes, one example request and answer per operation.
 */

/** The parts of a JSON Schema this page shows. */
export interface Schema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly then?: Schema;
  readonly else?: Schema;
  readonly not?: Schema;
  readonly [keyword: string]: unknown;
}

interface Operation {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly requestBody: { readonly content: { readonly 'application/json': { readonly schema: Schema; readonly examples: Readonly<Record<string, { readonly value: unknown }>> } } };
  readonly responses: Readonly<Record<string, { readonly $ref?: string; readonly description?: string; readonly content?: { readonly 'application/json'?: { readonly schema?: Schema; readonly example?: unknown } } }>>;
}

/** The parts of the OpenAPI document this page reads. */
export interface ApiDocument {
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly tags: readonly { readonly name: string; readonly description?: string }[];
  readonly paths: Readonly<Record<string, { readonly post: Operation }>>;
  readonly components: { readonly responses: Readonly<Record<string, { readonly description: string }>> };
}

/** Keywords shown as bounds, in this order, with how each reads. */
const bounds: readonly [string, (value: unknown) => string][] = [
  ['minimum', (value) => `≥ ${String(value)}`],
  ['exclusiveMinimum', (value) => `> ${String(value)}`],
  ['maximum', (value) => `≤ ${String(value)}`],
  ['exclusiveMaximum', (value) => `< ${String(value)}`],
  ['multipleOf', (value) => `multiple of ${String(value)}`],
  ['minLength', (value) => `length ≥ ${String(value)}`],
  ['maxLength', (value) => `length ≤ ${String(value)}`],
  ['minItems', (value) => `items ≥ ${String(value)}`],
  ['maxItems', (value) => `items ≤ ${String(value)}`],
  ['uniqueItems', (value) => (value === true ? 'unique items' : '')],
  ['pattern', (value) => `matches \`${String(value)}\``],
  ['format', (value) => `format ${String(value)}`],
];

/** Longer patterns are not shown to people: the field's description says the same in words. */
export const MAX_SHOWN_PATTERN = 40;

/**
 * How a pattern reads in the table: short ones as they are; a long one (a leap-year-aware date is
 * 365 characters) only in the OpenAPI document, for machines, since its description says it in
 * words ("an existing YYYY-MM-DD date"), or named as a pattern there when it has none.
 */
function patternBound(schema: Schema): string {
  const pattern = String(schema.pattern);
  if (pattern.length <= MAX_SHOWN_PATTERN) return `matches \`${pattern}\``;
  return typeof schema.description === 'string' && schema.description !== '' ? '' : 'matches a pattern (in the OpenAPI document)';
}

/** A table cell: one line, pipes escaped. */
const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
const literal = (value: unknown): string => `\`${JSON.stringify(value)}\``;

/** The values of an enum, a const, or a union of consts; undefined for anything else. */
function choices(schema: Schema): readonly unknown[] | undefined {
  if (schema.enum !== undefined) return schema.enum;
  if ('const' in schema) return [schema.const];
  if (schema.anyOf !== undefined && schema.anyOf.every((option) => 'const' in option)) return schema.anyOf.map((option) => option.const);
  return undefined;
}

/** `string`, `integer`, `array of string`, `string or null`, `one of "a", "b"`. */
export function typeOf(schema: Schema): string {
  const values = choices(schema);
  if (values !== undefined) return values.length === 1 ? literal(values[0]) : `one of ${values.map(literal).join(', ')}`;
  if (schema.anyOf !== undefined) return schema.anyOf.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type as string | undefined) ?? 'any';
  if (type === 'array' && schema.items !== undefined) return `array of ${typeOf(schema.items)}`;
  return type;
}

/** The bounds of a schema and, for arrays, of their items. */
export function constraintsOf(schema: Schema): string {
  const own = bounds
    .map(([keyword, read]) => (schema[keyword] === undefined ? '' : keyword === 'pattern' ? patternBound(schema) : read(schema[keyword])))
    .filter((text) => text !== '');
  const items = schema.items === undefined || choices(schema.items) !== undefined ? '' : constraintsOf(schema.items);
  return [...own, ...(items === '' ? [] : [`each: ${items}`])].join(', ');
}

interface Field {
  readonly path: string;
  readonly schema: Schema;
  readonly required: boolean;
}

/** Every field of an object schema, nested objects (and objects in arrays) flattened with dots. */
export function fieldsOf(schema: Schema, prefix = ''): Field[] {
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    fields.push({ path, schema: property, required: schema.required?.includes(name) === true });
    if (property.properties !== undefined) fields.push(...fieldsOf(property, `${path}.`));
    else if (property.items?.properties !== undefined) fields.push(...fieldsOf(property.items, `${path}[].`));
  }
  return fields;
}

function requestTable(schema: Schema): string[] {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return ['No fields: send `{}`.'];
  const rows = fields.map(({ path, schema: field, required }) => {
    const fallback = field.default === undefined ? '' : literal(field.default);
    return `| \`${path}\` | ${cell(typeOf(field))} | ${required && field.default === undefined ? 'yes' : 'no'} | ${cell(fallback)} | ${cell(constraintsOf(field))} | ${cell(field.description ?? '')} |`;
  });
  return ['| Field | Type | Required | Default | Bounds | Description |', '|---|---|---|---|---|---|', ...rows];
}

/** The fields a rule's subschemas constrain: their `required` and `properties` names. */
function ruleFields(rule: Schema): string[] {
  const branches = [rule.then, rule.else, rule.not, ...((rule.oneOf as Schema[] | undefined) ?? []), ...(rule.anyOf ?? [])];
  const names = new Set<string>();
  for (const branch of branches as (Schema | undefined)[]) {
    for (const name of [...(branch?.required ?? []), ...Object.keys(branch?.properties ?? {})]) names.add(name);
  }
  return [...names];
}

/** The rules over several fields (the body's `allOf` entries), one line each: the fields, then the rule in words. */
function rulesList(schema: Schema): string[] {
  const rules = ((schema.allOf as Schema[] | undefined) ?? []).filter((rule) => rule.description !== undefined);
  if (rules.length === 0) return [];
  return ['', '**Rules**', '', ...rules.map((rule) => `- ${ruleFields(rule).map((name) => `\`${name}\``).join(', ')}: ${rule.description!}`)];
}

function responseTable(schema: Schema | undefined): string[] {
  const fields = schema === undefined ? [] : fieldsOf(schema);
  if (fields.length === 0) return [`A JSON value of type ${schema === undefined ? 'any' : cell(typeOf(schema))}.`];
  const rows = fields.map(({ path, schema: field }) => `| \`${path}\` | ${cell(typeOf(field))} | ${cell(field.description ?? '')} |`);
  return ['| Field | Type | Description |', '|---|---|---|', ...rows];
}

function answersTable(document: ApiDocument, operation: Operation): string[] {
  const rows = Object.entries(operation.responses).map(([status, response]) => {
    const shared = response.$ref === undefined ? undefined : document.components.responses[response.$ref.split('/').pop()!];
    return `| ${status} | ${cell(response.description ?? shared?.description ?? '')} |`;
  });
  return ['| Status | When |', '|---|---|', ...rows];
}

const anchorOf = (path: string): string => path.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function operationSection(document: ApiDocument, path: string, operation: Operation): string[] {
  const request = operation.requestBody.content['application/json'];
  const example = Object.values(request.examples)[0]?.value;
  const success = operation.responses['200']?.content?.['application/json'];
  const curl = `curl -s http://127.0.0.1:8080${path} -H 'Content-Type: application/json' -d '${JSON.stringify(example ?? {}).replace(/'/g, "'\\''")}'`;
  return [
    `### <a id="${anchorOf(path)}"></a>\`POST ${path}\``,
    '',
    operation.summary,
    ...(operation.description === undefined ? [] : ['', operation.description]),
    '',
    '**Request body**',
    '',
    ...requestTable(request.schema),
    ...rulesList(request.schema),
    '',
    '**Answer (200)**',
    '',
    ...responseTable(success?.schema),
    '',
    '**Answers**',
    '',
    ...answersTable(document, operation),
    '',
    '**Example**',
    '',
    '```sh',
    curl,
    '```',
    '',
    '```json',
    JSON.stringify(success?.example ?? null, null, 2),
    '```',
    '',
  ];
}

/** The whole page. */
export function renderApiMarkdown(document: ApiDocument): string {
  const byGroup = new Map<string, [string, Operation][]>();
  for (const [path, item] of Object.entries(document.paths)) {
    const group = item.post.tags[0] ?? 'other';
    byGroup.set(group, [...(byGroup.get(group) ?? []), [path, item.post]]);
  }
  const groups = [...byGroup.keys()].sort();
  const summaries = new Map(document.tags.map((tag) => [tag.name, tag.description]));
  const lines = [
    `# ${document.info.title} ${document.info.version}`,
    '',
    '<!-- Generated from the plugin manifests by `npm run docs`; test/api-docs.test.ts fails when it is stale. -->',
    '',
    document.info.description ?? '',
    '',
    'Every operation is `POST` with a JSON body and answers JSON. The running service serves the same',
    'contract as an OpenAPI 3.1 document at `GET /v1/openapi.json`, and as a page to try it at `GET /docs`.',
    'Errors are `{"error":{"code","message","details?"}}`; every code is in [errors.md](errors.md).',
    '',
    '## Contents',
    '',
    ...groups.map((group) => `- **${group}**: ${byGroup.get(group)!.map(([path]) => `[${path.split('/').pop()}](#${anchorOf(path)})`).join(', ')}`),
    '',
  ];
  for (const group of groups) {
    lines.push(`## ${group}`, '', ...(summaries.get(group) === undefined ? [] : [summaries.get(group)!, '']));
    for (const [path, operation] of byGroup.get(group)!.sort(([a], [b]) => a.localeCompare(b))) lines.push(...operationSection(document, path, operation));
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
