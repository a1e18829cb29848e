/**
 * The host's one entry module: everything a door (HTTP, MCP, the CLI, the recipes) and the
 * composition root may use of it, and nothing else — the layer rule (.dependency-cruiser.mjs)
 * refuses an import of any other file under kernel/host/ from outside it. The host knows no
 * transport: refusals are the SDK's typed errors, which each door maps.
 */

/** The API's version, as the contract labels it. */
export const API_VERSION = '1.0.0';

export { parseAddressRange, type AddressRange } from './address-ranges.js';
export { answerOf, answerOfParts, answerText, answerValue, answerTooLarge, LONG_ANSWER_CHARS, type Answer } from './answer.js';
export { ByteBudget } from './byte-budget.js';
export type { HostExtensions } from './composite.js';
export { jsonHere } from './composite-json.js';
export {
  checkCoreConfig,
  ConfigError,
  coreSections,
  defaultsFile,
  loadConfig,
  mergeConfig,
  readConfig,
  validateCoreConfig,
  withSuggestions,
  type Config,
} from './config.js';
export { builtinPluginDir, discoverPlugins, installedPackageJson, loadPlugin, PluginLoadError, type LoadedPlugin } from './discover.js';
export type { Caller } from './caller.js';
export type { HeldAnswers } from './held-answers.js';
export { catalogOf } from './catalog.js';
export type { CompositeJson, CompositeOperation, CompositeRequest, Executor, OperationCatalog, OperationInfo, RunRequest } from './executor-types.js';
export { listingExecutor, openHost, type Host, type HostOptions } from './host.js';
export { inspectConfig, loadForServing, type Inspection } from './inspect-config.js';
export { bufferOf, byteLengthOf, BODY_LIMIT, EMPTY_BODY_MESSAGE, joinedBytes, MAX_BODY_DEPTH, MAX_BODY_MEMBERS, parseJsonObject, type BodyBytes } from './body.js';
export { BYTES_PER_PIECE, FREE_PIECES, tooManyPieces } from './pieces.js';
export { LogDestination } from './log-destination.js';
export { createLogger, describeFailure, flushPeriodically, flushThenExit, logFailure, type Logger } from './logger.js';
export { didYouMean, nearest } from './nearest.js';
export { editDistance, groupOfName, MAX_COMPARED_LENGTH, nearestOperation } from './operation-names.js';
export { WorkerPool, type WorkerPoolStats } from './pool/worker-pool.js';
export type { ShareStats as PluginShareStats } from './plugin-process/plugin-share.js';
export { budgetSpent, errorObject, payloadTooLarge, unknownOperation, type ErrorObject } from './refusals.js';
export { buildRegistry, type Registry } from './registry.js';
export { Roster, type RosterMember } from './roster.js';
export { parse as parseYaml, stringify as stringifyYaml } from './vendor/yaml.js';
export type { EventLoopWatchdog } from './watchdog.js';
