/**
 * @toolshed/plugin-sdk: everything a Toolshed plugin needs, and the only module it imports from
 * Toolshed. See docs/writing-a-plugin.md.
 */
export { Type } from './typebox.js';
export type { Static, TSchema, TObject } from 'typebox';
export { SDK_VERSION } from './version.js';
export {
  definePlugin,
  defineOperation,
  checkPlugin,
  PLUGIN_CATEGORIES,
  type PluginCategory,
  type PluginCheckOptions,
  type NoExtraFields,
  type ExactHandler,
  type Plugin,
  type PluginDefinition,
  type PluginConfigDefinition,
  type OperationDefinition,
  type OperationContext,
  type OperationExample,
} from './define.js';
export { RECOGNIZER_SAMPLE_CHARS, MAX_RECOGNIZERS, type OperationIo, type Recognizer } from './recognizers.js';
export {
  ToolshedError,
  InputError,
  UnprocessableError,
  UpstreamError,
  UpstreamTimeoutError,
  ServerBusyError,
  ContractBreach,
  contractFaultOf,
  type ContractFault,
  isToolshedError,
  type ErrorDetail,
} from './errors.js';
export { operationContract, resolvePluginConfig, type OperationContract } from './operation.js';
export { compileSchema, describeErrors, MAX_ERROR_DETAILS, type SchemaValidator } from './validation.js';
export { invoke, type InvokeOptions } from './invoke.js';
export { roundDecimal } from './rounding.js';
export { CALENDAR_DATE, TIME_OF_DAY, UTC_OFFSET } from './patterns.js';
export { LinearRegExp, PatternError, linearPatternProblem, type PatternMatcher } from './linear-regexp.js';
export { rejectsWith, rejectsField, HANG_GUARD_MS } from './testing.js';
export { startTestKernel, type TestKernel, type TestAnswer, type KernelFixture, type KernelFixtureOptions } from './harness.js';
export {
  workerRefusal,
  isWorkerJobError,
  WorkerJobError,
  type RunInWorker,
  type WorkerFailure,
  type RunInWorkerOptions,
  type WorkerRefusals,
} from './worker-errors.js';
