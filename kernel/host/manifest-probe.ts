/**
 * Reads a third-party plugin's manifest without running any of its code on this thread: a fresh
 * worker thread of its own, with an empty environment and a heap cap, imports the module and posts
 * the manifest back as data (kernel/host/probe-entry.ts). The thread ends with the answer, taking the
 * module's import-time side effects with it. The main thread checks the data again with its own
 * copy of the SDK's rules: the worker ran the plugin's code before its check, so its word is not
 * enough.
 */
import { Worker } from 'node:worker_threads';
import { checkPlugin, SDK_VERSION } from '@toolshed/plugin-sdk';
import { asCheckable, type ManifestData } from './manifest-data.js';
import type { ProbeAnswer } from './probe-entry.js';

const entry = new URL('./probe-entry.js', import.meta.url);
/** How long a module may take to load; past it the start stops naming the plugin (a loop at import ends here). */
export const PROBE_TIMEOUT_MS = 30_000;
/** The probe's heap cap (the pool's default per worker). */
const PROBE_MEMORY_MB = 256;

/** Why a probe gave no manifest: the check's problems, or the failed import's message and code. */
export class ProbeRefusal extends Error {
  constructor(
    readonly problems: readonly string[],
    readonly code?: string,
  ) {
    super(problems.join('; '));
    this.name = 'ProbeRefusal';
  }
}

function answerOf(specifier: string): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: { specifier }, env: {}, resourceLimits: { maxOldGenerationSizeMb: PROBE_MEMORY_MB } });
    let answered = false;
    const timer = setTimeout(() => {
      reject(new ProbeRefusal([`its module did not finish loading within ${PROBE_TIMEOUT_MS / 1000} s`]));
      void worker.terminate();
    }, PROBE_TIMEOUT_MS);
    worker.once('message', (answer: ProbeAnswer) => {
      answered = true;
      clearTimeout(timer);
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', (error: Error) => {
      clearTimeout(timer);
      reject(new ProbeRefusal([`its module failed while loading: ${error.message}`]));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (!answered) reject(new ProbeRefusal([`its module stopped the thread loading it (exit code ${code})`]));
    });
  });
}

/**
 * The manifest of the plugin `specifier` names, as data, checked on both sides (bounds required:
 * it is a third party's). Rejects with a {@link ProbeRefusal} naming every problem.
 */
export async function probeManifest(specifier: string): Promise<ManifestData> {
  const answer = await answerOf(specifier);
  if (answer.kind === 'import-failed') throw new ProbeRefusal([answer.message], answer.code);
  if (answer.kind === 'problems') throw new ProbeRefusal(answer.problems);
  const problems = checkPlugin(asCheckable(answer.manifest), SDK_VERSION, { requireBounds: true });
  if (problems.length > 0) throw new ProbeRefusal(problems);
  return answer.manifest as ManifestData;
}
