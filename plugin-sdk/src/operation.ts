/**
 * Turns a manifest into runnable operations: schemas compiled once, defaults filled, input checked,
 * handler called, its answer checked against the response schema, and a 422 with an undeclared
 * code or an answer outside the schema treated as the bug it is (ContractBreach, a 500). The kernel serves
 * these over HTTP; `invoke()` runs the very same pipeline in unit tests.
 */
import type { TSchema } from 'typebox';
import type { OperationContext, OperationDefinition, Plugin } from './define.js';
import { ContractBreach, InputError, isToolshedError } from './errors.js';
import { toWireSchema } from './schema-rules.js';
import { compileSchema, type SchemaValidator } from './validation.js';

/** An operation ready to serve. */
export interface CompiledOperation {
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
  /** Validates `body` (a fresh object from JSON.parse; defaults are filled in place) and runs the handler. */
  run(body: unknown, context: OperationContext): Promise<unknown>;
  /** Every way `response` breaks the response schema; used by tests, not on the hot path. */
  responseProblems(response: unknown): ReturnType<SchemaValidator['problems']>;
}

/** Compiles one operation of `plugin`. */
export function compileOperation(plugin: Plugin, name: string): CompiledOperation {
  const definition = plugin.operations[name];
  if (definition === undefined) throw new Error(`${plugin.group} has no operation "${name}"`);
  const id = `${plugin.group}.${name}`;
  const body = compileSchema(definition.body);
  const response = compileSchema(definition.response);
  // The codes this operation may throw: its own list, or every code of the plugin.
  const declared = new Set(definition.errors ?? Object.keys(plugin.errors ?? {}));
  return {
    id,
    group: plugin.group,
    name,
    definition,
    requestSchema: toWireSchema(definition.body),
    responseSchema: definition.response,
    async run(input, context) {
      const filled = body.withDefaults(input);
      if (!body.check(filled)) throw new InputError('The request body does not match the schema', body.problems(filled));
      let result: unknown;
      try {
        result = await definition.handler(filled, context);
      } catch (error) {
        if (isToolshedError(error) && error.status === 422 && !declared.has(error.code)) {
          // A bug in the plugin, not in the request: let the kernel answer 500 and log it.
          throw new ContractBreach({ operation: id, undeclaredCode: error.code });
        }
        throw error;
      }
      // An answer outside its schema (a field too many, a wrong type) is never sent as it is.
      if (!response.check(result)) throw new ContractBreach({ operation: id, pointers: response.problems(result).slice(0, 10).map((problem) => problem.path) });
      return result;
    },
    responseProblems: (value) => response.problems(value),
  };
}

/** Compiles every operation of `plugin`. */
export function compilePlugin(plugin: Plugin): CompiledOperation[] {
  return Object.keys(plugin.operations).map((name) => compileOperation(plugin, name));
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
