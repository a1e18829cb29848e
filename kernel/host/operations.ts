/**
 * An operation as the host runs it: the SDK's contract, whose `run` composes body check, handler,
 * refusal and answer check — the same composition `invoke()` runs in a plugin's unit tests. It runs
 * on the main thread and in pool workers (kernel/host/offload.ts).
 */
import { operationContract, type OperationContract, type Plugin } from '@toolshed/plugin-sdk';
import type { ManifestData, OperationData } from './manifest-data.js';

/** An operation ready to run. */
export type CompiledOperation = OperationContract;

/**
 * An operation's contract read from its manifest's data: all the main thread holds of a contained
 * plugin's operation. It has no `run`: the handler exists only in that plugin's own workers.
 */
export type OperationTerms = Omit<OperationContract, 'definition' | 'run'> & { readonly definition: OperationData };

/** The contract of operation `name` of a manifest that may be data only. */
export function termsOf(plugin: ManifestData, name: string): OperationTerms {
  // operationContract reads the schemas and error codes, never the handler; the definition it keeps
  // is typed here as what it is, data.
  return operationContract(plugin as Plugin, name);
}

/** Compiles `plugin`'s operation `name`. */
export const compileOperation = (plugin: Plugin, name: string): CompiledOperation => operationContract(plugin, name);
