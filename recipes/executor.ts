/** The executor as recipes and identify see it: the kernel's own interface, the one way every front door runs an operation. */
export type { Executor, OperationInfo, RunAnswer, RunRequest } from '../kernel/executor.js';
