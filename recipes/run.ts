/**
 * Runs a checked recipe: each step through the executor, in order, under one deadline for the
 * whole recipe; a failing step stops the recipe and answers with its own status and code. Each
 * step's body is built and serialized once and handed on as bytes. It is written, and an earlier
 * answer a `$from` reads is parsed, where the step's own work is done: on the pool when large
 * (kernel/host/composite-json.ts), so a 10 MiB step costs the main thread a copy of its value,
 * not its serialization; a large recipe's steps that read only its input come with their bodies
 * written where the recipe was checked, and the input stays there (step-bodies.ts). What a
 * recipe holds — every answer a later step still reads or the recipe keeps, and the body of the
 * step running — is counted against the answer budget and the recipe's cap (the answer cap); an
 * answer is dropped as soon as the body of its last reader is built, or at once when nobody reads
 * or keeps it.
 */
import { isToolshedError, ToolshedError } from '@toolshed/plugin-sdk';
import { checkRecipe, type PlannedStep, type RecipePlan } from './check.js';
import { eventLoopSlice } from './event-loop-slice.js';
import { answerOf, answerOfParts, answerText, jsonHere, type Answer, type Caller, type CompositeJson, type Executor, type HeldAnswers, type OperationInfo } from './executor.js';
import { valueAt } from './pointer.js';
import { DEFAULT_RECIPE_DEADLINE_MS, MAX_STEP_BODY_BYTES } from './schemas.js';
import { filledBody, inputValue } from './step-bodies.js';

/** What the front door passes along with a recipe. */
export interface RecipeRunOptions {
  /** Who asked: when it goes away, the running step stops and no later step starts. */
  readonly caller?: Caller;
  /** For the executor's log lines (never the body). */
  readonly requestId?: string;
  /** The whole recipe's time in ms (default {@link DEFAULT_RECIPE_DEADLINE_MS}); each step gets what is left. */
  readonly deadlineMs?: number;
  /** The clock of the deadline and of the event loop's slices, in ms (tests fix it); `performance.now()` by default. */
  readonly now?: () => number;
  /** Where the answers held between steps are counted (the host's ledger for this run); none: not counted. */
  readonly held?: HeldAnswers;
  /** Where step bodies are written and earlier answers parsed (the host's: on the pool when large); none: here. */
  readonly json?: CompositeJson;
}

/** 504 `recipe_timeout`: the recipe's overall deadline passed before step `index` could start. */
function recipeTimeout(index: number, deadlineMs: number): ToolshedError {
  return new ToolshedError(504, 'recipe_timeout', `The recipe did not finish within its deadline of ${deadlineMs} ms`, [{ path: `/steps/${index}`, message: 'did not start: no time was left' }]);
}

/** One answer as the runner keeps it: parsed when a wire first reads it, and only then. */
interface Kept {
  readonly answer: Answer;
  /** The operation that gave it: it is parsed where that operation's work is done. */
  readonly operation: OperationInfo;
  value?: unknown;
}

/** The step's body with every wire filled from `{ input, steps }`; an earlier answer is parsed when a wire first reads it. */
async function bodyOf(step: PlannedStep, index: number, input: unknown, kept: readonly (Kept | undefined)[], json: CompositeJson): Promise<Readonly<Record<string, unknown>>> {
  for (const wire of step.wires) {
    if (wire.from[0] !== 'steps') continue;
    const source = kept[Number(wire.from[1])]!;
    source.value ??= await json.value(source.operation, source.answer);
  }
  return filledBody(step, index, (from) => (from[0] === 'input' ? inputValue(input, from) : valueAt(kept[Number(from[1])]!.value, from.slice(2))));
}

/** A step's refusal, answered as the recipe's: same status and code, `details[0]` naming the step. */
function stepFailure(error: ToolshedError, index: number, step: PlannedStep): ToolshedError {
  const details = [{ path: `/steps/${index}`, message: `${step.operation.name}: ${error.message}` }, ...(error.details ?? []).map((detail) => ({ path: `/steps/${index}/body${detail.path}`, message: detail.message }))];
  const failure = new ToolshedError(error.status, error.code, `Step ${index} (${step.operation.name}) failed: ${error.message}`, details.slice(0, 100));
  const headers = (error as { headers?: unknown }).headers;
  if (headers !== undefined) Object.assign(failure, { headers });
  return failure;
}

/**
 * For each step, the last step that reads its answer (itself when none does), or the plan's end
 * when the answer is kept for the recipe's own answer (the last step's always; every step's with `keep: all`).
 */
export function lastReaders(plan: RecipePlan): number[] {
  const end = plan.steps.length;
  const last = plan.steps.map((_, index) => (plan.keep === 'all' || index === end - 1 ? end : index));
  plan.steps.forEach((step, index) => {
    for (const wire of step.wires) {
      if (wire.from[0] !== 'steps') continue;
      const from = Number(wire.from[1]);
      if (last[from]! < index) last[from] = index;
    }
  });
  return last;
}

