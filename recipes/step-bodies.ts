/**
 * A step's body with its wires filled, and a large recipe's bodies written where it was checked.
 * Imports nothing of the host: the pool's recipe checks (pool-checks.ts) use it, and a worker then
 * loads only what they run.
 */
import { InputError } from '@toolshed/plugin-sdk';
import type { PlannedStep, RecipePlan } from './check.js';
import { formatPointer, valueAt } from './pointer.js';
import { MAX_STEP_BODY_BYTES } from './schemas.js';

/** Where in `{ input, steps }` a wire reads: a value, or `valueAt.NOTHING`. */
type ValueOf = (from: readonly string[]) => unknown;

/** The step's body with every wire filled by `valueOf`; its literal part untouched when nothing is wired. */
export function filledBody(step: PlannedStep, index: number, valueOf: ValueOf): Readonly<Record<string, unknown>> {
  if (step.wires.length === 0) return step.body;
  const body = structuredClone(step.body) as Record<string, unknown>;
  for (const wire of step.wires) {
    const value = valueOf(wire.from);
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

/** The value at `from` in the recipe's input (`from` starts with `input`). */
export const inputValue = (input: unknown, from: readonly string[]): unknown => valueAt(input, from.slice(1));

const readsInput = (step: PlannedStep): boolean => step.wires.some((wire) => wire.from[0] === 'input');

/**
 * The plan as a large recipe's check hands it to the main thread (recipes/pool-checks.ts, on the
 * pool): the body of every step that reads the input and nothing else written there, as bytes
 * (`built`), and the input itself left behind, so the main thread never holds a large input as a
 * value, nor sends it back to the pool to be written. The plan stays as it is when a step reads the
 * input beside an earlier answer, when a pointer finds nothing there (the run names the step), or
 * when the written bodies would together be over one step body's cap: they all exist from the
 * start, where the input they replace would have, so together they may be no larger than one
 * step's body.
 */
export function withBuiltBodies(plan: RecipePlan): RecipePlan {
  if (plan.steps.some((step) => readsInput(step) && step.wires.some((wire) => wire.from[0] !== 'input'))) return plan;
  const encoder = new TextEncoder();
  let total = 0;
  const steps: PlannedStep[] = [];
  for (const [index, step] of plan.steps.entries()) {
    if (!readsInput(step)) {
      steps.push(step);
      continue;
    }
    if (step.wires.some((wire) => wire.from[0] === 'input' && inputValue(plan.input, wire.from) === valueAt.NOTHING)) return plan;
    const body = filledBody(step, index, (from) => inputValue(plan.input, from));
    const built = encoder.encode(JSON.stringify(body));
    total += built.byteLength;
    if (total > MAX_STEP_BODY_BYTES) return plan;
    steps.push({ ...step, built });
  }
  return { ...plan, input: null, steps };
}
