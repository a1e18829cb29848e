/**
 * Lingering close, as nginx does it. An answer that closes the connection before the request body
 * has arrived (413, or 503 while body bytes are at their budget) must not close the socket at once:
 * the client is still sending, and a socket closed with unread bytes answers them with a TCP reset,
 * which makes the client's system drop the answer it had not read yet. A client that writes its whole
 * body before reading (Node's http client without `Expect: 100-continue`, often) then saw ECONNRESET
 * or EPIPE instead of the 413. So the rest of the body is read and thrown away after the answer,
 * within bounds, and the socket closes when the body is complete or a bound is reached.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { tooManyPieces } from '../host/index.js';

/** Most bytes read and thrown away after such an answer: more than the 10 MiB body cap. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;
/** Longest time the socket stays open after such an answer, however much is still coming. */
export const LINGER_MAX_MS = 5000;
// And a body that comes in too many small pieces is not waited for either (kernel/host/pieces.ts).

/**
 * Keeps `req`'s socket open after the answer (sent with `Connection: close`) until the request's
 * body has arrived, at most {@link LINGER_MAX_BYTES} more bytes or {@link LINGER_MAX_MS} ms; what
 * arrives is discarded. Call it before the answer is written.
 */
export function lingerBeforeClose(req: IncomingMessage): void {
  if (req.complete) return;
  const socket: Socket & { destroySoon?: () => void } = req.socket;
  let left = LINGER_MAX_BYTES;
  let pieces = 0;
  let answered = false;
  const close = (): void => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MAX_MS);
  timer.unref();
  const count = (chunk: Buffer): void => {
    left -= chunk.length;
    if (left < 0 || tooManyPieces(++pieces, LINGER_MAX_BYTES - left)) close();
  };
  // The body reader paused the request when it gave up; the rest must flow to be discarded. Node's
  // own discarding (req._dump, when the body was never read) removes every 'data' listener, so the
  // count is attached again once the answer is written.
  const discard = (): void => {
    if (!req.listeners('data').includes(count)) req.on('data', count);
    req.resume();
  };
  socket.once('close', () => clearTimeout(timer));
  // Once the body is in and the answer sent (the sending side finished), nothing is left to wait for.
  const closeWhenSent = (): void => {
    if (socket.writableFinished) close();
    else socket.once('finish', close);
  };
  req.once('end', () => {
    if (answered) closeWhenSent();
  });
  // Node calls destroySoon once an answer with `Connection: close` is written; that would close the
  // socket with the body still arriving. Only the sending side is closed then.
  socket.destroySoon = () => {
    answered = true;
    socket.end();
    if (req.complete) closeWhenSent();
    else discard();
  };
  req.removeAllListeners('data');
  discard();
}
