/**
 * @toolshed/plugin-sdk: what a plugin's source imports, and the only module it imports from
 * Toolshed. Its tests add `@toolshed/plugin-sdk/testing`; the host reads plugins through
 * `@toolshed/plugin-sdk/contract`, which a plugin never imports (.dependency-cruiser.mjs). See
 * docs/writing-a-plugin.md.
 */
export { Type } from './typebox.js';
export type { Static, TSchema } from 'typebox';
export { SDK_VERSION } from './version.js';
export {
  definePlugin,
  defineOperation,
  PLUGIN_CATEGORIES,
  SUPERLINEAR_OFFLOAD_BYTES,
  type Plugin,
  type OperationDefinition,
  type OperationContext,
  type OperationExample,
} from './define.js';
export {
  ToolshedError,
  InputError,
  UnprocessableError,
  UpstreamError,
  UpstreamTimeoutError,
  ServerBusyError,
  isToolshedError,
  type ErrorDetail,
} from './errors.js';
export { roundDecimal } from './rounding.js';
export { readCapped } from './capped-body.js';
export { CALENDAR_DATE, TIME_OF_DAY, UTC_OFFSET } from './patterns.js';
export {
  workerRefusal,
  isWorkerJobError,
  WorkerJobError,
  type RunInWorker,
  type RunInWorkerOptions,
  type WorkerFailure,
} from './worker-errors.js';
