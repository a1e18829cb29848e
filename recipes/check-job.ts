/**
 * The recipe and identify checks as the host runs them on the pool for a large body
 * (kernel/host/offload.ts, `checkComposite`): the same checks as on the main thread, with the
 * plugins' operations as data.
 */
import { checkRecipe, type RecipePlan } from './check.js';
import type { OperationCatalog } from './executor.js';
import { checkIdentifyRequest } from './identify.js';
import type { IdentifyRequest } from './schemas.js';

export function checkRecipeJob(body: unknown, operations: OperationCatalog): RecipePlan {
  return checkRecipe(operations, body);
}

export function checkIdentifyJob(body: unknown): IdentifyRequest {
  return checkIdentifyRequest(body);
}
