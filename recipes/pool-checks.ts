/**
 * The checks the host runs on the pool for a large composite body (kernel/host/offload.ts,
 * `checkComposite`): a recipe's, an identify request's and a saved recipe's call, each the same
 * check as on the main thread, with the plugins' operations as data; the steps that read only the
 * input get their bodies written here, and the input stays here. Nothing here imports the host, so
 * a pool worker loads these and what they use, not the host's whole graph (about 50 ms and 3 MB
 * of heap in every worker that runs one).
 */
import { InputError, type TSchema } from '@toolshed/plugin-sdk';
import { compileSchema, type SchemaValidator } from '@toolshed/plugin-sdk/contract';
import { checkRecipe, type RecipePlan } from './check.js';
import type { OperationCatalog } from './executor.js';
import { IdentifyRequest, type RecipeStep } from './schemas.js';
import { withBuiltBodies } from './step-bodies.js';

/** This module, as a composite's `check.module` names it for the pool. */
export const poolChecks = new URL(import.meta.url);

/** A recipe (`POST /v1/recipes/run`), checked, with the bodies of the steps that read only its input written. */
export function checkRecipeJob(body: unknown, operations: OperationCatalog): RecipePlan {
  return withBuiltBodies(checkRecipe(operations, body));
}

/**
 * The identify request with its defaults, or the SDK's 400 InputError naming every problem. The
 * same function checks a small request on the main thread, so what comes back from the pool is a
 * request of the schema's size, never the whole of an oversized value.
 */
export function checkIdentifyRequest(body: unknown): IdentifyRequest {
  const validator = compileSchema(IdentifyRequest);
  const request = validator.withDefaults(structuredClone(body)) as IdentifyRequest;
  const problems = validator.problems(request);
  if (problems.length > 0) throw new InputError('The identify request is not valid', problems);
  return request;
}

/** A call of a saved recipe, checked: its request against the recipe's schema (400 naming every problem), then its plan with the call's input. */
export function checkedCall(body: unknown, plan: RecipePlan, validator: SchemaValidator): RecipePlan {
  const problems = validator.problems(body);
  if (problems.length > 0) throw new InputError('The request is not valid', problems);
  return { ...plan, input: (body as { input: unknown }).input };
}

/** What a large call's check on the pool is told of its saved recipe: the steps, planned there as at the start, and the request schema. */
export interface SavedCall {
  /** Names this recipe of this service in a worker's cache, made once at the start. */
  readonly key: string;
  readonly steps: RecipeStep[];
  readonly requestSchema: TSchema;
}

/** Each saved recipe's plan and validator in this pool worker, made at its first large call. */
const plannedCalls = new Map<string, { plan: RecipePlan; validator: SchemaValidator }>();

/**
 * A saved recipe's large call: the same check as on the main thread, and the bodies of the steps
 * that read only the input written here (`withBuiltBodies`), so the main thread neither checks nor
 * holds a 10 MiB input.
 */
export function checkSavedCallJob(body: unknown, operations: OperationCatalog, call: SavedCall): RecipePlan {
  let planned = plannedCalls.get(call.key);
  if (planned === undefined) {
    planned = { plan: checkRecipe(operations, { input: null, steps: call.steps }), validator: compileSchema(call.requestSchema) };
    plannedCalls.set(call.key, planned);
  }
  return withBuiltBodies(checkedCall(body, planned.plan, planned.validator));
}
