/**
 * Recipes and identify as composite operations (kernel/host/composite.ts): `recipes/run`,
 * `recipes/identify` and one `recipes/<name>` per saved recipe, made from the plugins' operations
 * when the host opens. Every front door that lists the executor's operations (the /v1 routes, the
 * OpenAPI document and so the tool pages, MCP tools, `toolshed call`) serves them from here.
 */
import { answerOf, type CompositeOperation, type Config, type Executor } from './executor.js';
import { checkRecipe, type RecipePlan } from './check.js';
import { clientSchema, recipeDeadline, recipeInfo } from './info.js';
import { identifyChecked } from './identify.js';
import { checkIdentifyRequest, poolChecks } from './pool-checks.js';
import { runPlan } from './run.js';
import { savedRecipes } from './saved.js';
import { IdentifyAnswer, IdentifyRequest, RecipeAnswer, RecipeRequest } from './schemas.js';

const JWT_LAYERS = 'ZXlKaGJHY2lPaUpJVXpJMU5pSjkuZXlKemRXSWlPaUkwTWlJc0ltVjRjQ0k2TVRjd01EQXdNREF3TUgwLmMybG4%3D';
const JWT_ANSWER = { header: { alg: 'HS256' }, payload: { sub: '42', exp: 1700000000 }, status: 'expired', times: { exp: '2023-11-14T22:13:20.000Z' } };

function runOperation(config: Config): CompositeOperation {
  return {
    info: recipeInfo('run', {
      summary: 'Run a recipe: a chain of operations, each answer feeding the next, in one call',
      description:
        'Only the last answer comes back: intermediate data stays on the server, out of the caller\'s (or an agent\'s) context. ' +
        'A step left without its main input gets the previous answer\'s main output; `{"$from": "/steps/0/text"}` wires any other value. ' +
        'The recipe is checked against every step\'s schema before anything runs (400 naming `/steps/N/…`); a step that fails answers ' +
        'with its own status and code, `details[0].path` naming `/steps/N`, and nothing after it runs. Each step counts as one request ' +
        'against the rate limit. See docs/recipes.md.',
      requestSchema: clientSchema(RecipeRequest),
      responseSchema: clientSchema(RecipeAnswer),
      examples: [
        {
          title: 'A JWT, Base64-encoded, then percent-encoded',
          body: { input: JWT_LAYERS, steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] },
          response: { result: JWT_ANSWER },
        },
      ],
    }),
    // Checked before anything runs, on the pool when the body is large (recipes/pool-checks.ts).
    check: { here: (body, operations) => checkRecipe(operations, body), module: poolChecks, exportName: 'checkRecipeJob' },
    async run(checked, request, operations) {
      const plan = checked as RecipePlan;
      await request.caller?.charge(plan.steps.length - 1);
      return runPlan(operations, plan, { caller: request.caller, requestId: request.requestId, deadlineMs: recipeDeadline(config, request), held: request.held, json: request.json });
    },
  };
}

function identifyOperation(config: Config): CompositeOperation {
  return {
    info: recipeInfo('identify', {
      summary: 'Say what a pasted input is, with the recipe that decodes it',
      description:
        'Candidates best first, each with a kind, a confidence, a recipe that runs as given through recipes/run, and a preview of its answer. ' +
        'Layers are unwrapped (URL-encoded Base64 of a JWT is one three-step recipe). Candidates are confirmed by running local ' +
        'operations only: nothing leaves the machine, and it costs one request.',
      requestSchema: clientSchema(IdentifyRequest),
      responseSchema: clientSchema(IdentifyAnswer),
      examples: [
        {
          title: 'Three layers',
          body: { input: JWT_LAYERS },
          response: {
            candidates: [
              {
                kind: 'percent-encoding',
                title: 'Percent-encoded text → Base64 → JSON Web Token',
                confidence: 0.913,
                recipe: { steps: [{ operation: 'url-encoder/decode' }, { operation: 'base64/decode' }, { operation: 'jwt-decoder/decode' }] },
                preview: JWT_ANSWER,
              },
            ],
          },
          exact: false,
        },
      ],
    }),
    // Checked first, on the pool when the body is large (the same function there): what comes back is a request of the schema's size.
    check: { here: (body) => checkIdentifyRequest(body), module: poolChecks, exportName: 'checkIdentifyRequest' },
    async run(body, request, operations) {
      // Identify's own work is counted, not timed; the request's deadline still bounds it.
      const deadline = AbortSignal.timeout(recipeDeadline(config, request));
      const gone = request.caller?.gone();
      const signal = gone === undefined ? deadline : AbortSignal.any([gone, deadline]);
      return answerOf(JSON.stringify(await identifyChecked(operations, body as IdentifyRequest, { signal, requestId: request.requestId, json: request.json })), Number.POSITIVE_INFINITY);
    },
  };
}

/**
 * Every recipe operation for `config`, over the plugins' `operations`. Throws the kernel's
 * ConfigError naming every broken saved recipe (`/recipes/<name>/…`).
 */
export function recipeOperations(operations: Executor, config: Config): CompositeOperation[] {
  return [runOperation(config), identifyOperation(config), ...savedRecipes(operations, config)];
}