/** Drops every kept answer whose last reader is step `index`. */
function dropReadBy(index: number, readers: readonly number[], kept: (Kept | undefined)[], held: HeldAnswers | undefined): void {
  readers.forEach((reader, from) => {
    const entry = kept[from];
    if (reader !== index || entry === undefined) return;
    held?.drop(entry.answer);
    kept[from] = undefined;
  });
}

/**
 * `{"result": <last answer>}`, with `keep: all` every step's too: the answers' JSON texts put
 * together as they are, never parsed and written again; once any answer is bytes (a long one, or
 * one from the pool), as parts around those bytes, so they are neither decoded and encoded again
 * nor copied.
 */
function outcome(plan: RecipePlan, answers: readonly Answer[]): Answer {
  const parts: (string | Answer)[] = ['{"result":', answers[answers.length - 1]!];
  if (plan.keep === 'all') {
    parts.push(',"steps":[');
    answers.forEach((answer, index) => parts.push(`${index === 0 ? '' : ','}{"operation":${JSON.stringify(plan.steps[index]!.operation.name)},"answer":`, answer, '}'));
    parts.push(']');
  }
  parts.push('}');
  if (answers.every((answer) => answer.parts === undefined && typeof answer.body === 'string')) return answerOf(parts.map((part) => (typeof part === 'string' ? part : answerText(part))).join(''), Number.POSITIVE_INFINITY);
  return answerOfParts(parts.flatMap((part): readonly (string | Uint8Array)[] => (typeof part === 'string' ? [part] : (part.parts ?? [part.body]))));
}

/** Runs an already checked plan (identify runs its own recipes this way). */
export async function runPlan(executor: Executor, plan: RecipePlan, options: RecipeRunOptions = {}): Promise<Answer> {
  return outcome(plan, await runSteps(executor, plan, options));
}

/**
 * Runs an already checked plan and answers the answers the recipe keeps, in step order: the last
 * step's, and with `keep: all` every step's (a saved recipe answers the last).
 */
export async function runSteps(executor: Executor, plan: RecipePlan, options: RecipeRunOptions = {}): Promise<Answer[]> {
  const now = options.now ?? (() => performance.now());
  const deadlineMs = options.deadlineMs ?? DEFAULT_RECIPE_DEADLINE_MS;
  const deadline = now() + deadlineMs;
  const readers = lastReaders(plan);
  const kept: (Kept | undefined)[] = [];
  const json = options.json ?? jsonHere;
  const slice = eventLoopSlice(now);
  for (const [index, step] of plan.steps.entries()) {
    if (slice.spent()) await slice.turn();
    const remaining = deadline - now();
    if (remaining <= 0 || options.caller?.left() === true) throw recipeTimeout(index, deadlineMs);
    const bytes = step.built ?? (await json.body(step.operation, await bodyOf(step, index, plan.input, kept, json)));
    if (bytes.byteLength > MAX_STEP_BODY_BYTES) {
      throw new ToolshedError(413, 'payload_too_large', `Step ${index} (${step.operation.name}) would get a body of ${bytes.byteLength} bytes, over the ${MAX_STEP_BODY_BYTES}-byte cap`, [
        { path: `/steps/${index}`, message: `its body is larger than ${MAX_STEP_BODY_BYTES} bytes` },
      ]);
    }
    // What earlier answers this step read is in its body now: those it read last go before it runs.
    dropReadBy(index, readers, kept, options.held);
    // The body is held while the step runs, like an answer.
    const body: Answer = { body: bytes, bytes: bytes.byteLength };
    let answer: Answer;
    try {
      options.held?.hold(body);
      // An answer nobody reads or keeps is checked and held to the cap, never written.
      answer = await executor.run({ operation: step.operation, bytes, caller: options.caller, requestId: options.requestId, deadlineMs: remaining, unread: readers[index] === index });
      options.held?.drop(body);
      options.held?.hold(answer);
    } catch (error) {
      if (isToolshedError(error)) throw stepFailure(error, index, step);
      throw error;
    }
    kept.push({ answer, operation: step.operation });
    // Nobody reads it and nobody keeps it: it goes at once.
    if (readers[index] === index) dropReadBy(index, readers, kept, options.held);
  }
  return kept.filter((entry): entry is Kept => entry !== undefined).map((entry) => entry.answer);
}

/**
 * Checks `body` (a recipe request as parsed JSON) and runs it. Rejects with the SDK's ToolshedError:
 * 400 for a recipe that does not fit its operations, else the failing step's own status and code.
 */
export async function runRecipe(executor: Executor, body: unknown, options: RecipeRunOptions = {}): Promise<Answer> {
  return runPlan(executor, checkRecipe(executor, body), options);
}
