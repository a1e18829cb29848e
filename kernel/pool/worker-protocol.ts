import type { ContractFault } from '@toolshed/plugin-sdk';
/** The messages between the pool and its workers. */
import type { ErrorDetail } from '@toolshed/plugin-sdk';

/** One job: call `exportName` of the module at `module` (a file URL) with `args`. */
export interface WorkerRequest {
  readonly id: number;
  readonly module: string;
  readonly exportName: string;
  readonly args: readonly unknown[];
}

/** What a worker posts per job: `started` once its module is loaded, then the answer. */
export type WorkerMessage =
  | { readonly kind: 'started'; readonly id: number }
  | { readonly kind: 'result'; readonly id: number; readonly value: unknown }
  | { readonly kind: 'sdk-error'; readonly id: number; readonly error: { status: number; code: string; message: string; details?: ErrorDetail[] } }
  | { readonly kind: 'failed'; readonly id: number; readonly errorName: string; readonly frames?: readonly string[]; readonly fault?: ContractFault }
