/**
 * The recipe check as the host runs it on the pool for a large body (kernel/host/offload.ts,
 * `checkComposite`): the same check as on the main thread, with the plugins' operations as data.
 */
import { checkRecipe, type RecipePlan } from './check.js';
import type { OperationCatalog } from './executor.js';

export function checkRecipeJob(body: unknown, operations: OperationCatalog): RecipePlan {
  return checkRecipe(operations, body);
}
