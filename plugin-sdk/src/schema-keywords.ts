/**
 * A check of the JSON Schema keywords a manifest's schemas use: each known keyword must hold a value
 * of the kind the specification gives it (draft 2020-12). TypeBox compiles `minLength: 'three'` or
 * `type: 'strnig'` without a word and then lets any value through; this finds them at load time,
 * with the JSON Pointer of each. And, the way ajv's strict mode does, every keyword must be one of
 * draft 2020-12 or TypeBox's own (`minimun` would otherwise be an annotation that bounds nothing):
 * a plugin's own annotations start with `x-`.
 */

import { editDistance } from './nearest.js';
import { linearPatternProblem } from './linear-regexp.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains'];
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'];
/** Keywords whose value is one schema, or a map or list of them. */
const ONE_SCHEMA = ['additionalProperties', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'additionalItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/**
 * Every keyword a schema may hold: draft 2020-12's core, applicator, validation, meta-data, format
 * and content vocabularies, plus `additionalItems` and the list form of `items`, which TypeBox's
 * Type.Tuple writes. TypeBox's own markers (`~kind`, `~optional`) start with `~`.
 */
const KNOWN = new Set([
  ...['$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs'],
  ...['items', 'prefixItems', 'dependentRequired', 'type', 'enum', 'const', 'multipleOf', 'pattern', 'required', 'uniqueItems'],
  ...['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'format', 'contentEncoding', 'contentMediaType'],
  ...COUNTS,
  ...NUMBERS,
  ...ONE_SCHEMA,
  ...SCHEMA_MAPS,
  ...['allOf', 'anyOf', 'oneOf'],
]);
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** The known keyword nearest to `keyword` (case ignored; the first of equals in KNOWN's order). */
export function nearestKeyword(keyword: string): string {
  let best = '';
  let bestDistance = Infinity;
  for (const known of KNOWN) {
    const distance = editDistance(keyword.toLowerCase(), known.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [known, distance];
  }
  return best;
}

/** The keywords of `schema` that are neither known nor an `x-` annotation nor TypeBox's `~` markers. */
function unknownKeywordProblems(schema: Record<string, unknown>, pointer: string): string[] {
  const problems: string[] = [];
  for (const keyword of Object.keys(schema)) {
    if (KNOWN.has(keyword) || keyword.startsWith('x-') || keyword.startsWith('~')) continue;
    problems.push(`${pointer}/${escape(keyword)}: \`${keyword}\` is not a JSON Schema keyword: did you mean \`${nearestKeyword(keyword)}\`? (a plugin's own annotations start with x-)`);
  }
  return problems;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function typeProblem(value: unknown): boolean {
  if (typeof value === 'string') return !TYPES.has(value);
  return !Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || !TYPES.has(entry));
}

/**
 * What is wrong with a `pattern` or a `patternProperties` name: not a regular expression, or one
 * the service cannot match in linear time (linear-regexp.ts), which is every one it evaluates.
 */
function patternProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a valid regular expression';
  try {
    new RegExp(value, 'u');
  } catch {
    return 'must be a valid regular expression';
  }
  const linear = linearPatternProblem(value, 'u');
  return linear === undefined ? undefined : `is a pattern the service cannot match in linear time: it ${linear}`;
}

/**
 * Every keyword of `schema` (and the schemas inside it) that is unknown or whose value is of the
 * wrong kind, as "pointer: what".
 */
export function schemaKeywordProblems(schema: unknown, pointer = ''): string[] {
  if (typeof schema === 'boolean') return [];
  if (!isRecord(schema)) return [`${pointer || '/'}: is not a schema`];
  const problems: string[] = unknownKeywordProblems(schema, pointer);
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
  const pattern = schema.pattern === undefined ? undefined : patternProblem(schema.pattern);
  if (pattern !== undefined) problems.push(`${at('pattern')}: ${pattern}`);
  if (schema.format !== undefined && typeof schema.format !== 'string') problems.push(`${at('format')}: must be a string`);
  if (isRecord(schema.patternProperties)) {
    for (const name of Object.keys(schema.patternProperties)) {
      const problem = patternProblem(name);
      if (problem !== undefined) problems.push(`${at('patternProperties')}/${escape(name)}: the name ${problem}`);
    }
  }
  for (const keyword of ONE_SCHEMA) if (schema[keyword] !== undefined) problems.push(...schemaKeywordProblems(schema[keyword], at(keyword)));
  // `items` is one schema, or a list of them in the tuples TypeBox writes.
  const items = schema.items;
  if (Array.isArray(items)) items.forEach((inner, index) => problems.push(...schemaKeywordProblems(inner, `${at('items')}/${index}`)));
  else if (items !== undefined) problems.push(...schemaKeywordProblems(items, at('items')));
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
