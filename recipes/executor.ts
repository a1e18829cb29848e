/** The host as recipes and identify see it: its executor, the one way every front door runs an operation, and its answers. */
export {
  answerOf,
  answerText,
  answerValue,
  ConfigError,
  withSuggestions,
  type Answer,
  type Caller,
  type CompositeOperation,
  type CompositeRequest,
  type Config,
  type Executor,
  type HeldAnswers,
  type OperationCatalog,
  type OperationInfo,
  type RunRequest,
} from '../kernel/host/index.js';
