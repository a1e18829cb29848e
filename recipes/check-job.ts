/**
 * The recipe check as the host runs it on the pool for a large body (kernel/host/offload.ts,
 * `checkComposite`): the same check as on the main thread, with the plugins' operations as data;
 * the steps that read only the input get their bodies written here, and the input stays here.
 */
import { checkRecipe, type RecipePlan } from './check.js';
import type { OperationCatalog } from './executor.js';
import { withBuiltBodies } from './run.js';

export function checkRecipeJob(body: unknown, operations: OperationCatalog): RecipePlan {
  return withBuiltBodies(checkRecipe(operations, body));
}
