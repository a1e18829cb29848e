/**
 * A contained plugin's answer, read by the service: the bytes its process wrote must be UTF-8 JSON
 * (anything else is the plugin breaking its contract, a 500 like an undeclared field). The value
 * is then checked against the response schema and written again by the service, so the bytes a
 * client gets are the service's serialization of a checked value, never the plugin's.
 */
import { ContractBreach } from '@toolshed/plugin-sdk/contract';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value in `bytes`, the answer of operation `id`; ContractBreach when they are not UTF-8 JSON. */
export function parseAnswer(bytes: Uint8Array, id: string): unknown {
  try {
    return JSON.parse(strictUtf8.decode(bytes)) as unknown;
  } catch {
    throw new ContractBreach({ operation: id, problems: ['/: the answer is not UTF-8 JSON'] });
  }
}
