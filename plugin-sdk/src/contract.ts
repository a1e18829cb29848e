/**
 * @toolshed/plugin-sdk/contract: what the host (kernel/host/) and the doors that read manifests
 * (recipes/) compose plugins with, and `invoke()` too: an operation's contract and its one
 * composition (accept → handler → refusal → answer), a plugin's configuration, the validation
 * engine and the manifest check. A plugin never imports it (.dependency-cruiser.mjs).
 */
export { operationContract, resolvePluginConfig, type OperationContract } from './operation.js';
export { compileSchema, MAX_ERROR_DETAILS, type SchemaValidator } from './validation.js';
export { checkPlugin } from './define.js';
export { checkFan, MAX_CHECK_FAN } from './check-cost.js';
export { ContractBreach, contractFaultOf, type ContractFault } from './errors.js';
export { RECOGNIZER_SAMPLE_CHARS } from './recognizers.js';
export { LinearRegExp } from './linear-regexp.js';
