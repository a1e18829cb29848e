/**
 * The JSON a composite writes and reads between the operations it runs — a recipe's step bodies
 * and the earlier answers its `$from`s read, identify's tries and their answers — done where the
 * executor does the work of a request to that operation: over the operation's offload bound
 * (`workers.offloadBytes`, `workers.linearOffloadBytes` for `cost: 'linear'`, 512 bytes for
 * `cost: 'superlinear'`) on the pool, else
 * here. A composite then holds to the rule every door holds to: the main thread only moves a large
 * value's bytes. What comes out is the same either way, byte for byte: the same functions run there.
 */
import { answerValue } from './answer.js';
import type { CompositeJson, OperationInfo } from './executor-types.js';
import { jsonBytes } from './json-body.js';
import { jsonBytesOver } from './json-length.js';

/** Both done here whatever the size: a composite run outside a host (the recipes' own tests). */
export const jsonHere: CompositeJson = {
  body: async (_operation, value) => jsonBytes(value),
  value: async (_operation, answer) => answerValue(answer),
};

/** Runs job `job` of kernel/host/offload.ts on the host's pool; `transfer` (buffers no one else holds) moves there. */
export type OffloadJob = <T>(job: 'writeJson' | 'readJson', args: readonly unknown[], transfer?: readonly ArrayBuffer[]) => Promise<T>;

/** The host's: `boundOf` gives the body size over which a request to an operation runs on the pool. */
export function compositeJson(boundOf: (operation: OperationInfo) => number, onPool: OffloadJob): CompositeJson {
  return {
    body: (operation, value) => (jsonBytesOver(value, boundOf(operation)) ? onPool('writeJson', [value]) : jsonHere.body(operation, value)),
    value(operation, answer) {
      if (answer.bytes <= boundOf(operation)) return jsonHere.value(operation, answer);
      // A copy in a buffer of its own moves: the answer itself may still be sent, or read again.
      const copy = new Uint8Array(typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body);
      return onPool('readJson', [copy], [copy.buffer]);
    },
  };
}
