/**
 * Checks a recipe before anything runs: every operation known, every `$from` pointing at a field
 * an earlier answer's schema has, with a type the target field takes, every literal value within
 * the step's schema. One 400 names every place (`/steps/1/body/token`).
 */
import { InputError, type ErrorDetail, type TSchema } from '@toolshed/plugin-sdk';
import { compileSchema, type SchemaValidator } from '@toolshed/plugin-sdk/contract';
import type { OperationCatalog, OperationInfo } from './executor.js';
import { PlanMemory, stepsKey } from './plan-memory.js';
import { formatPointer, isRecord, jsonTypes, parsePointer, pointerProblem, schemasAt, standIn } from './pointer.js';
import { RecipeRequest, type RecipeStep } from './schemas.js';

/** A value the runner puts into a step's body: the value at `from` in `{ input, steps }`. */
export interface Wire {
  /** Where in the body, as tokens. */
  readonly at: readonly string[];
  /** Where in `{ input, steps: [answers] }`, as tokens. */
  readonly from: readonly string[];
}

/** One checked step: the operation, the literal part of its body and what is wired into it. */
export interface PlannedStep {
  readonly operation: OperationInfo;
  readonly body: Readonly<Record<string, unknown>>;
  readonly wires: readonly Wire[];
  /** Its body already written, as UTF-8 JSON, where a large recipe was checked (recipes/step-bodies.ts `withBuiltBodies`). */
  readonly built?: Uint8Array;
}

/** A recipe that passed every check; `steps.length` is what it costs against a rate limit. */
export interface RecipePlan {
  readonly input: unknown;
  readonly hasInput: boolean;
  readonly keep: 'last' | 'all';
  readonly steps: readonly PlannedStep[];
}

/** The manifest's main fields of an operation, read from its definition as data. */
export function mainFields(operation: OperationInfo): { input?: string; output?: string } {
  const io = (operation.definition as { io?: unknown } | null)?.io;
  if (typeof io !== 'object' || io === null) return {};
  const { input, output } = io as { input?: unknown; output?: unknown };
  return { input: typeof input === 'string' ? input : undefined, output: typeof output === 'string' ? output : undefined };
}

function isReference(value: unknown): value is { $from: string } {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$from' && typeof (value as { $from: unknown }).$from === 'string';
}

/** Every `{"$from": …}` in `body`, with its place; walked without recursion, so depth costs no stack. */
function references(body: Record<string, unknown>): { at: string[]; pointer: string }[] {
  const found: { at: string[]; pointer: string }[] = [];
  const stack: { value: unknown; at: string[] }[] = Object.entries(body).map(([key, value]) => ({ value, at: [key] }));
  while (stack.length > 0) {
    const { value, at } = stack.pop()!;
    if (isReference(value)) found.push({ at, pointer: value.$from });
    else if (Array.isArray(value)) value.forEach((item, index) => stack.push({ value: item, at: [...at, String(index)] }));
    else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) stack.push({ value: item, at: [...at, key] });
  }
  return found;
}

/**
 * `body` with a stand-in at each wired place (`standIns[i]` at `wires[i].at`), for checking its
 * literal values alone: a rule across fields ("exactly one of text and dataBase64") then sees the
 * wired field present, and whatever is said of the wired places themselves is set aside.
 */
function withStandIns(body: Record<string, unknown>, wires: readonly Wire[], standIns: readonly unknown[]): Record<string, unknown> {
  const copy = structuredClone(body);
  wires.forEach(({ at }, index) => {
    let parent: unknown = copy;
    for (const token of at.slice(0, -1)) parent = (parent as Record<string, unknown> | undefined)?.[token];
    if (typeof parent !== 'object' || parent === null) return;
    (parent as Record<string, unknown>)[at[at.length - 1]!] = standIns[index];
  });
  return copy;
}

/** What is wrong with `wire` of step `index`, whose field there takes a value of `target`'s schemas. */
function wireProblem(plan: readonly (PlannedStep | undefined)[], index: number, wire: Wire, target: ReturnType<typeof schemasAt>, hasInput: boolean): string | undefined {
  const [root, position, ...rest] = wire.from;
  let source: ReturnType<typeof schemasAt>;
  if (root === 'input') {
    if (!hasInput) return 'points into the recipe\'s input, which the recipe does not give';
    source = [{}];
  } else if (root === 'steps' && position !== undefined && /^(?:0|[1-9]\d*)$/.test(position)) {
    const from = Number(position);
    if (from >= index) return `points at step ${from}, which does not run before step ${index}`;
    const earlier = plan[from];
    if (earlier === undefined) return undefined; // That step's own problem is reported.
    source = schemasAt(earlier.operation.responseSchema, rest);
    if (source.length === 0) return `points at ${formatPointer(rest)}, which the answer of step ${from} (${earlier.operation.name}) does not have`;
  } else return 'must point into /input or /steps/<earlier step>';
  if (target.length === 0) return `is not a field of ${plan[index]!.operation.name}'s body`;
  const wanted = jsonTypes(target);
  const given = jsonTypes(source);
  if (![...given].some((type) => wanted.has(type))) {
    return `takes ${[...wanted].join(' or ')}, but ${formatPointer(wire.from)} is ${[...given].join(' or ')}`;
  }
  return undefined;
}

