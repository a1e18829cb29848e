/**
 * `details` for the rules a body schema states about several fields at once: `if`/`then`,
 * `oneOf`, `anyOf` and `not`, usually one `allOf` entry each with a `description` that says the
 * rule in words. TypeBox reports such a failure at the object that holds the rule (often the body,
 * path ""), and drops what the failing `then` said; a client needs the fields, so each detail
 * names them, worded by the rule's `description`.
 */
import type { TLocalizedValidationError } from 'typebox/error';
import type { ErrorDetail } from './errors.js';
import { resolveSchemaPointer } from './schema-rules.js';

type SchemaNode = Record<string, unknown>;
/** Every broken rule of `value` under `schema`, paths relative to `value`. */
export type Describe = (schema: SchemaNode, value: unknown) => ErrorDetail[];

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);
const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** The keywords whose failure is reported at the object holding them. */
export const RULE_KEYWORDS: ReadonlySet<string> = new Set(['if', 'oneOf', 'anyOf', 'not']);

/** The value at a JSON Pointer inside `root`; undefined when the path leads nowhere. */
export function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

/** The property names the subschemas constrain (their `required` and `properties`), first mention first. */
function namesIn(schemas: readonly unknown[]): string[] {
  const names = new Set<string>();
  for (const schema of schemas) {
    if (!isNode(schema)) continue;
    if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') names.add(name);
    if (isNode(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
  }
  return [...names];
}

/**
 * The details of one failed rule, or undefined when `error` is no rule over named fields (a union
 * of literals or of types, say), which the caller then describes as before.
 */
export function ruleDetails(schema: unknown, error: TLocalizedValidationError, value: unknown, describe: Describe): ErrorDetail[] | undefined {
  if (!RULE_KEYWORDS.has(error.keyword)) return undefined;
  const rule = resolveSchemaPointer(schema, error.schemaPath);
  if (!isNode(rule)) return undefined;
  const message = typeof rule.description === 'string' ? rule.description : undefined;
  const at = (name: string): string => `${error.instancePath}/${escapePointer(name)}`;
  if (error.keyword === 'if') {
    // The branch that failed, checked again on its own: its errors name exactly the broken fields.
    const branch = rule[(error.params as { failingKeyword?: string }).failingKeyword ?? 'then'];
    if (!isNode(branch)) return undefined;
    const inner = describe(branch, valueAt(value, error.instancePath));
    if (inner.length === 0) return undefined;
    return inner.map((detail) => ({ path: `${error.instancePath}${detail.path}`, message: message ?? detail.message }));
  }
  const branches = error.keyword === 'not' ? [rule.not] : (rule[error.keyword] as unknown[]);
  // A rule's branches only constrain; branches with a `type` are the forms of a union, not a rule.
  if (!Array.isArray(branches) || branches.some((branch) => isNode(branch) && 'type' in branch)) return undefined;
  const names = namesIn(branches);
  if (names.length === 0 || message === undefined) return undefined;
  return names.map((name) => ({ path: at(name), message }));
}
