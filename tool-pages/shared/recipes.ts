/**
 * Recipes as the pages see them (issue 40): which operation may follow which (by the manifests'
 * main fields, the document's `x-io`), the recipe carried in an address's fragment, and identify's
 * candidates turned into links. Pure, so it is tested in Node (test/tool-pages-model.test.ts); the
 * browser script and the server-rendered pages both use it.
 */
import { isRecord, type Json, type Schema } from './schema.js';

/** An operation's main fields (its manifest's `io`): what a recipe fills, and what it hands on. */
export interface Io {
  readonly input?: string;
  readonly output?: string;
}

export interface RecipeStep {
  /** `group/operation`. */
  readonly operation: string;
  readonly body?: Record<string, Json>;
}

/** A recipe as the recipe page holds it and `/v1/recipes/run` takes it (`keep` aside). */
export interface Recipe {
  readonly input?: Json;
  readonly steps: readonly RecipeStep[];
}

const ALL_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'];

/**
 * The JSON types a value of `schema` may have (`integer` counts as `number`); all of them when it
 * does not say. The same reading as the recipe check's (recipes/pointer.ts), so a step offered
 * here passes that check.
 */
export function valueTypes(schema: Schema | undefined): Set<string> {
  if (schema === undefined) return new Set(ALL_TYPES);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return new Set(alternatives.flatMap((branch) => [...valueTypes(branch)]));
  const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (schema.const !== undefined) return new Set([typeName(schema.const)]);
  if (schema.enum) return new Set(schema.enum.map(typeName));
  if (schema.type === undefined) return new Set(ALL_TYPES);
  return new Set([schema.type].flat().map((type) => (type === 'integer' ? 'number' : type)));
}

/** True when an answer's main output (`output`, in the answer schema) may be a step's main input (`input`, in its body schema). */
export function fits(answer: Schema, output: string | undefined, body: Schema, input: string | undefined): boolean {
  if (output === undefined || input === undefined) return false;
  const given = answer.properties?.[output];
  const wanted = body.properties?.[input];
  if (given === undefined || wanted === undefined) return false;
  const accepted = valueTypes(wanted);
  return [...valueTypes(given)].some((type) => accepted.has(type));
}

/** The address fragment of a recipe: `#recipe=<JSON, percent-encoded>`; the browser never sends it to the server. */
export const recipeFragment = (recipe: Recipe): string => `#recipe=${encodeURIComponent(JSON.stringify(recipe))}`;

/** The recipe a fragment carries, or undefined when it carries none or one of the wrong shape. */
export function recipeFromFragment(hash: string): Recipe | undefined {
  const match = /^#recipe=(.*)$/s.exec(hash);
  if (!match) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decodeURIComponent(match[1]!));
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !Array.isArray(value.steps)) return undefined;
  const steps = value.steps.filter(isRecord).flatMap((step): RecipeStep[] => {
    if (typeof step.operation !== 'string') return [];
    return [isRecord(step.body) ? { operation: step.operation, body: step.body } : { operation: step.operation }];
  });
  return 'input' in value ? { input: value.input as Json, steps } : { steps };
}

/** The recipe page's address for `recipe`. */
export const recipeAddress = (recipe: Recipe): string => `/tools/recipes/run${recipeFragment(recipe)}`;

/**
 * "Send this answer to…": the recipe of this run (`operation` on `body`, its main input as the
 * recipe's input) followed by `next`, which default wiring feeds with this answer's main output.
 */
export function sendTo(operation: string, io: Io | undefined, body: Json, next: string): Recipe {
  const fields: Record<string, Json> = isRecord(body) ? { ...body } : {};
  const input = io?.input;
  if (input === undefined || !(input in fields)) return { steps: [{ operation, body: fields }, { operation: next }] };
  const value = fields[input]!;
  delete fields[input];
  const first = Object.keys(fields).length === 0 ? { operation } : { operation, body: fields };
  return { input: value, steps: [first, { operation: next }] };
}

/** `value` with every `{"$from": "/input"}` replaced by `input`; undefined when it points anywhere else (an earlier step). */
function withInput(value: Json, input: string): Json | undefined {
  if (Array.isArray(value)) {
    const items = value.map((item) => withInput(item, input));
    return items.includes(undefined) ? undefined : (items as Json[]);
  }
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$from') return value.$from === '/input' ? input : undefined;
  const entries = Object.entries(value).map(([key, inner]) => [key, withInput(inner, input)] as const);
  return entries.some(([, inner]) => inner === undefined) ? undefined : (Object.fromEntries(entries) as Json);
}

/** An operation as identify's links need it: its page and its main input field. */
export interface LinkTarget {
  readonly page: string;
  readonly input?: string;
}

/**
 * Where an identify candidate opens: a one-step recipe on its tool's page, filled (`#input=…`);
 * anything longer, or a step the page cannot fill, on the recipe page with the recipe and input.
 */
export function candidateLink(steps: readonly RecipeStep[], input: string, targets: Readonly<Record<string, LinkTarget>>): string {
  const only = steps.length === 1 ? steps[0]! : undefined;
  const target = only === undefined ? undefined : targets[only.operation];
  if (only !== undefined && target !== undefined) {
    const body = withInput(only.body ?? {}, input);
    if (isRecord(body)) {
      const filled = target.input !== undefined && !(target.input in body) ? { ...body, [target.input]: input } : body;
      return `${target.page}#input=${encodeURIComponent(JSON.stringify(filled))}`;
    }
  }
  return recipeAddress({ input, steps });
}

/** A confidence from 0 to 1 in words a person reads, with the figure. */
export function confidenceWords(confidence: number): string {
  const percent = Math.round(confidence * 100);
  const words = confidence >= 0.9 ? 'Almost certainly' : confidence >= 0.7 ? 'Probably' : confidence > 0.5 ? 'Maybe' : 'Unlikely';
  return `${words} (${percent} % sure)`;
}
