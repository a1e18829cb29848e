/** The kernel's own error answers (404, 405, 413, 415, 401, 429, 400 invalid_json). */
import { ToolshedError, type ErrorDetail } from '@toolshed/plugin-sdk';

export class HttpError extends ToolshedError {
  constructor(status: number, code: string, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(status, code, message);
    this.name = 'HttpError';
  }
}

/** The `error` object of the contract's error body, as the server and `toolshed call` both write it. */
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
