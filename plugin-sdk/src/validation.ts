/**
 * Request validation: compile once, fill defaults, then check without coercion, and describe every
 * offending field. Shared by the kernel, the config loader and the `invoke()` test helper, so a
 * plugin's unit tests go through exactly what a real request goes through.
 */
import type { TSchema } from 'typebox';
import type { TLocalizedValidationError } from 'typebox/error';
import type { ErrorDetail } from './errors.js';
import { fillDefaults, LONG_ARRAY, withoutLongArrays, type LongArray } from './large-values.js';
import { nearestName, typoEdits } from './nearest.js';
import { ruleDetails, valueAt } from './rule-details.js';
import { resolveSchemaPointer } from './schema-rules.js';
import { Settings } from './typebox.js';
import { compileLinear } from './typebox-linear.js';
import { unionDetails } from './union-forms.js';

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

/**
 * A validator that compiles `schema` when it is first used, through {@link compileSchema}: an
 * operation nobody calls costs the host no compile at start-up. Its first use throws what the
 * compile would have; a manifest checked by `checkPlugin` has compiled every schema already.
 */
export function compileOnUse(schema: TSchema): SchemaValidator {
  let validator: SchemaValidator | undefined;
  const compiled = (): SchemaValidator => (validator ??= compileSchema(schema));
  return {
    withDefaults: (value) => compiled().withDefaults(value),
    check: (value) => compiled().check(value),
    problems: (value) => compiled().problems(value),
  };
}

