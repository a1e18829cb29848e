/**
 * The main module of a contained plugin's process, started by the service with Node's permission
 * flags, an environment of exactly `plugins.env.<group>` and, where the service runs as root,
 * another user id (launch.ts). `probe` imports the plugin, checks its manifest and sends it as data
 * (manifest-probe.ts); `serve` imports it, warms it and runs its requests one at a time, in the
 * order they came (plugin-side.ts). stdin and stdout are the channel (frames.ts); what the plugin prints goes to
 * stderr, so a plugin's own printing cannot break a frame. The process ends when the service closes stdin.
 */
import { Console } from 'node:console';
import { setImmediate as pendingFramesRead } from 'node:timers/promises';
import { serialize } from 'node:v8';
import { SDK_VERSION, type Plugin } from '@toolshed/plugin-sdk';
import { checkPlugin } from '@toolshed/plugin-sdk/contract';
import { encodeFrame, fromJson, FrameReader, text } from './frames.js';
import { withoutFunctions } from './manifest-copy.js';
import { loadServed, serveRequest } from './plugin-side.js';
import { MAX_HEADER_BYTES, MAX_REQUEST_BYTES, monotonicMs, type ProbeHeader, type ServiceHeader, type ServingHeader } from './protocol.js';

/**
 * How long the chain of runs may go on without reading the channel; a cancel that arrives within
 * it comes too late for a request whose turn it is, as it would once the request started.
 */
const UNREAD_CHANNEL_MS = 1;

// Taken before the plugin is imported; the plugin's own output is sent to stderr.
const channel = process.stdout;
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
Object.defineProperty(process, 'stdout', { configurable: true, get: () => process.stderr });
// Stacks name the plugin's TypeScript lines when it ships source maps (as in the service).
process.setSourceMapsEnabled(true);
// A plugin's stray rejection is its bug, not a reason to end its other work: said on stderr, by name only.
process.on('unhandledRejection', (reason: unknown) => process.stderr.write(`toolshed plugin: unhandled rejection (${reason instanceof Error ? reason.name : typeof reason})\n`));

const write = channel.write.bind(channel);
function send(header: ServingHeader | ProbeHeader, payload?: Uint8Array): void {
  // Pipes are written synchronously on Linux: a frame is whole before the next begins, and each
  // answer is out before the next request starts (a request that then ends the process costs none
  // of those before it).
  for (const bytes of encodeFrame(header, payload)) write(bytes);
}

const [mode, specifier] = process.argv.slice(2) as [string, string];

async function probe(): Promise<void> {
  let module: { default?: unknown };
  try {
    module = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    send({ kind: 'import-failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
    return;
  }
  // A third party's body schemas must bound every string and array (docs/writing-a-plugin.md).
  const problems = checkPlugin(module.default, SDK_VERSION, { requireBounds: true });
  if (problems.length > 0) return send({ kind: 'problems', problems });
  let manifest: Buffer;
  try {
    manifest = serialize(withoutFunctions(module.default));
  } catch (error) {
    // Left after the functions are gone: a symbol, a class instance, a shared buffer.
    return send({ kind: 'problems', problems: [`the manifest cannot be copied as data: ${(error as Error).message}`] });
  }
  send({ kind: 'manifest' }, manifest);
}

function serve(): void {
  const loading = loadServed(specifier);
  loading.then(
    () => send({ kind: 'ready' }),
    (error: unknown) => {
      send({ kind: 'load-failed', message: (error instanceof Error ? error.message : String(error)).slice(0, 2000) });
      process.exit(1);
    },
  );
  let config: unknown;
  let maxAnswerBytes = 0;
  const reader = new FrameReader({ headerBytes: MAX_HEADER_BYTES, payloadBytes: MAX_REQUEST_BYTES });
  // One request at a time, in the order sent; the service may send several before the first is answered.
  let turn: Promise<void> = loading.then(() => undefined);
  // Runs sent and not yet started, and those of them the service cancelled.
  const waiting = new Set<number>();
  const cancelled = new Set<number>();
  // When this process last read its channel: frames that arrived since wait in the pipe.
  let read = monotonicMs();
  process.stdin.on('data', (chunk: Buffer) => {
    read = monotonicMs();
    for (const { header, payload } of reader.push(chunk)) {
      const message = header as unknown as ServiceHeader;
      if (message.kind === 'init') {
        config = fromJson(text(payload));
        maxAnswerBytes = message.maxAnswerBytes;
      } else if (message.kind === 'cancel') {
        if (waiting.has(message.id)) cancelled.add(message.id);
      } else if (message.kind === 'run') {
        const { id, operation, deadline } = message;
        waiting.add(id);
        turn = turn.then(async () => {
          // A run that held the thread may have left a cancel for this one unread in the pipe: frames
          // are read in the event loop's poll phase, which the chain of runs alone never reaches.
          // Not after every run: a turn of the loop after each small request sent ahead cost this
          // process 19-20 µs a request against 15-17 (16 at once, node 20, 2026-11).
          if (monotonicMs() - read > UNREAD_CHANNEL_MS) {
            await pendingFramesRead();
            read = monotonicMs();
          }
          waiting.delete(id);
          // Its client has its answer already (a timeout) or is gone: the work would be for nobody.
          if (cancelled.delete(id) || monotonicMs() > deadline) return send({ kind: 'skipped', id });
          const served = await serveRequest((await loading) as Plugin, id, operation, payload, config, maxAnswerBytes);
          try {
            send(served.header, served.payload);
          } catch {
            // A refusal whose details JSON cannot write (a BigInt): the plugin's bug.
            send({ kind: 'failed', id, errorName: 'TypeError', frames: [] });
          }
        });
      }
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

if (mode === 'probe') {
  await probe();
  // Whatever the module left running (a timer, a socket) ends with the process, once the answer is out.
  write(new Uint8Array(0), () => process.exit(0));
} else {
  serve();
}
