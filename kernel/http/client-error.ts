/**
 * Answers what Node's HTTP parser refuses before Koa sees a request (headers over 16 KiB, a
 * malformed request line, an unknown method, a broken chunk) with the contract's JSON error instead
 * of Node's bare status line, whenever the socket can still take it. The connection is then closed:
 * after a parse error nothing more on it can be trusted.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listedHeader } from './answer.js';

interface ParserError extends Error {
  code?: string;
}

const answers: Record<string, readonly [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are larger than 16 KiB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'The request headers did not arrive in time'],
};
const malformed = [400, 'Bad Request', 'bad_request', 'The request is not valid HTTP/1.1'] as const;

/** The rate-limit headers an answer carries when the request was counted before it failed. */
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/** The raw bytes of the JSON answer for a parser error `code`, with `headers` (name → value) added. */
export function clientErrorResponse(code: string | undefined, headers: Readonly<Record<string, string>> = {}): string {
  const [status, reason, errorCode, message] = (code !== undefined ? answers[code] : undefined) ?? malformed;
  // Every 400 lists what is wrong (docs/errors.md); here it is the request as a whole (path "").
  const error = status === 400 ? { code: errorCode, message, details: [{ path: '', message }] } : { code: errorCode, message };
  const body = JSON.stringify({ error });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}` +
    `Connection: close\r\n\r\n${body}`
  );
}

/** The server's 'clientError' listener. */
export function answerClientError(error: ParserError, socket: Socket): void {
  // A reset or a half-written answer leaves nothing to say on this socket.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true) {
    socket.destroy();
    return;
  }
  // A request whose body stopped coming (408 past server.requestTimeoutMs) was read up to its path
  // and counted by the rate limit: its answer carries the same RateLimit headers as any /v1 answer.
  const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  const headers: Record<string, string> = {};
  for (const name of RATE_LIMIT_HEADERS) {
    const value = pending === undefined ? undefined : listedHeader(pending, name);
    if (value !== undefined) headers[name] = value;
  }
  socket.end(clientErrorResponse(error.code, headers));
}
