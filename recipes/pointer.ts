/**
 * JSON Pointers (RFC 6901) over values and over the JSON Schemas that describe them: a recipe's
 * `$from` is resolved against answers at run time, and against response schemas before anything runs.
 */

import { LinearRegExp } from '@toolshed/plugin-sdk/contract';

/** Longest `$from`, in characters: a pointer is a path, never data. */
export const MAX_POINTER_CHARS = 1024;
/** Most reference tokens in a `$from`: as deep as a request body may nest. */
export const MAX_POINTER_TOKENS = 64;

/** What makes `pointer` no `$from` a recipe may hold, or undefined when it is one. */
export function pointerProblem(pointer: string): string | undefined {
  if (pointer.length > MAX_POINTER_CHARS) return `$from is longer than ${MAX_POINTER_CHARS} characters`;
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return '$from is not a JSON Pointer';
  return tokens.length > MAX_POINTER_TOKENS ? `$from has more than ${MAX_POINTER_TOKENS} reference tokens` : undefined;
}

/** The reference tokens of `pointer`, or undefined when it is not a JSON Pointer. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~(?![01])/.test(pointer)) return undefined;
  return pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** `tokens` written back as a JSON Pointer. */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((token) => `/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

const NOTHING = Symbol('nothing');

/** The value at `tokens` inside `value`, or {@link NOTHING} when there is none. */
export function valueAt(value: unknown, tokens: readonly string[]): unknown {
  let here: unknown = value;
  for (const token of tokens) {
    if (Array.isArray(here) && /^(?:0|[1-9]\d*)$/.test(token) && Number(token) < here.length) here = here[Number(token)];
    else if (typeof here === 'object' && here !== null && !Array.isArray(here) && Object.hasOwn(here, token)) here = (here as Record<string, unknown>)[token];
    else return NOTHING;
  }
  return here;
}
valueAt.NOTHING = NOTHING;

type Schema = Readonly<Record<string, unknown>>;

/** A JSON object (not an array, not null): a body, a schema, an answer. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The branches of a union schema, or the schema itself. */
function branches(schema: Schema): Schema[] {
  const union = schema.anyOf ?? schema.oneOf;
  return Array.isArray(union) ? union.filter(isRecord).flatMap(branches) : [schema];
}

/**
 * Whether a `patternProperties` name matches `token`, in linear time as the schema's own check
 * matches it (a pattern the engine cannot take, loading refuses already).
 */
function nameMatches(pattern: string, token: string): boolean {
  try {
    return new LinearRegExp(pattern, 'u').test(token);
  } catch {
    return false;
  }
}

function child(schema: Schema, token: string): Schema | undefined {
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  if (properties !== undefined && Object.hasOwn(properties, token) && isRecord(properties[token])) return properties[token];
  if (isRecord(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) if (nameMatches(pattern, token) && isRecord(sub)) return sub;
  }
  if (isRecord(schema.additionalProperties)) return schema.additionalProperties;
  if (schema.additionalProperties === true) return {};
  if (/^(?:0|[1-9]\d*)$/.test(token)) {
    if (Array.isArray(schema.prefixItems) && isRecord(schema.prefixItems[Number(token)])) return schema.prefixItems[Number(token)] as Schema;
    if (isRecord(schema.items)) return schema.items;
  }
  // A schema that says nothing of its shape ({}, Type.Unknown()) allows anything below it.
  const shaped = ['type', 'properties', 'items', 'anyOf', 'oneOf', 'const', 'enum'].some((key) => key in schema);
  return shaped ? undefined : {};
}

/**
 * The schema of the value at `tokens` inside a value of `schema`: one per union branch that has it
 * (empty when no branch has such a field).
 */
export function schemasAt(schema: unknown, tokens: readonly string[]): Schema[] {
  let here: Schema[] = isRecord(schema) ? [schema] : [{}];
  for (const token of tokens) {
    here = here.flatMap(branches).flatMap((branch) => {
      const found = child(branch, token);
      return found === undefined ? [] : [found];
    });
    if (here.length === 0) break;
  }
  return here;
}

const JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'] as const;

/** The JSON types a value of `schema` may have (`integer` counts as `number`); all of them when it does not say. */
export function jsonTypes(schemas: readonly Schema[]): Set<string> {
  const types = new Set<string>();
  for (const schema of schemas.flatMap(branches)) {
    if ('const' in schema) types.add(typeOfValue(schema.const));
    else if (Array.isArray(schema.enum)) for (const value of schema.enum) types.add(typeOfValue(value));
    else if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
      for (const type of [schema.type].flat()) types.add(type === 'integer' ? 'number' : String(type));
    } else return new Set(JSON_TYPES);
  }
  return types;
}

const EMPTY: Readonly<Record<string, unknown>> = { string: '', number: 0, boolean: false, object: {}, array: [], null: null };
/** The longest string a stand-in is made as long as its schema's `minLength` asks. */
const LONGEST_STAND_IN = 64;

/**
 * A value of the first type `schemas` take, as far as their `const`, `enum`, `minLength` and
 * `minimum` say: a field a recipe wires gets one while the step's literal values are checked, and a
 * stand-in within those bounds passes that check without a failure to describe and set aside.
 */
export function standIn(schemas: readonly Schema[]): unknown {
  const type = [...jsonTypes(schemas)][0] ?? 'string';
  for (const schema of schemas.flatMap(branches)) {
    if ('const' in schema) {
      if (typeOfValue(schema.const) === type) return structuredClone(schema.const);
    } else if (Array.isArray(schema.enum)) {
      const value: unknown = schema.enum.find((item) => typeOfValue(item) === type);
      if (value !== undefined) return structuredClone(value);
    } else if (type === 'string' && schema.type === 'string') {
      const length = schema.minLength;
      return typeof length === 'number' && length <= LONGEST_STAND_IN ? 'x'.repeat(length) : '';
    } else if (type === 'number' && (schema.type === 'number' || schema.type === 'integer')) {
      return typeof schema.minimum === 'number' && Number.isInteger(schema.minimum) ? schema.minimum : 0;
    }
  }
  return structuredClone(EMPTY[type]);
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