/** Compiles `schema` once (cached per schema object); throws when TypeBox cannot compile it. */
export function compileSchema(schema: TSchema): SchemaValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const validator = compileLinear(schema);
  const result: SchemaValidator = {
    withDefaults: (value) => fillDefaults(schema, value),
    check: (value) => validator.Check(value),
    problems: (value) => {
      // A body with hundreds of thousands of unknown keys costs TypeBox seconds and named none of
      // them past its own cap; naming the first ones is enough.
      const unknown = unknownProperties(schema, value, '', []);
      if (unknown.length >= MAX_ERROR_DETAILS) return unknown;
      if (validator.Check(value)) return [];
      const long: LongArray[] = [];
      const rest = withoutLongArrays(schema, value, '', long);
      const longPaths = new Set(long.map((array) => array.path));
      // The long arrays stand in as [] here: whatever is said about those paths themselves is void.
      const details = describeErrors(schema, validator.Errors(rest), rest).filter((detail) => !longPaths.has(detail.path));
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
    else if (closed) found.push({ path: capPath(`${path}/${escapePointer(key)}`), message: unknownPropertyMessage(key, Object.keys(properties)) });
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

/** The start of every unknown property's message (the rest names what is allowed). */
export const UNKNOWN_PROPERTY = 'is not an allowed property';

/** Most allowed names an unknown property's message lists. */
const MAX_NAMES_LISTED = 12;

/**
 * What an unknown property `key` is told: the allowed name it is a typo of (`hots` → "host"), or
 * else the names its object allows, so a caller (or a model) can correct its call at once.
 */
export function unknownPropertyMessage(key: string, allowed: readonly string[], patterns: readonly string[] = []): string {
  // An object whose names are given by patterns (a record) takes names, just not this one.
  if (allowed.length === 0) return patterns.length > 0 ? `${UNKNOWN_PROPERTY}; a name must match ${patterns.join(' or ')}` : `${UNKNOWN_PROPERTY}; the object takes none`;
  const near = nearestName(key, allowed, typoEdits(key));
  if (near !== undefined) return `${UNKNOWN_PROPERTY}; did you mean "${near}"?`;
  const shown = allowed.slice(0, MAX_NAMES_LISTED).join(', ');
  return `${UNKNOWN_PROPERTY}; allowed: ${allowed.length > MAX_NAMES_LISTED ? `${shown}, …` : shown}`;
}

/** `value` as one form of a union: the form's defaults filled on a copy, then its every broken rule. */
function problemsAsForm(form: object, value: unknown): ErrorDetail[] {
  const validator = compileSchema(form as TSchema);
  return validator.problems(validator.withDefaults(structuredClone(value)));
}

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

/** Each item of the array at `path` in `root` that repeats an earlier one, by its index. */
function repeatedItems(root: unknown, path: string): ErrorDetail[] {
  const array = valueAt(root, path);
  if (!Array.isArray(array)) return [{ path, message: 'must not hold duplicate items' }];
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  array.forEach((item: unknown, index) => {
    const key = JSON.stringify(item);
    if (seen.has(key)) details.push({ path: `${path}/${index}`, message: `repeats ${typeof item === 'string' ? item : key}` });
    seen.add(key);
  });
  return details.length > 0 ? details : [{ path, message: 'must not hold duplicate items' }];
}

function detailsOf(schema: TSchema, error: TLocalizedValidationError, value: unknown): ErrorDetail[] {
  switch (error.keyword) {
    case 'uniqueItems':
      // The array is short here (long ones are checked apart): name each repeat by its index.
      return repeatedItems(value, error.instancePath);
    case 'required':
      return error.params.requiredProperties.map((name) => ({
        path: `${error.instancePath}/${escapePointer(name)}`,
        message: 'is required',
      }));
    case 'additionalProperties': {
      // The object's own schema holds the names it allows: the keyword's parent.
      const object = resolveSchemaPointer(schema, error.schemaPath.replace(/\/additionalProperties$/, '')) as { properties?: object; patternProperties?: object } | undefined;
      const allowed = Object.keys(object?.properties ?? {});
      const patterns = Object.keys(object?.patternProperties ?? {});
      return error.params.additionalProperties.map((name) => ({
        path: `${error.instancePath}/${escapePointer(name)}`,
        message: unknownPropertyMessage(name, allowed, patterns),
      }));
    }
    case 'boolean':
      // "schema is false" repeats what the additionalProperties error already says.
      return [];
    case 'type': {
      const types = Array.isArray(error.params.type) ? error.params.type : [error.params.type];
      return [{ path: error.instancePath, message: `must be ${types.map((type) => typeNames[type] ?? type).join(' or ')}` }];
    }
    case 'const':
      return [{ path: error.instancePath, message: `must be ${JSON.stringify(error.params.allowedValue)}` }];
    case 'enum':
      return [{ path: error.instancePath, message: `must be one of ${listValues(error.params.allowedValues)}` }];
    case 'anyOf':
    case 'oneOf': {
      const union = resolveSchemaPointer(schema, error.schemaPath);
      const values = literalUnionValues(union);
      if (values) return [{ path: error.instancePath, message: `must be one of ${listValues(values)}` }];
      return unionDetails(union, error.keyword, valueAt(value, error.instancePath), error.instancePath, problemsAsForm) ?? [{ path: error.instancePath, message: error.message }];
    }
    case 'pattern': {
      // A long pattern says little to a reader; the field's description says the same in words.
      const { pattern, description } = (resolveSchemaPointer(schema, error.schemaPath) ?? {}) as { pattern?: string; description?: string };
      const long = typeof pattern === 'string' && pattern.length > 80 && typeof description === 'string';
      return [{ path: error.instancePath, message: long ? `is not of the form the schema states: ${description}` : error.message }];
    }
    default:
      return [{ path: error.instancePath, message: error.message }];
  }
}

/**
 * Turns TypeBox's raw errors into one `details` entry per offending field and rule. With the
 * checked `value`, a failed rule over several fields (`if`, `oneOf`, `anyOf`, `not`) names those
 * fields rather than the object that holds it.
 */
export function describeErrors(schema: TSchema, errors: readonly TLocalizedValidationError[], value?: unknown): ErrorDetail[] {
  // Errors inside a failed anyOf or oneOf branch are noise: the union's own error says what was expected.
  const failedUnions = errors
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .map((error) => `${error.schemaPath}/${error.keyword}/`);
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  const describe = (branch: object, inner: unknown): ErrorDetail[] => compileSchema(branch as TSchema).problems(inner);
  // A field's own errors first: a rule over it (`to` must be a length unit) adds nothing when the
  // field is already wrong on its own (`to` must be a string).
  const kept = errors.filter((error) => !failedUnions.some((prefix) => error.schemaPath.startsWith(prefix)));
  const rules = new Map(kept.map((error) => [error, ruleDetails(schema, error, value, describe)] as const));
  const named = new Set<string>();
  for (const error of [...kept.filter((error) => !rules.get(error)), ...kept.filter((error) => rules.get(error))]) {
    const rule = rules.get(error)?.filter((detail) => !named.has(detail.path));
    for (const detail of rule ?? detailsOf(schema, error, value)) {
      named.add(detail.path);
      const key = `${detail.path}\u0000${detail.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      details.push({ path: capPath(detail.path), message: detail.message });
      if (details.length === MAX_ERROR_DETAILS) return details;
    }
  }
  return details;
}
