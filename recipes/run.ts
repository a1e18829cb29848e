/**
 * Runs a checked recipe: each step through the executor, in order, under one deadline for the
 * whole recipe; a failing step stops the recipe and answers with its own status and code.
 */
import { InputError, isToolshedError, ToolshedError } from '@toolshed/plugin-sdk';
import { checkRecipe, type PlannedStep, type RecipePlan } from './check.js';
import type { Executor, RunAnswer } from './executor.js';
import { formatPointer, valueAt } from './pointer.js';
import { DEFAULT_RECIPE_DEADLINE_MS, MAX_STEP_BODY_BYTES } from './schemas.js';

/** What the front door passes along with a recipe. */
export interface RecipeRunOptions {
  /** Aborted when the caller goes away: the running step stops and no later step starts. */
  readonly signal?: AbortSignal;
  /** For the executor's log lines (never the body). */
  readonly requestId?: string;
  /** The whole recipe's time in ms (default {@link DEFAULT_RECIPE_DEADLINE_MS}); each step gets what is left. */
  readonly deadlineMs?: number;
  /** The clock, in ms (tests fix it). */
  readonly now?: () => number;
}

/** A recipe's answer, shaped like an operation's: its JSON text is built from the steps' own texts. */
export type RecipeOutcome = RunAnswer;

/** 504 `recipe_timeout`: the recipe's overall deadline passed before step `index` could start. */
function recipeTimeout(index: number, deadlineMs: number): ToolshedError {
  return new ToolshedError(504, 'recipe_timeout', `The recipe did not finish within its deadline of ${deadlineMs} ms`, [{ path: `/steps/${index}`, message: 'did not start: no time was left' }]);
}

/** The step's body with every wire filled from `{ input, steps }`. */
function bodyOf(step: PlannedStep, index: number, context: { input: unknown; steps: RunAnswer[] }): Record<string, unknown> {
  const body = structuredClone(step.body) as Record<string, unknown>;
  const answers = context.steps;
  for (const wire of step.wires) {
    const [root, position, ...rest] = wire.from;
    const value = root === 'input' ? valueAt(context.input, [position, ...rest].filter((token) => token !== undefined)) : valueAt(answers[Number(position)]!.value(), rest);
    if (value === valueAt.NOTHING) {
      throw new InputError(`Step ${index} (${step.operation.name}) gets no value from ${formatPointer(wire.from)}`, [
        { path: `/steps/${index}/body${formatPointer(wire.at)}`, message: `${formatPointer(wire.from)} has no value at run time` },
      ]);
    }
    let parent: Record<string, unknown> | unknown[] = body;
    for (const token of wire.at.slice(0, -1)) {
      const next = Array.isArray(parent) ? parent[Number(token)] : parent[token];
      if (typeof next !== 'object' || next === null) break;
      parent = next as Record<string, unknown> | unknown[];
    }
    const last = wire.at[wire.at.length - 1]!;
    if (Array.isArray(parent)) parent[Number(last)] = value;
    else parent[last] = value;
  }
  return body;
}

/** A step's refusal, answered as the recipe's: same status and code, `details[0]` naming the step. */
function stepFailure(error: ToolshedError, index: number, step: PlannedStep): ToolshedError {
  const details = [{ path: `/steps/${index}`, message: `${step.operation.name}: ${error.message}` }, ...(error.details ?? []).map((detail) => ({ path: `/steps/${index}/body${detail.path}`, message: detail.message }))];
  const failure = new ToolshedError(error.status, error.code, `Step ${index} (${step.operation.name}) failed: ${error.message}`, details.slice(0, 100));
  const headers = (error as { headers?: unknown }).headers;
  if (headers !== undefined) Object.assign(failure, { headers });
  return failure;
}

function outcome(plan: RecipePlan, answers: readonly RunAnswer[]): RecipeOutcome {
  const last = answers[answers.length - 1]!;
  const steps = plan.keep === 'all' ? `,"steps":[${answers.map((answer, index) => `{"operation":${JSON.stringify(plan.steps[index]!.operation.name)},"answer":${answer.json}}`).join(',')}]` : '';
  const json = `{"result":${last.json}${steps}}`;
  let parsed: unknown;
  return { body: json, json, bytes: Buffer.byteLength(json), value: () => (parsed ??= JSON.parse(json)) };
}

/** Runs an already checked plan (identify runs its own recipes this way). */
export async function runPlan(executor: Executor, plan: RecipePlan, options: RecipeRunOptions = {}): Promise<RecipeOutcome> {
  return outcome(plan, await runSteps(executor, plan, options));
}

/** Runs an already checked plan and answers every step's answer, in order (a saved recipe answers the last). */
export async function runSteps(executor: Executor, plan: RecipePlan, options: RecipeRunOptions = {}): Promise<RunAnswer[]> {
  const now = options.now ?? Date.now;
  const deadlineMs = options.deadlineMs ?? DEFAULT_RECIPE_DEADLINE_MS;
  const deadline = now() + deadlineMs;
  const answers: RunAnswer[] = [];
  for (const [index, step] of plan.steps.entries()) {
    const remaining = deadline - now();
    if (remaining <= 0 || options.signal?.aborted === true) throw recipeTimeout(index, deadlineMs);
    const body = bodyOf(step, index, { input: plan.input, steps: answers });
    const bytes = Buffer.byteLength(JSON.stringify(body));
    if (bytes > MAX_STEP_BODY_BYTES) {
      throw new ToolshedError(413, 'payload_too_large', `Step ${index} (${step.operation.name}) would get a body of ${bytes} bytes, over the ${MAX_STEP_BODY_BYTES}-byte cap`, [
        { path: `/steps/${index}`, message: `its body is larger than ${MAX_STEP_BODY_BYTES} bytes` },
      ]);
    }
    try {
      answers.push(await executor.run({ operation: step.operation.name, body, signal: options.signal, requestId: options.requestId, deadlineMs: remaining }));
    } catch (error) {
      if (isToolshedError(error)) throw stepFailure(error, index, step);
      throw error;
    }
  }
  return answers;
}

/**
 * Checks `body` (a recipe request as parsed JSON) and runs it. Rejects with the SDK's ToolshedError:
 * 400 for a recipe that does not fit its operations, else the failing step's own status and code.
 */
export async function runRecipe(executor: Executor, body: unknown, options: RecipeRunOptions = {}): Promise<RecipeOutcome> {
  return runPlan(executor, checkRecipe(executor, body), options);
}
