/**
 * One JSON-RPC message read from its bytes, the same for every transport: parsed by the API's JSON
 * rules (UTF-8, at most 64 levels deep, a position for a syntax error), checked as a JSON-RPC 2.0
 * message of MCP, and sorted into what the server does with it. Pure, so it runs where the bytes
 * are: on the main thread for a small message, on the worker pool for one over
 * `workers.offloadBytes` (`readOnWorker`), whose tools/call arguments then come back as the bytes
 * the client sent for them — handed to the executor as they are, never parsed and written again
 * on the main thread.
 */
import { isToolshedError } from '@toolshed/plugin-sdk';
// The host's body entry, not index.ts: readOnWorker runs on the pool, where index.ts would load the whole host.
import { bufferOf, parseJsonObject } from '../kernel/host/body.js';
import { memberBytes } from './json-span.js';

/** JSON-RPC's codes for a message that is not JSON, one that is no valid request, and params of the wrong shape. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export type RequestId = string | number;

/** What the server does with a message. */
export type Message =
  /** Answered with a JSON-RPC error: not JSON, no valid message, or tools/call params of the wrong shape (`code` says which). */
  | { readonly kind: 'refused'; readonly id: RequestId | null; readonly code: number; readonly message: string }
  /** A notification or a response: a stateless server acts on neither, and answers nothing. */
  | { readonly kind: 'unanswered' }
  /** A request other than tools/call. */
  | { readonly kind: 'request'; readonly id: RequestId; readonly method: string; readonly params?: Readonly<Record<string, unknown>> }
  /** A tools/call: the tool's name and its arguments, as a value or (read on a worker) as their bytes. */
  | { readonly kind: 'call'; readonly id: RequestId; readonly name: string; readonly args: { readonly value: Readonly<Record<string, unknown>> } | { readonly bytes: Uint8Array } };

/** Where a transport sends one message: `request` (HTTP) or `line` (stdio), for the batch refusal's words. */
export type MessageUnit = 'request' | 'line';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is RequestId => typeof value === 'string' || Number.isSafeInteger(value);

/** What a JSON value is, for a message about the wrong one. */
const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

const NOT_JSON_RPC = 'Invalid request: not a JSON-RPC 2.0 request, notification or response';

/** `_meta` as MCP's schema takes it: an object whose progress token, if any, is a string or an integer, and whose related task, if any, names one. */
function validMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  const token = meta.progressToken;
  const task = meta['io.modelcontextprotocol/related-task'];
  return (token === undefined || isId(token)) && (task === undefined || (isObject(task) && typeof task.taskId === 'string'));
}

const onlyKeys = (value: object, allowed: readonly string[]): boolean => Object.keys(value).every((key) => allowed.includes(key));

/** True for a JSON-RPC 2.0 error object: an integer code and a message. */
const validError = (error: unknown): boolean => isObject(error) && Number.isSafeInteger(error.code) && typeof error.message === 'string';

/**
 * `value` sorted by MCP's JSON-RPC schema (the SDK's `JSONRPCMessageSchema`, mirrored here so a
 * worker need not load it; test/mcp-message.test.ts holds the two to the same verdicts).
 */
function sorted(value: Record<string, unknown>): Message {
  const { id, method, params } = value;
  const refused = (): Message => ({ kind: 'refused', id: isId(id) ? id : null, code: INVALID_REQUEST, message: NOT_JSON_RPC });
  if (value.jsonrpc !== '2.0') return refused();
  if ('method' in value) {
    if (typeof method !== 'string' || !onlyKeys(value, ['jsonrpc', 'id', 'method', 'params'])) return refused();
    if (params !== undefined && (!isObject(params) || !validMeta(params._meta))) return refused();
    if (!('id' in value)) return { kind: 'unanswered' };
    if (!isId(id)) return refused();
    return { kind: 'request', id, method, params: params as Record<string, unknown> | undefined };
  }
  // A response: a result object or an error, never both (an error's id may be left out).
  if ('result' in value) return isId(id) && isObject(value.result) && validMeta(value.result._meta) && onlyKeys(value, ['jsonrpc', 'id', 'result']) ? { kind: 'unanswered' } : refused();
  if ('error' in value) return (id === undefined || isId(id)) && validError(value.error) && onlyKeys(value, ['jsonrpc', 'id', 'error']) ? { kind: 'unanswered' } : refused();
  return refused();
}

/**
 * A tools/call's name and arguments, or the -32602 params of the wrong shape get (arguments that
 * are an object but break the tool's schema are not this: they are the tool's 400, a tool error
 * naming each field, which a model reads to correct itself — SEP-1303).
 */
function call(id: RequestId, params: Readonly<Record<string, unknown>> | undefined, bytes: Buffer | undefined): Message {
  const invalid = (message: string): Message => ({ kind: 'refused', id, code: INVALID_PARAMS, message: `Invalid params: ${message}` });
  if (params === undefined) return invalid("tools/call needs params, an object with the tool's name and arguments");
  const { name, arguments: args = {} } = params;
  if (typeof name !== 'string') return invalid(`name must be a string naming a tool (tools/list names them all), not ${kindOf(name)}`);
  if (!isObject(args)) return invalid(`arguments must be an object of the tool's named arguments, not ${kindOf(args)}`);
  // On a worker, the arguments go back as the bytes the client sent (a fresh buffer, so the pool moves it).
  const sent = bytes === undefined || !('arguments' in params) ? undefined : memberBytes(bytes, ['params', 'arguments']);
  return { kind: 'call', id, name, args: sent === undefined ? { value: args } : { bytes: Uint8Array.prototype.slice.call(sent) } };
}

/**
 * Reads one message from `bytes`. With `argsAsBytes`, a tools/call's arguments come back as their
 * bytes (the worker's way: a value would be copied whole to the main thread, and written again).
 */
export function readMessage(bytes: Buffer, unit: MessageUnit, argsAsBytes = false): Message {
  // Batches left JSON-RPC over MCP with protocol 2025-06-18; one message per request or line.
  const first = bytes.findIndex((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);
  if (bytes[first] === 0x5b) return { kind: 'refused', id: null, code: INVALID_REQUEST, message: `Batches are not supported: send one JSON-RPC message per ${unit}` };
  let value: unknown;
  try {
    value = parseJsonObject(bytes);
  } catch (error) {
    if (!isToolshedError(error)) throw error;
    return { kind: 'refused', id: null, code: PARSE_ERROR, message: `Parse error: ${error.message}` };
  }
  const message = sorted(value as Record<string, unknown>);
  if (message.kind !== 'request' || message.method !== 'tools/call') return message;
  return call(message.id, message.params, argsAsBytes ? bytes : undefined);
}

/** `readMessage` as a job of the worker pool: the bytes arrive moved, the arguments leave as bytes. */
export function readOnWorker(bytes: Uint8Array, unit: MessageUnit): Message {
  return readMessage(bufferOf(bytes), unit, true);
}
