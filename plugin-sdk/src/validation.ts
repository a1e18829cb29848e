/**
 * Request validation: compile once, fill defaults, then check without coercion, and describe every
 * offending field. Shared by the kernel, the config loader and the `invoke()` test helper, so a
 * plugin's unit tests go through exactly what a real request goes through.
 */
import type { TSchema } from 'typebox';
import type { TLocalizedValidationError } from 'typebox/error';
import type { ErrorDetail } from './errors.js';
import { fillDefaults, LONG_ARRAY, withoutLongArrays, type LongArray } from './large-values.js';
import { resolveSchemaPointer } from './schema-rules.js';
import { Compile, Settings } from './typebox.js';

export { LONG_ARRAY };

/** Most entries a 400 `details` array carries; a hostile body can break a rule millions of times. */
export const MAX_ERROR_DETAILS = 100;
const MAX_PATH_LENGTH = 256;

// TypeBox stops collecting at 8 errors by default; `details` must name every offending field (up to
// our own cap). The raw count is higher than the cap because some raw errors fold into one detail.
Settings.Set({ maxErrors: MAX_ERROR_DETAILS * 4 });

/** A compiled schema: fills defaults into a value, then reports every rule it breaks. */
export interface SchemaValidator {
  /** Fills defaults in place (the value must be a fresh object, e.g. straight from JSON.parse). */
  withDefaults(value: unknown): unknown;
  /** Every broken rule, as `details`; empty when the value is valid. */
  problems(value: unknown): ErrorDetail[];
  /** Fast path: true when the value is valid. */
  check(value: unknown): boolean;
}

const compiled = new WeakMap<object, SchemaValidator>();

/** Compiles `schema` once (cached per schema object); throws when TypeBox cannot compile it. */
export function compileSchema(schema: TSchema): SchemaValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validator = Compile(schema);
  const result: SchemaValidator = {
    withDefaults: (value) => fillDefaults(schema, value),
    check: (value) => validator.Check(value),
    problems: (value) => {
      // A body with thousands of unknown keys costs TypeBox seconds (Check 0.5 s and Errors 2.3 s at
      // 400,000 keys) and named none of them past its own cap; naming the first ones is enough.
      const unknown = unknownProperties(schema, value, '', []);
      if (unknown.length >= MAX_ERROR_DETAILS) return unknown;
      if (validator.Check(value)) return [];
      const long: LongArray[] = [];
      const rest = withoutLongArrays(schema, value, '', long);
      const longPaths = new Set(long.map((array) => array.path));
      // The long arrays stand in as [] here: whatever is said about those paths themselves is void.
      const details = describeErrors(schema, validator.Errors(rest)).filter((detail) => !longPaths.has(detail.path));
      for (const array of long) {
        if (details.length >= MAX_ERROR_DETAILS) break;
        details.push(...longArrayProblems(array, MAX_ERROR_DETAILS - details.length));
      }
      return details.slice(0, MAX_ERROR_DETAILS);
    },
  };
  compiled.set(schema, result);
  return result;
}

/**
 * The first properties, at most {@link MAX_ERROR_DETAILS}, that closed objects of `schema` do not
 * allow, found without walking more of a hostile object than it takes to find them.
 */
function unknownProperties(schema: TSchema, value: unknown, path: string, found: ErrorDetail[]): ErrorDetail[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof properties !== 'object') return found;
  const closed = (schema as { additionalProperties?: unknown }).additionalProperties === false;
  for (const key in value) {
    if (found.length >= MAX_ERROR_DETAILS) break;
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (property !== undefined) unknownProperties(property, (value as Record<string, unknown>)[key], `${path}/${escapePointer(key)}`, found);
    else if (closed) found.push({ path: capPath(`${path}/${escapePointer(key)}`), message: 'is not an allowed property' });
  }
  return found;
}

