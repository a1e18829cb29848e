/**
 * A raw HTTP client for tests. fetch() adds its own Content-Type and cannot send some of the bodies
 * these tests need, so node:http is used directly. Loopback only. A base from an in-process service
 * (`inject://`, test/support/service.ts) is answered without a socket, with the same headers and body.
 */
import { request as httpRequest } from 'node:http';
import type { Answer } from './answer.js';
import { injectRequest, listenerOf } from './inject.js';

export type { Answer } from './answer.js';

export interface RequestOptions {
  method?: string;
  /** A header set to undefined is not sent: `'Content-Type': undefined` sends a body without one. */
  headers?: Record<string, string | number | undefined>;
  body?: string | Buffer | object;
  /** Send the body in chunks without Content-Length. */
  chunked?: boolean;
  /** The client's own address (another 127.x.y.z on Linux's loopback is another client to the service). */
  localAddress?: string;
}

/**
 * Sends one request to `base` + `path`. A POST gets Content-Type application/json, as every
 * client of the API sends it, unless headers name one (undefined: none at all).
 */
export function send(base: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const { method = 'POST', chunked = false } = options;
  const named = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'content-type');
  const headers: Record<string, string | number> = method === 'POST' && !named ? { 'Content-Type': 'application/json' } : {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[name] = value;
  let payload: Buffer | undefined;
  if (options.body !== undefined) {
    if (Buffer.isBuffer(options.body)) payload = options.body;
    else if (typeof options.body === 'string') payload = Buffer.from(options.body);
    else payload = Buffer.from(JSON.stringify(options.body));
    if (!chunked) headers['Content-Length'] = payload.length;
  }
  const listener = listenerOf(base);
  if (listener !== undefined) return injectRequest(listener, { method, path, headers, payload, chunked, remoteAddress: options.localAddress });
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false, localAddress: options.localAddress }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      // An answer cut off midway never ends: it is a failure, not a wait.
      res.on('close', () => {
        if (!res.complete) reject(new Error(`${method} ${path}: the answer was cut off after ${Buffer.concat(chunks).length} bytes`));
      });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    // The server may answer (413) and close before the whole body is written: that is not a failure.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    // A connection that closed with no answer at all settles too: the errors swallowed above would
    // otherwise leave the test waiting for good (a hostile row once hung for 15 minutes).
    req.on('close', () => {
      if (!answered) reject(new Error(`${method} ${path}: the connection closed without an answer`));
    });
    if (payload && chunked) {
      const size = 64 * 1024;
      let offset = 0;
      const pump = (): void => {
        while (offset < payload.length) {
          const more = req.write(payload.subarray(offset, offset + size));
          offset += size;
          if (!more) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    } else req.end(payload);
  });
}
