/**
 * Recipes and identify, for the front doors (HTTP, MCP, command line, pages): each calls these with
 * the executor the composition root hands it, and never the request path's internals.
 */
export { runRecipe, runPlan, runSteps, type RecipeRunOptions } from './run.js';
export { checkRecipe, mainFields, type RecipePlan, type PlannedStep, type Wire } from './check.js';
export { identify, MAX_SPECULATIVE_RUNS, MAX_SPECULATIVE_BYTES, type IdentifyOptions } from './identify.js';
export {
  RecipeRequest,
  RecipeAnswer,
  RecipeStep,
  IdentifyRequest,
  IdentifyAnswer,
  IdentifyCandidate,
  MAX_STEPS,
  MAX_STEP_BODY_BYTES,
  MAX_IDENTIFY_INPUT_CHARS,
  DEFAULT_RECIPE_DEADLINE_MS,
} from './schemas.js';
export type { Answer, Executor, OperationInfo, RunRequest } from './executor.js';
export { recipeOperations } from './operations.js';
export { RECIPES_GROUP, RECIPES_SECTION } from './info.js';
export { RESERVED_NAMES } from './saved.js';
