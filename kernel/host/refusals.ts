/**
 * The host's own refusals, as the SDK's typed errors (status, code, message): each door maps them
 * to its transport (an HTTP status and headers, an MCP tool error, an exit code). The host never
 * says how a refusal travels.
 */
import { ServerBusyError, ToolshedError, type ErrorDetail } from '@toolshed/plugin-sdk';

/** 404 `not_found`: no operation of that name. */
export function unknownOperation(name: string, nearest: string | undefined): ToolshedError {
  const hint = nearest === undefined ? '' : `; did you mean ${nearest}?`;
  return new ToolshedError(404, 'not_found', `There is no operation ${name.slice(0, 200)}${hint}`);
}

/** 413 `payload_too_large`: a body over the cap. */
export function payloadTooLarge(limit: number): ToolshedError {
  return new ToolshedError(413, 'payload_too_large', `The request body is larger than ${limit} bytes`);
}

/** 503 `server_busy` (with Retry-After): a byte budget is spent. */
export function budgetSpent(what: string): ServerBusyError {
  return new ServerBusyError(`The service is ${what} too much data at once; retry shortly`);
}

/** The `error` object of the contract's error body, as every door writes it. */
export interface ErrorObject {
  readonly code: string;
  readonly message: string;
  readonly details?: readonly ErrorDetail[];
}

/**
 * `error` as the contract's error object. Every 400 carries `details`; a body wrong as a whole
 * (invalid_json) has no offending field, so its list is empty rather than the message again.
 */
export function errorObject(error: ToolshedError): ErrorObject {
  const { code, message } = error;
  if (error.status === 400) return { code, message, details: error.details ?? [] };
  // Another status carries details only when its refusal has a place (a composite's failing step).
  return error.details !== undefined && error.details.length > 0 ? { code, message, details: error.details } : { code, message };
}
