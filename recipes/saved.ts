/**
 * Saved recipes: the configuration's `recipes:` section, each entry served as `POST
 * /v1/recipes/<name>` taking `{"input": …}` and answering its last step's answer. Checked when the
 * host opens, as a plugin is when it loads: a broken one stops the start, naming it.
 */
import { randomUUID } from 'node:crypto';
import { isToolshedError, Type, type ErrorDetail, type TSchema } from '@toolshed/plugin-sdk';
import { compileSchema } from '@toolshed/plugin-sdk/contract';
import { ConfigError, withSuggestions, type CompositeOperation, type Config } from './executor.js';
import { checkRecipe, type RecipePlan } from './check.js';
import { checkedCall, poolChecks, type SavedCall } from './pool-checks.js';
import type { Executor } from './executor.js';
import { recipeDeadline, recipeInfo, RECIPES_SECTION } from './info.js';
import { runSteps } from './run.js';
import { MAX_STEPS, RecipeStep } from './schemas.js';

/** Names a saved recipe may not take: the operations every service has under `recipes/`. */
export const RESERVED_NAMES: readonly string[] = ['run', 'identify'];

/** A saved recipe's name: its URL segment, kebab-case like a group's. */
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const SavedRecipe = Type.Object(
  {
    summary: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
    steps: Type.Array(RecipeStep, { minItems: 1, maxItems: MAX_STEPS }),
  },
  { additionalProperties: false },
);
type SavedRecipe = { summary: string; description?: string; steps: RecipeStep[] };

/** The request schema of a saved recipe: `{input}`, typed as its first step's main input when that is where the input goes. */
function requestSchemaOf(plan: RecipePlan): TSchema {
  const first = plan.steps[0]!;
  const wire = first.wires.find((candidate) => candidate.from.length === 1 && candidate.from[0] === 'input' && candidate.at.length === 1);
  const field = wire === undefined ? undefined : (first.operation.requestSchema as { properties?: Record<string, unknown> }).properties?.[wire.at[0]!];
  const input = field ?? { description: 'Any JSON value' };
  return { type: 'object', required: ['input'], additionalProperties: false, properties: { input } } as unknown as TSchema;
}

function savedOperation(name: string, saved: SavedRecipe, plan: RecipePlan, config: Config): CompositeOperation {
  const chain = plan.steps.map((step) => step.operation.name).join(' → ');
  const requestSchema = requestSchemaOf(plan);
  const validator = compileSchema(requestSchema);
  const last = plan.steps[plan.steps.length - 1]!;
  const call: SavedCall = { key: `${name}:${randomUUID()}`, steps: saved.steps, requestSchema };
  return {
    info: recipeInfo(name, {
      summary: saved.summary,
      description: `${saved.description === undefined ? '' : `${saved.description.trim()}\n\n`}A saved recipe: ${chain}, run on the server on \`input\`; answers as its last step does.`,
      requestSchema,
      responseSchema: last.operation.responseSchema,
      examples: [],
    }),
    // Checked before anything runs, on the pool when the body is large (checkSavedCallJob).
    check: { here: (body) => checkedCall(body, plan, validator), module: poolChecks, exportName: 'checkSavedCallJob', data: call },
    async run(checked, request, operations) {
      await request.caller?.charge(plan.steps.length - 1);
      const answers = await runSteps(operations, checked as RecipePlan, { caller: request.caller, requestId: request.requestId, deadlineMs: recipeDeadline(config, request), held: request.held, json: request.json });
      return answers[answers.length - 1]!;
    },
  };
}

/** The plan of saved recipe `name`, or its problems (paths under `/recipes/<name>`). */
function planOf(operations: Executor, name: string, at: string, saved: SavedRecipe): RecipePlan | ErrorDetail[] {
  if (RESERVED_NAMES.includes(name)) return [{ path: at, message: `"${name}" is reserved (POST /v1/recipes/${name} is served already); choose another name` }];
  if (!NAME.test(name)) return [{ path: at, message: 'must be kebab-case (lowercase letters and digits, words joined by "-"): it is the URL segment' }];
  try {
    // The input is checked as "any value" here; each call's input is checked against the request schema.
    return checkRecipe(operations, { input: null, steps: saved.steps });
  } catch (error) {
    if (!isToolshedError(error)) throw error;
    return (error.details ?? [{ path: '', message: error.message }]).map((detail) => ({ path: `${at}${detail.path}`, message: detail.message }));
  }
}

/** Every saved recipe of `config` as a composite operation; throws ConfigError naming every problem. */
export function savedRecipes(operations: Executor, config: Config): CompositeOperation[] {
  const section = config[RECIPES_SECTION] ?? {};
  if (typeof section !== 'object' || Array.isArray(section)) throw new ConfigError([{ path: `/${RECIPES_SECTION}`, message: 'must be a mapping of recipe names to recipes' }]);
  const validator = compileSchema(SavedRecipe);
  const problems: ErrorDetail[] = [];
  const made: CompositeOperation[] = [];
  for (const [name, saved] of Object.entries(section as Record<string, unknown>)) {
    const at = `/${RECIPES_SECTION}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    const shape = validator.problems(saved);
    if (shape.length > 0) {
      problems.push(...withSuggestions(shape.map((detail) => ({ path: `${at}${detail.path}`, message: detail.message })), SavedRecipe, at));
      continue;
    }
    const plan = planOf(operations, name, at, saved as SavedRecipe);
    if (Array.isArray(plan)) problems.push(...plan);
    else made.push(savedOperation(name, saved as SavedRecipe, plan, config));
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return made;
}
