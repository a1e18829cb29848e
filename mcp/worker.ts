/**
 * The worker side of a large tools/call over HTTP: the request's bytes are the whole JSON-RPC
 * message, which the main thread has checked already. The arguments are picked out of it here, so
 * the validation, handler and serialization of a large call run on the pool, as a large POST's do.
 */
import { runParsedOffloaded } from '../kernel/offload.js';

/** Runs operation `name` of `module` on the `params.arguments` of the tools/call `message`. */
export function runToolCall(module: string, name: string, message: Uint8Array, config: unknown): Promise<Uint8Array> {
  const parsed = JSON.parse(Buffer.from(message.buffer, message.byteOffset, message.byteLength).toString('utf8')) as { params: { arguments?: unknown } };
  return runParsedOffloaded(module, name, parsed.params.arguments ?? {}, config);
}
