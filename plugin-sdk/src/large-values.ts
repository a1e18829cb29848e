/**
 * Keeps validation linear and cheap on hostile bodies. TypeBox's Default walks every array item and
 * its Errors costs time per item without stopping at maxErrors: millions of array items took
 * seconds to default and to describe. Here defaults only descend where the schema has
 * defaults, and long arrays are described item by item with a compiled check, stopping early.
 */
import type { TSchema } from 'typebox';
import { compileLinear } from './typebox-linear.js';

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
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Node)[key]);
    // An own "__proto__" key (JSON.parse makes one) stays a key: assigning it would set the prototype.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

function defaultOf(schema: Node): unknown {
  return copyJson(schema.default);
}

/**
 * The filler of a schema's branches, or undefined when none has defaults. Each alternative (anyOf,
 * oneOf) is filled on its own copy of the value and the first copy its branch accepts wins, as
 * TypeBox's Default does — but TypeBox copies with its Clone, which drops the keys `__proto__`,
 * `constructor` and `prototype`, so a body carrying one inside a closed union branch passed
 * validation without it. Here the copy keeps every key. Every allOf branch fills the value itself.
 */
function branchFiller(schema: Node): Filler | undefined {
  const alternatives = ['anyOf', 'oneOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []));
  const all = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]) : [];
  if (!alternatives.some(hasDefaults) && !all.some(hasDefaults)) return undefined;
  const every = all.map(fillerFor);
  const choices = alternatives.map((branch) => ({ fill: fillerFor(branch), check: checkerFor(branch), picked: pickedBy(branch) }));
  return (input) => {
    let value = input;
    for (const fill of every) value = fill(value);
    for (const { fill, check } of choices) {
      const candidate = fill(copyJson(value));
      if (check(candidate)) return candidate;
    }
    // No branch accepts the value: fill the one it names by its literals (`"type": "email"`), so
    // the 400 lists what is wrong there and not the fields that have defaults.
    const named = choices.filter(({ picked }) => picked(value));
    return named.length === 1 ? named[0]!.fill(value) : value;
  };
}

/** Whether `value` carries every literal (`const`) property of `branch`; false when the branch has none. */
function pickedBy(branch: unknown): (value: unknown) => boolean {
  const properties = isNode(branch) && isNode(branch.properties) ? Object.entries(branch.properties) : [];
  const literals = properties.filter(([, property]) => isNode(property) && 'const' in property).map(([name, property]) => [name, (property as Node).const] as const);
  if (literals.length === 0) return () => false;
  return (value) => isNode(value) && literals.every(([name, literal]) => Object.hasOwn(value, name) && value[name] === literal);
}

const checkers = new WeakMap<object, (value: unknown) => boolean>();

function checkerFor(schema: unknown): (value: unknown) => boolean {
  if (!isNode(schema)) return () => schema !== false;
  let checker = checkers.get(schema);
  if (checker === undefined) {
    const compiled = compileLinear(schema as TSchema);
    checker = (value) => compiled.Check(value);
    checkers.set(schema, checker);
  }
  return checker;
}

/** Builds, once per schema, a function that fills defaults in place where the schema has any. */
function fillerFor(schema: unknown): Filler {
  if (!isNode(schema) || !hasDefaults(schema)) return keep;
  const cached = fillers.get(schema);
  if (cached) return cached;
  const properties = isNode(schema.properties)
    ? Object.entries(schema.properties).filter(([, property]) => hasDefaults(property)).map(([name, property]) => [name, fillerFor(property)] as const)
    : [];
  const items = fillerFor(schema.items);
  const branches = branchFiller(schema);
  const own = 'default' in schema;
  const filler: Filler = (input) => {
    const value = input === undefined && own ? defaultOf(schema) : input;
    if (isNode(value)) {
      for (const [name, fill] of properties) {
        const filled = fill(value[name]);
        if (filled !== undefined) value[name] = filled;
      }
    } else if (Array.isArray(value) && items !== keep) {
      for (let index = 0; index < value.length; index++) value[index] = items(value[index]);
    }
    return branches === undefined ? value : branches(value);
  };
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
    if (!Object.hasOwn(value, name)) continue;
    const replaced = withoutLongArrays(property, value[name], `${path}/${escapePointer(name)}`, found);
    if (replaced !== value[name]) (copy ??= { ...value })[name] = replaced;
  }
  return copy ?? value;
}
