/**
 * A check of the JSON Schema keywords a manifest's schemas use: each known keyword must hold a value
 * of the kind the specification gives it (draft 2020-12). TypeBox compiles `minLength: 'three'` or
 * `type: 'strnig'` without a word and then lets any value through; this finds them at load time,
 * with the JSON Pointer of each. Unknown keywords (annotations, `x-` extensions) are left alone.
 */

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
/** Keywords whose value is one schema, or a map or list of them. */
const ONE_SCHEMA = ['additionalProperties', 'items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function typeProblem(value: unknown): boolean {
  if (typeof value === 'string') return !TYPES.has(value);
  return !Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || !TYPES.has(entry));
}

function patternProblem(value: unknown): boolean {
  if (typeof value !== 'string') return true;
  try {
    new RegExp(value, 'u');
    return false;
  } catch {
    return true;
  }
}

/** Every keyword of `schema` (and the schemas inside it) whose value is of the wrong kind, as "pointer: what". */
export function schemaKeywordProblems(schema: unknown, pointer = ''): string[] {
  if (typeof schema === 'boolean') return [];
  if (!isRecord(schema)) return [`${pointer || '/'}: is not a schema`];
  const problems: string[] = [];
  const at = (keyword: string): string => `${pointer}/${keyword}`;
  for (const keyword of COUNTS) {
    const value = schema[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) problems.push(`${at(keyword)}: must be a non-negative integer`);
  }
  for (const keyword of NUMBERS) {
    const value = schema[keyword];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value))) problems.push(`${at(keyword)}: must be a number`);
  }
  if (schema.multipleOf !== undefined && !(typeof schema.multipleOf === 'number' && schema.multipleOf > 0)) problems.push(`${at('multipleOf')}: must be a number above 0`);
  if (schema.type !== undefined && typeProblem(schema.type)) problems.push(`${at('type')}: must be one of ${[...TYPES].join(', ')}, or a list of them`);
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === 'string'))) problems.push(`${at('required')}: must be a list of names`);
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) problems.push(`${at('enum')}: must be a list`);
  if (schema.uniqueItems !== undefined && typeof schema.uniqueItems !== 'boolean') problems.push(`${at('uniqueItems')}: must be true or false`);
  for (const keyword of ['pattern', 'format']) {
    if (schema[keyword] === undefined) continue;
    if (keyword === 'pattern' ? patternProblem(schema.pattern) : typeof schema.format !== 'string') problems.push(`${at(keyword)}: must be ${keyword === 'pattern' ? 'a valid regular expression' : 'a string'}`);
  }
  for (const keyword of ONE_SCHEMA) if (schema[keyword] !== undefined) problems.push(...schemaKeywordProblems(schema[keyword], at(keyword)));
  for (const keyword of SCHEMA_MAPS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (!isRecord(value)) problems.push(`${at(keyword)}: must map names to schemas`);
    else for (const [name, inner] of Object.entries(value)) problems.push(...schemaKeywordProblems(inner, `${at(keyword)}/${escape(name)}`));
  }
  for (const keyword of SCHEMA_LISTS) {
    const value = schema[keyword];
    if (value === undefined) continue;
    if (!Array.isArray(value)) problems.push(`${at(keyword)}: must be a list of schemas`);
    else value.forEach((inner, index) => problems.push(...schemaKeywordProblems(inner, `${at(keyword)}/${index}`)));
  }
  return problems;
}
