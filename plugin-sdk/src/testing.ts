/**
 * @toolshed/plugin-sdk/testing: what a plugin's tests use. The host is handed in, never imported
 * by name: a test imports `toolshed/testing` itself and gives it to `startTestKernel`, and its
 * `runInWorker` to `invoke()` where a deadline must stop a synchronous loop.
 */
export { invoke, workerJobRecorder } from './invoke.js';
export { rejectsWith, rejectsField, HANG_GUARD_MS } from './assertions.js';
export { startTestKernel, type TestHost, type TestKernel, type KernelFixture, type KernelFixtureOptions } from './harness.js';
// A plugin's test checks its configuration section's defaults and bounds as the host resolves it.
export { resolvePluginConfig } from './operation.js';
