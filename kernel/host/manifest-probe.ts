/**
 * Reads a third-party plugin's manifest without running any of its code in the service: a process
 * of its own (plugin-process/child-entry.ts in `probe` mode), started as the plugin's processes are
 * (Node's permission model, another user id where the service runs as root), with an empty
 * environment and a heap cap, imports the module and sends the manifest back as data. The process
 * ends with the answer, taking the module's import-time side effects with it; an import that ends
 * the process (a SIGKILL, an exit) or never finishes costs only that process, and the start stops
 * naming the plugin. The service checks the data again with its own copy of the SDK's rules: the
 * process ran the plugin's code before its check, so its word is not enough.
 */
import { deserialize } from 'node:v8';
import { SDK_VERSION } from '@toolshed/plugin-sdk';
import { checkPlugin } from '@toolshed/plugin-sdk/contract';
import { asCheckable, type ManifestData } from './manifest-data.js';
import type { Frame } from './plugin-process/frames.js';
import { launchOf, type UserSetting } from './plugin-process/launch.js';
import { PluginProcess, WATCH_MS, type EndCause } from './plugin-process/plugin-process.js';
import { describeEnd } from './plugin-process/refusals.js';

/** How long a module may take to load; past it the start stops naming the plugin (a loop at import ends here). */
export const PROBE_TIMEOUT_MS = 30_000;
/** The probe's heap cap (a plugin process's default). */
const PROBE_MEMORY_MB = 256;
/**
 * The probe's resident-memory cap (a plugin process's default, `plugins.workers.rssMb`), watched as
 * a share's processes are: Buffers kept at import are outside the heap cap, and a red-team plugin's
 * import held 1.6 GB for 4 s before the serving process it later started was ended at 512 MiB.
 */
export const PROBE_RSS_MB = 512;
/** The largest manifest a probe may send. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

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

/** The probe's one message, or why there was none. */
function firstFrame(specifier: string, user: UserSetting): Promise<Frame> {
  return new Promise((resolve, reject) => {
    let answer: Frame | undefined;
    let launch: ReturnType<typeof launchOf>;
    try {
      launch = launchOf('probe', specifier, { grants: {}, heapMb: PROBE_MEMORY_MB, env: {}, user });
    } catch (error) {
      // A package that is not installed: said in the loader's words, as its import would.
      const code = (error as NodeJS.ErrnoException).code;
      return reject(new ProbeRefusal([(error as Error).message], code));
    }
    const probe = new PluginProcess(launch, { maxPayloadBytes: MAX_MANIFEST_BYTES, niceness: 0, label: `plugin ${specifier}, loading` }, {
      // Its one message is all it has to say: ended at once, a process whose plugin kept writing on
      // its channel after it cannot keep the service reading until the probe's timeout.
      frame: (frame) => {
        if (answer !== undefined) return;
        answer = frame;
        probe.end({ kind: 'closing' });
      },
      ended: (cause: EndCause) => {
        clearTimeout(timer);
        clearInterval(watch);
        if (answer !== undefined) return resolve(answer);
        if (cause.kind === 'start-timeout') return reject(new ProbeRefusal([`its module did not finish loading within ${PROBE_TIMEOUT_MS / 1000} s`]));
        if (cause.kind === 'memory') return reject(new ProbeRefusal([`its module used ${Math.ceil(cause.rssMb)} MiB of memory while loading, over the cap of ${cause.capMb} MiB`]));
        if (cause.kind === 'exited' && cause.startError !== undefined) return reject(new ProbeRefusal([describeEnd(cause)]));
        reject(new ProbeRefusal([`its module stopped the process loading it: ${describeEnd(cause).replace(/^its process /, '')}`]));
      },
    });
    const timer = setTimeout(() => probe.end({ kind: 'start-timeout' }), PROBE_TIMEOUT_MS);
    const watch = setInterval(() => {
      const rssMb = probe.residentMb();
      if (rssMb !== undefined && rssMb > PROBE_RSS_MB) probe.end({ kind: 'memory', rssMb, capMb: PROBE_RSS_MB });
    }, WATCH_MS);
  });
}

/**
 * The manifest of the plugin `specifier` names, as data, checked on both sides (bounds required:
 * it is a third party's). `user` is `plugins.user`. Rejects with a {@link ProbeRefusal} naming every problem.
 */
export async function probeManifest(specifier: string, user: UserSetting = 'auto'): Promise<ManifestData> {
  const { header, payload } = await firstFrame(specifier, user);
  if (header.kind === 'import-failed') throw new ProbeRefusal([String(header.message)], typeof header.code === 'string' ? header.code : undefined);
  if (header.kind === 'problems' && Array.isArray(header.problems)) throw new ProbeRefusal(header.problems.map(String));
  if (header.kind !== 'manifest') throw new ProbeRefusal(['its process sent something other than a manifest']);
  let manifest: unknown;
  try {
    manifest = deserialize(payload);
  } catch {
    throw new ProbeRefusal(['its process sent a manifest that cannot be read']);
  }
  const problems = checkPlugin(asCheckable(manifest), SDK_VERSION, { requireBounds: true });
  if (problems.length > 0) throw new ProbeRefusal(problems);
  return manifest as ManifestData;
}
