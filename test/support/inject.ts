/**
 * Requests handed to the service's request callback in process (light-my-request): no socket, no
 * port, no HTTP parser between the test and the app. For the tests whose subject is what the service
 * answers, not how a connection behaves (the decisions record's entry "Tests without sockets"
 * names the files that keep a real socket and why).
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, RequestListener } from 'node:http';
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import inject from 'light-my-request';
import type { Answer } from './answer.js';

/** What a request is sent with, once send() (test/support/http.ts) has settled its headers and body. */
export interface InjectRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | number>;
  readonly payload?: Buffer;
  /** Send the body as a stream without Content-Length (Transfer-Encoding: chunked). */
  readonly chunked: boolean;
  /** The client's address as the app's socket reports it. */
  readonly remoteAddress?: string;
}

/** Services reachable in process, by the `inject://<n>` base their `url` gives. */
const listeners = new Map<string, RequestListener>();
let count = 0;

/** Makes `listener` reachable by send() at the base this returns, until `forget(base)`. */
export function reachable(listener: RequestListener): string {
  const base = `inject://service-${++count}`;
  listeners.set(base, listener);
  return base;
}

export function forget(base: string): void {
  listeners.delete(base);
}

/** The listener behind an in-process base, undefined for a real `http://` one. */
export function listenerOf(base: string): RequestListener | undefined {
  return base.startsWith('inject://') ? listeners.get(base) ?? (() => { throw new Error(`${base} is stopped`); })() : undefined;
}

/** Hands one request to `listener` and reads its answer as send() does over a socket. */
export async function injectRequest(listener: RequestListener, request: InjectRequest): Promise<Answer> {
  const { payload } = request;
  // A socket keeps the event loop alive while its request is pending; the service's own timers (the
  // deadline of a handler that never settles) are unref'd. With no socket, this stands in for it.
  const pending = setInterval(() => undefined, 60_000);
  const response = await inject(withClosableSocket(listener), {
    // light-my-request's methods are a closed union; the tests send only those.
    method: request.method as inject.InjectOptions['method'],
    url: request.path,
    headers: request.headers,
    payload: payload === undefined ? undefined : request.chunked ? Readable.from([payload]) : payload,
    remoteAddress: request.remoteAddress,
  }).finally(() => clearInterval(pending));
  const text = response.rawPayload.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: asReceived(response.headers), text, json };
}

/**
 * light-my-request's stand-in socket is an EventEmitter with an address; the kernel's lingering
 * close (kernel/http/linger.ts, after a 413 sent before the body was read) ends and destroys the
 * socket. Here ending or destroying it only says it closed: what a real connection does then is the
 * subject of lingering-close.test.ts, over a socket.
 */
function withClosableSocket(listener: RequestListener): RequestListener {
  return (req, res) => {
    const socket = req.socket as unknown as EventEmitter & { destroyed?: boolean; destroy?: () => void; end?: () => void };
    if (socket.destroy === undefined) {
      const close = (): void => {
        if (socket.destroyed === true) return;
        socket.destroyed = true;
        socket.emit('close');
      };
      socket.destroy = close;
      socket.end = close;
    }
    listener(req, res);
  };
}

/** Headers as Node's client hands them over: strings, repeated ones joined by ', ' except Set-Cookie. */
function asReceived(headers: OutgoingHttpHeaders): IncomingHttpHeaders {
  const received: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === 'set-cookie') received['set-cookie'] = [value].flat().map(String);
    else received[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return received;
}

/**
 * fetch() for a client library that takes one (the MCP SDK's Streamable HTTP transport,
 * openapi-fetch): a URL under an in-process base is answered as send() answers it, without a
 * socket; any other goes to fetch.
 */
export async function fetchInProcess(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  // As fetch() reads its arguments: a Request, or a URL with its init (a string body gets its Content-Type).
  const request = new Request(input, init);
  const url = new URL(request.url);
  const listener = listenerOf(`${url.protocol}//${url.host}`);
  if (listener === undefined) return fetch(request);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  if (payload !== undefined) headers['content-length'] = String(payload.length);
  const answer = await injectRequest(listener, { method: request.method, path: `${url.pathname}${url.search}`, headers, payload, chunked: false });
  const received = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) for (const one of [value ?? []].flat()) received.append(name, one);
  // A Response of status 204 or 304 may not have a body, not even an empty one.
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.text, { status: answer.status, headers: received });
}
