/**
 * The worker side of discovering a third-party plugin (kernel/host/manifest-probe.ts): this thread, not
 * the main one, imports the plugin's module, so whatever the module does when it is imported
 * (patching a global, reading the environment) happens here and ends with this thread. The manifest
 * is checked with the SDK's rules here and posted back as data, its functions left out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkPlugin, SDK_VERSION } from '@toolshed/plugin-sdk';
import { withoutFunctions } from './manifest-data.js';

/** What the probe posts back: the manifest as data, the check's problems, or why the import failed. */
export type ProbeAnswer =
  | { readonly kind: 'manifest'; readonly manifest: unknown }
  | { readonly kind: 'problems'; readonly problems: readonly string[] }
  | { readonly kind: 'import-failed'; readonly message: string; readonly code?: string };

async function probe(specifier: string): Promise<ProbeAnswer> {
  let module: { default?: unknown };
  try {
    module = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    return { kind: 'import-failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
  }
  // A third party's body schemas must bound every string and array (docs/writing-a-plugin.md).
  const problems = checkPlugin(module.default, SDK_VERSION, { requireBounds: true });
  if (problems.length > 0) return { kind: 'problems', problems };
  return { kind: 'manifest', manifest: withoutFunctions(module.default) };
}

const { specifier } = workerData as { specifier: string };
const answer = await probe(specifier);
try {
  parentPort?.postMessage(answer);
} catch (error) {
  // Left after the functions are gone: a symbol, a class instance of the host's, a shared buffer.
  parentPort?.postMessage({ kind: 'problems', problems: [`the manifest cannot be copied as data: ${(error as Error).message}`] } satisfies ProbeAnswer);
}
