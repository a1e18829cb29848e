/** The kernel's own error answers (404, 405, 413, 415, 401, 429, 400 invalid_json). */
import { ToolshedError } from '@toolshed/plugin-sdk';

export class HttpError extends ToolshedError {
  constructor(status: number, code: string, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(status, code, message);
    this.name = 'HttpError';
  }
}
