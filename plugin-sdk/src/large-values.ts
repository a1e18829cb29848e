/**
 * Keeps validation linear and cheap on hostile bodies. TypeBox's Default walks every array item and
 * its Errors costs microseconds per item without stopping at maxErrors: 2.6 million array items
 * took 0.5 s to default and 8 s to describe. Here defaults only descend where the schema has
 * defaults, and long arrays are described item by item with a compiled check, stopping early.
 */
import type { TSchema } from 'typebox';
import { Default } from './typebox.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Arrays longer than this are checked item by item instead of through TypeBox's Errors. */
export const LONG_ARRAY = 1000;

/** The branches of a union or intersection (anyOf, oneOf, allOf), empty for any other schema. */
const branchesOf = (schema: Node): unknown[] => ['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));

const hasDefaultsCache = new WeakMap<object, boolean>();

/** True when `schema` or anything below it declares a default. */
export function hasDefaults(schema: unknown): boolean {
  if (!isNode(schema)) return false;
  const cached = hasDefaultsCache.get(schema);
  if (cached !== undefined) return cached;
  hasDefaultsCache.set(schema, false); // guards against cycles
  const found =
    'default' in schema ||
    (isNode(schema.properties) && Object.values(schema.properties).some(hasDefaults)) ||
    hasDefaults(schema.items) ||
    branchesOf(schema).some(hasDefaults);
  hasDefaultsCache.set(schema, found);
  return found;
}

type Filler = (value: unknown) => unknown;
const fillers = new WeakMap<object, Filler>();
const keep: Filler = (value) => value;

/**
 * A copy of a JSON value (a schema's default): objects and arrays are copied so no request can
 * change another's default. By hand, because structuredClone costs microseconds per request.
 */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Node = {};
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Node)[key]);
  return copy;
}

function defaultOf(schema: Node): unknown {
  return copyJson(schema.default);
}

/** Builds, once per schema, a function that fills defaults in place where the schema has any. */
function fillerFor(schema: unknown): Filler {
  if (!isNode(schema) || !hasDefaults(schema)) return keep;
  const cached = fillers.get(schema);
  if (cached) return cached;
  let filler: Filler;
  const branches = branchesOf(schema);
  if (branches.some(hasDefaults)) {
    // Unions choose a branch by the value; TypeBox knows how, and union values are small.
    filler = (value) => Default(schema as TSchema, value === undefined && 'default' in schema ? defaultOf(schema) : value);
  } else {
    // Branches without defaults (a union of literals, the rules of an object's allOf) change nothing
    // here: the node's own default and its properties' defaults are all there is to fill.
    const properties = isNode(schema.properties)
      ? Object.entries(schema.properties).filter(([, property]) => hasDefaults(property)).map(([name, property]) => [name, fillerFor(property)] as const)
      : [];
    const items = fillerFor(schema.items);
    const own = 'default' in schema;
    filler = (input) => {
      const value = input === undefined && own ? defaultOf(schema) : input;
      if (isNode(value)) {
        for (const [name, fill] of properties) {
          const filled = fill(value[name]);
          if (filled !== undefined) value[name] = filled;
        }
      } else if (Array.isArray(value) && items !== keep) {
        for (let index = 0; index < value.length; index++) value[index] = items(value[index]);
      }
      return value;
    };
  }
  fillers.set(schema, filler);
  return filler;
}

/** Fills defaults in place, descending only into parts of the schema that have defaults. */
export function fillDefaults(schema: unknown, value: unknown): unknown {
  return fillerFor(schema)(value);
}

/** A long array found in the body, with the schema it must match. */
export interface LongArray {
  readonly path: string;
  readonly schema: Node;
  readonly value: readonly unknown[];
}

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A copy of `value` in which every long array reachable through object properties is replaced by
 * `[]`; the arrays are listed in `found` so they can be checked on their own.
 */
export function withoutLongArrays(schema: unknown, value: unknown, path: string, found: LongArray[]): unknown {
  if (!isNode(schema)) return value;
  if (Array.isArray(value) && value.length > LONG_ARRAY) {
    found.push({ path, schema, value });
    return [];
  }
  if (!isNode(value) || !isNode(schema.properties)) return value;
  let copy: Node | undefined;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!(name in value)) continue;
    const replaced = withoutLongArrays(property, value[name], `${path}/${escapePointer(name)}`, found);
    if (replaced !== value[name]) (copy ??= { ...value })[name] = replaced;
  }
  return copy ?? value;
}