/** What is wrong with one long array: its length, or its first failing items, found with a compiled check. */
function longArrayProblems(array: LongArray, room: number): ErrorDetail[] {
  const { maxItems, uniqueItems, items, type } = array.schema;
  if (type !== 'array') {
    // An array where the schema wants something else (a string field sent 5,000 items).
    const wanted = typeof type === 'string' ? (typeNames[type] ?? type) : 'another type';
    return [{ path: array.path, message: typeof type === 'string' ? `must be ${wanted}` : 'does not match the schema' }];
  }
  if (typeof maxItems === 'number' && array.value.length > maxItems) {
    return [{ path: array.path, message: `must have at most ${maxItems} items` }];
  }
  const details: ErrorDetail[] = [];
  if (typeof items === 'object' && items !== null) {
    const item = compileSchema(items as TSchema);
    for (let index = 0; index < array.value.length && details.length < room; index++) {
      if (item.check(array.value[index])) continue;
      for (const detail of item.problems(array.value[index])) details.push({ path: `${array.path}/${index}${detail.path}`, message: detail.message });
    }
  }
  if (details.length === 0 && uniqueItems === true) details.push({ path: array.path, message: 'must not hold duplicate items' });
  return details;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function capPath(path: string): string {
  return path.length <= MAX_PATH_LENGTH ? path : `${path.slice(0, MAX_PATH_LENGTH)}…`;
}

function listValues(values: readonly unknown[]): string {
  const shown = values.slice(0, 20).map((value) => JSON.stringify(value));
  return values.length > 20 ? `${shown.join(', ')}, …` : shown.join(', ');
}

const typeNames: Record<string, string> = {
  number: 'a number',
  integer: 'an integer',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** The `const` values of a union of literals, or undefined when the union is anything else. */
function literalUnionValues(schema: unknown): unknown[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const branches = (schema as { anyOf?: unknown }).anyOf;
  if (!Array.isArray(branches)) return undefined;
  const values: unknown[] = [];
  for (const branch of branches) {
    if (typeof branch !== 'object' || branch === null || !('const' in branch)) return undefined;
    values.push((branch as { const: unknown }).const);
  }
  return values;
}

function detailsOf(schema: TSchema, error: TLocalizedValidationError): ErrorDetail[] {
  switch (error.keyword) {
    case 'required':
      return error.params.requiredProperties.map((name) => ({
        path: `${error.instancePath}/${escapePointer(name)}`,
        message: 'is required',
      }));
    case 'additionalProperties':
      return error.params.additionalProperties.map((name) => ({
        path: `${error.instancePath}/${escapePointer(name)}`,
        message: 'is not an allowed property',
      }));
    case 'boolean':
      // "schema is false" repeats what the additionalProperties error already says.
      return [];
    case 'type': {
      const types = Array.isArray(error.params.type) ? error.params.type : [error.params.type];
      return [{ path: error.instancePath, message: `must be ${types.map((type) => typeNames[type] ?? type).join(' or ')}` }];
    }
    case 'enum':
      return [{ path: error.instancePath, message: `must be one of ${listValues(error.params.allowedValues)}` }];
    case 'anyOf': {
      const values = literalUnionValues(resolveSchemaPointer(schema, error.schemaPath));
      const message = values ? `must be one of ${listValues(values)}` : 'does not match any of the allowed forms';
      return [{ path: error.instancePath, message }];
    }
    default:
      return [{ path: error.instancePath, message: error.message }];
  }
}

/**
 * The branch a failed union's value picked by a literal property (`"type": "email"`): the one
 * branch with such a literal that does not mismatch it while every other branch does; undefined
 * when the value picks none, or more than one.
 */
function chosenBranch(schema: TSchema, errors: readonly TLocalizedValidationError[], unionPath: string): number | undefined {
  const branches = (resolveSchemaPointer(schema, unionPath) as { anyOf?: unknown } | undefined)?.anyOf;
  if (!Array.isArray(branches)) return undefined;
  const mismatched = new Set<number>();
  const prefix = `${unionPath}/anyOf/`;
  for (const error of errors) {
    if (error.keyword !== 'const' || !error.schemaPath.startsWith(prefix)) continue;
    // `<union>/anyOf/<i>/properties/<name>`: a literal property of branch i, not one nested deeper.
    const [index, properties, name, ...deeper] = error.schemaPath.slice(prefix.length).split('/');
    if (properties === 'properties' && name !== undefined && deeper.length === 0) mismatched.add(Number(index));
  }
  const candidates = branches.flatMap((branch: unknown, index) => {
    const properties = (branch as { properties?: Record<string, unknown> } | null)?.properties;
    const hasLiteral = typeof properties === 'object' && properties !== null && Object.values(properties).some((property) => typeof property === 'object' && property !== null && 'const' in property);
    return hasLiteral && !mismatched.has(index) ? [index] : [];
  });
  return candidates.length === 1 && mismatched.size === branches.length - 1 ? candidates[0] : undefined;
}

/** Turns TypeBox's raw errors into one `details` entry per offending field and rule. */
export function describeErrors(schema: TSchema, errors: readonly TLocalizedValidationError[]): ErrorDetail[] {
  // Errors inside a failed union are noise: the anyOf error itself says what was expected. Unless
  // the value picked its branch by a literal (`"type": "email"`): that branch's own errors name the
  // field ("/content/prototype is not an allowed property"), and stand in for the anyOf error.
  const unions = errors
    .filter((error) => error.keyword === 'anyOf')
    .map((error) => {
      const chosen = chosenBranch(schema, errors, error.schemaPath);
      return { path: error.schemaPath, prefix: `${error.schemaPath}/anyOf/`, keep: chosen === undefined ? undefined : `${error.schemaPath}/anyOf/${chosen}` };
    });
  const outside = (error: TLocalizedValidationError): boolean =>
    unions.some(({ path, prefix, keep }) =>
      keep !== undefined && error.schemaPath === path && error.keyword === 'anyOf'
        ? true
        : error.schemaPath.startsWith(prefix) && (keep === undefined || (error.schemaPath !== keep && !error.schemaPath.startsWith(`${keep}/`))),
    );
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    if (outside(error)) continue;
    for (const detail of detailsOf(schema, error)) {
      const key = `${detail.path}\u0000${detail.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      details.push({ path: capPath(detail.path), message: detail.message });
      if (details.length === MAX_ERROR_DETAILS) return details;
    }
  }
  return details;
}
