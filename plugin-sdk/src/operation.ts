/**
 * The contract of one operation, as both sides read it: what a body must be (defaults filled, then
 * checked), what the handler may refuse with (its declared 422 codes), and what its answer must be
 * (the response schema). A 422 with an undeclared code or an answer outside the schema is the bug
 * it is (ContractBreach, a 500). The host composes these around the handler where it runs the
 * operation; `invoke()` composes them the same way in unit tests.
 */
import type { TSchema } from 'typebox';
import type { OperationContext, OperationDefinition, Plugin } from './define.js';
import { ContractBreach, InputError, isToolshedError, type ErrorDetail } from './errors.js';
import { toWireSchema } from './schema-rules.js';
import { compileOnUse, compileSchema, UNKNOWN_PROPERTY, type SchemaValidator } from './validation.js';

/** One operation's contract, its schemas compiled once. */
export interface OperationContract {
  /** `<group>.<operation>`. */
  readonly id: string;
  readonly group: string;
  readonly name: string;
  /** The definition as the plugin wrote it. */
  readonly definition: OperationDefinition;
  /** The request schema as a client sees it (defaulted fields optional). */
  readonly requestSchema: TSchema;
  /** The response schema. */
  readonly responseSchema: TSchema;
  /** `input` (a fresh object from JSON.parse) with its defaults filled in place; InputError (400, with details) when it breaks the body schema. */
  accept(input: unknown): Record<string, unknown>;
  /**
   * {@link accept} without saying why: `input` with its defaults filled when it meets the body
   * schema, else undefined. Describing a broken body costs far more than checking it (each
   * branch of a union is described), so a host may do that part elsewhere.
   */
  acceptedOrNot(input: unknown): Record<string, unknown> | undefined;
  /** Whether `result` meets the response schema, without saying why not (see {@link acceptedOrNot}). */
  answerFits(result: unknown): boolean;
  /** What to throw for `error`, thrown by the handler: a 422 with an undeclared code becomes a ContractBreach. */
  refusal(error: unknown): unknown;
  /** `result` when it meets the response schema; else a ContractBreach naming the pointers (never the values). */
  answer(result: unknown): unknown;
  /**
   * The whole composition, where the host runs an operation and where `invoke()` does: `accept`
   * the body, call the handler, turn what it throws into its `refusal`, check its `answer`.
   */
  run(input: unknown, context: OperationContext): Promise<unknown>;
  /** Every way `response` breaks the response schema; used by tests, not on the hot path. */
  responseProblems(response: unknown): ReturnType<SchemaValidator['problems']>;
}

/**
 * One way an answer breaks its response schema, for the plugin's author and the log: the pointer
 * and the rule, never the value (`uniqueItems` would quote the repeated item).
 */
function breachAt({ path, message }: ErrorDetail): string {
  // The names the schema allows are the plugin's own: the breach says only which one is extra.
  if (message.startsWith(UNKNOWN_PROPERTY)) return `${path || '/'}: not declared in the response schema`;
  if (message.startsWith('repeats ')) return `${path || '/'}: repeats an earlier item`;
  return `${path || '/'}: ${message}`;
}

/** The contract of `plugin`'s operation `name`. */
export function operationContract(plugin: Plugin, name: string): OperationContract {
  const definition = plugin.operations[name];
  if (definition === undefined) throw new Error(`${plugin.group} has no operation "${name}"`);
  const id = `${plugin.group}.${name}`;
  const body = compileOnUse(definition.body);
  const response = compileOnUse(definition.response);
  // The codes this operation may throw: its own list, or every code of the plugin.
  const declared = new Set(definition.errors ?? Object.keys(plugin.errors ?? {}));
  // Called as a function, not a method of the definition: a stack then names the handler as its author wrote it.
  const handler = definition.handler;
  const contract: OperationContract = {
    id,
    group: plugin.group,
    name,
    definition,
    requestSchema: toWireSchema(definition.body),
    responseSchema: definition.response,
    accept(input) {
      const filled = body.withDefaults(input);
      if (!body.check(filled)) throw new InputError('The request body does not match the schema', body.problems(filled));
      return filled as Record<string, unknown>;
    },
    acceptedOrNot(input) {
      const filled = body.withDefaults(input);
      return body.check(filled) ? (filled as Record<string, unknown>) : undefined;
    },
    answerFits: (result) => response.check(result),
    refusal(error) {
      // A bug in the plugin, not in the request: the host answers 500 and logs it.
      if (isToolshedError(error) && error.status === 422 && !declared.has(error.code)) return new ContractBreach({ operation: id, undeclaredCode: error.code });
      return error;
    },
    answer(result) {
      // An answer outside its schema (a field too many, a wrong type) is never sent as it is.
      if (!response.check(result)) {
        const broken = response.problems(result).slice(0, 10);
        throw new ContractBreach({ operation: id, pointers: broken.map((problem) => problem.path), problems: broken.map(breachAt) });
      }
      return result;
    },
    async run(input, context) {
      const accepted = contract.accept(input);
      let result: unknown;
      try {
        result = await handler(accepted, context);
      } catch (error) {
        throw contract.refusal(error);
      }
      return contract.answer(result);
    },
    responseProblems: (value) => response.problems(value),
  };
  return contract;
}

/** Validates a plugin's config section and fills its defaults; throws InputError naming every bad key. */
export function resolvePluginConfig(plugin: Plugin, section: unknown): unknown {
  if (plugin.config === undefined) return undefined;
  const validator = compileSchema(plugin.config.schema);
  const filled = validator.withDefaults(section ?? {});
  const problems = validator.problems(filled);
  if (problems.length > 0) throw new InputError(`Invalid configuration section "${plugin.config.section}"`, problems);
  return filled;
}
