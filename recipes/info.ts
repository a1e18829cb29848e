/**
 * What every recipe operation (kernel/host/composite.ts) shares: its place under `/v1/recipes/`, its
 * OperationInfo, its deadline, its answer.
 */
import type { TSchema } from '@toolshed/plugin-sdk';
import type { CompositeRequest, Config, OperationInfo } from './executor.js';

/** The group every recipe operation is served under; no plugin may take it. */
export const RECIPES_GROUP = 'recipes';
/** The top-level configuration key of saved recipes. */
export const RECIPES_SECTION = 'recipes';

const groupSummary = 'Chains of operations run on the server in one request, saved recipes, and identify (what is this input?)';

/** `schema` as a client sees it: plain JSON, a field with a default not required (as the SDK's wire schemas). */
export function clientSchema(schema: TSchema): TSchema {
  const copy = JSON.parse(JSON.stringify(schema)) as { required?: string[]; properties?: Record<string, { default?: unknown }> };
  if (copy.required !== undefined) copy.required = copy.required.filter((name) => copy.properties?.[name]?.default === undefined);
  if (copy.required?.length === 0) delete copy.required;
  return copy as TSchema;
}

/** What every recipe operation's OperationInfo shares; `definition` repeats the rest as manifest data. */
export function recipeInfo(operation: string, parts: Pick<OperationInfo, 'summary' | 'description' | 'requestSchema' | 'responseSchema' | 'examples'>): Omit<OperationInfo, 'composite'> {
  return {
    id: `${RECIPES_GROUP}.${operation}`,
    name: `${RECIPES_GROUP}/${operation}`,
    group: RECIPES_GROUP,
    groupSummary,
    operation,
    ...parts,
    errors: {},
    upstream: false,
    // The same data as a manifest would give it (no handler): a plain JSON Schema, not a TypeBox object.
    definition: { summary: parts.summary, description: parts.description, body: parts.requestSchema, response: parts.responseSchema, examples: parts.examples } as unknown as OperationInfo['definition'],
  };
}

/** The recipe's whole time: what one request gets (`operations.deadlineMs`), less when the caller has less. */
export function recipeDeadline(config: Config, request: CompositeRequest): number {
  return Math.min(config.operations.deadlineMs, request.deadlineMs ?? Number.POSITIVE_INFINITY);
}
