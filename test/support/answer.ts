/** What a test's request is answered with, over a socket (http.ts) or in process (inject.ts). */
import type { IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}
