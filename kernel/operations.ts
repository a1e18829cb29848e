/**
 * An operation as the host runs it: its contract (the SDK's schemas and checks) around its handler.
 * The same composition runs on the main thread and in pool workers (kernel/offload.ts).
 */
import { operationContract, type OperationContext, type OperationContract, type Plugin } from '@toolshed/plugin-sdk';
import type { ManifestData, OperationData } from './manifest-data.js';

/** An operation ready to run. */
export interface CompiledOperation extends OperationContract {
  /** Fills defaults, checks the body, runs the handler and checks its answer or its refusal. */
  run(body: unknown, context: OperationContext): Promise<unknown>;
}

/**
 * An operation's contract read from its manifest's data: all the main thread holds of a contained
 * plugin's operation. It has no `run`: the handler exists only in that plugin's own workers.
 */
export type OperationTerms = Omit<OperationContract, 'definition'> & { readonly definition: OperationData };

/** The contract of operation `name` of a manifest that may be data only. */
export function termsOf(plugin: ManifestData, name: string): OperationTerms {
  // operationContract reads the schemas and error codes, never the handler; the definition it keeps
  // is typed here as what it is, data.
  return operationContract(plugin as Plugin, name);
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
