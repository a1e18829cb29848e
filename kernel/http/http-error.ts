/** The HTTP door's own refusals (405, 413 and 503 mid-body, 415, 401, 429, 404 for a path): a status and its headers. */
import { ToolshedError } from '@toolshed/plugin-sdk';

export class HttpError extends ToolshedError {
  constructor(status: number, code: string, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(status, code, message);
    this.name = 'HttpError';
  }
}