/** The wires of step `index`: its `$from`s, and the default wire into its main input. */
function wiresOf(executorStep: OperationInfo, body: Record<string, unknown>, index: number, previous: PlannedStep | undefined, hasInput: boolean, details: ErrorDetail[]): Wire[] {
  const wires: Wire[] = [];
  for (const { at, pointer } of references(body)) {
    const problem = pointerProblem(pointer);
    if (problem !== undefined) details.push({ path: `/steps/${index}/body${formatPointer(at)}`, message: problem });
    else wires.push({ at, from: parsePointer(pointer)! });
  }
  const { input } = mainFields(executorStep);
  if (input === undefined || Object.hasOwn(body, input)) return wires;
  if (index === 0) {
    if (hasInput) wires.push({ at: [input], from: ['input'] });
  } else if (previous !== undefined) {
    const output = mainFields(previous.operation).output;
    if (output === undefined) {
      details.push({ path: `/steps/${index}/body/${input}`, message: `${previous.operation.name} declares no main output to hand on; set this field or wire it with $from` });
    } else wires.push({ at: [input], from: ['steps', String(index - 1), output] });
  }
  return wires;
}

/** Each schema compiled once: compiling is code generation, far dearer than a check. */
const validators = new WeakMap<object, SchemaValidator>();
function validatorOf(schema: TSchema): SchemaValidator {
  let validator = validators.get(schema);
  if (validator === undefined) validators.set(schema, (validator = compileSchema(schema)));
  return validator;
}

/** The checked steps of recipes run lately, per catalog of operations (plan-memory.ts). */
const checkedSteps = new WeakMap<OperationCatalog, PlanMemory<readonly PlannedStep[]>>();

/** Checks `request` against the operations of `executor`; throws the SDK's 400 InputError naming every problem. */
export function checkRecipe(executor: OperationCatalog, request: unknown): RecipePlan {
  const validator = validatorOf(RecipeRequest);
  // Only the top level of a recipe has a default (`keep`): a copy of it keeps the caller's object
  // (identify's candidates, a saved recipe) as it was, without copying the input and every body.
  const candidate = validator.withDefaults(isRecord(request) ? { ...request } : request) as RecipeRequest;
  const shapeProblems = validator.problems(candidate);
  if (shapeProblems.length > 0) throw new InputError('The recipe is not valid', shapeProblems);
  const hasInput = Object.hasOwn(candidate, 'input');
  let memory = checkedSteps.get(executor);
  if (memory === undefined) checkedSteps.set(executor, (memory = new PlanMemory()));
  const key = stepsKey(candidate.steps, hasInput);
  const known = key === undefined ? undefined : memory.get(key);
  if (known !== undefined) return { input: candidate.input, hasInput, keep: candidate.keep, steps: known };
  const steps = checkSteps(executor, candidate.steps, hasInput);
  if (key !== undefined) memory.set(key, steps);
  return { input: candidate.input, hasInput, keep: candidate.keep, steps };
}

/** Every step of a recipe of a valid shape, checked against its operation and the steps before it. */
function checkSteps(executor: OperationCatalog, steps: readonly RecipeStep[], hasInput: boolean): readonly PlannedStep[] {
  const details: ErrorDetail[] = [];
  const plan: (PlannedStep | undefined)[] = [];
  steps.forEach((step, index) => {
    const operation = executor.find(step.operation);
    if (operation === undefined) {
      const near = executor.nearest(step.operation);
      details.push({ path: `/steps/${index}/operation`, message: `is not an operation${near === undefined ? '' : `; did you mean "${near}"?`}` });
      plan.push(undefined);
      return;
    }
    const body = step.body ?? {};
    const wires = wiresOf(operation, body, index, plan[index - 1], hasInput, details);
    const planned: PlannedStep = { operation, body, wires };
    plan.push(planned);
    const standIns = wires.map((wire) => {
      const target = schemasAt(operation.requestSchema, wire.at);
      const problem = wireProblem(plan, index, wire, target, hasInput);
      if (problem !== undefined) details.push({ path: `/steps/${index}/body${formatPointer(wire.at)}`, message: problem });
      return standIn(target);
    });
    const schema = validatorOf(operation.requestSchema as TSchema);
    const literal = schema.withDefaults(withStandIns(body, wires, standIns));
    const wired = wires.map((wire) => formatPointer(wire.at));
    for (const problem of schema.problems(literal)) {
      if (wired.some((at) => problem.path === at || problem.path.startsWith(`${at}/`))) continue;
      const path = `/steps/${index}/body${problem.path}`;
      if (!details.some((detail) => detail.path === path)) details.push({ path, message: problem.message });
    }
  });
  if (details.length > 0) throw new InputError('The recipe does not fit its operations', details.slice(0, 100));
  return plan as PlannedStep[];
}
