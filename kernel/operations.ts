/**
 * An operation as the host runs it: its contract (the SDK's schemas and checks) around its handler.
 * The same composition runs on the main thread and in pool workers (kernel/offload.ts).
 */
import { operationContract, type OperationContext, type OperationContract, type Plugin } from '@toolshed/plugin-sdk';

/** An operation ready to run. */
export interface CompiledOperation extends OperationContract {
  /** Fills defaults, checks the body, runs the handler and checks its answer or its refusal. */
  run(body: unknown, context: OperationContext): Promise<unknown>;
}

/** Compiles `plugin`'s operation `name`. */
export function compileOperation(plugin: Plugin, name: string): CompiledOperation {
  const contract = operationContract(plugin, name);
  const handler = contract.definition.handler;
  return {
    ...contract,
    async run(body, context) {
      const input = contract.accept(body);
      let result: unknown;
      try {
        result = await handler(input, context);
      } catch (error) {
        throw contract.refusal(error);
      }
      return contract.answer(result);
    },
  };
}

/** Compiles every operation of `plugin`. */
export function compilePlugin(plugin: Plugin): CompiledOperation[] {
  return Object.keys(plugin.operations).map((name) => compileOperation(plugin, name));
}
