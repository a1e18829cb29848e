/**
 * Requests a client sends ahead on one connection (HTTP/1.1 pipelining) start one at a time, each
 * once the answer before it has gone out. Node parses every request a read brings (64 KiB: about
 * 600 small POSTs) and hands each to the app at once, while their answers go out in order; and the
 * app's requests take turns (middleware/turns.ts), so reads came faster than answers: one
 * connection that wrote 100,000 small POSTs without reading held 1 GB within 4 s (each request's
 * context waiting for its turn) and went ahead of every other client in the queue. Now a request
 * sent ahead waits, unstarted, for Node to hand it the connection (the `socket` event of its
 * answer), as nginx serves a pipeline; a non-pipelined request pays one property read. Up to
 * `MAX_WAITING` may wait on one connection; one more closes it, the way the connection caps close
 * theirs (counted in `refused.pipelined`), since a request can be answered only after those before it.
 *
 * Each close still costs Node's parse of the read it was in; a peer that made CUTS_TO_COOL
 * of them within COOL_MS has its next connections closed as they are accepted, unread,
 * until that time has passed (connection-caps.ts's CooledPeers).
 */
import type { RequestListener } from 'node:http';
import type { Socket } from 'node:net';
import type { CooledPeers, RefusedConnections } from './connection-caps.js';

/** How many requests may wait on one connection behind the one being answered. */
export const MAX_WAITING = 16;

export function oneAtATime(listener: RequestListener, refused: RefusedConnections, cooled?: CooledPeers, maxWaiting = MAX_WAITING): RequestListener {
  const waiting = new WeakMap<Socket, number>();
  return (req, res) => {
    // Node gives an answer its connection at once, unless an earlier answer on it is not yet out.
    if (res.socket !== null) {
      listener(req, res);
      return;
    }
    const socket = req.socket;
    // Closed below: Node still parses the rest of the read it was in, and hands each request here.
    // Each is ended now, without an error: Node aborts every unanswered request of a closed
    // connection with an ECONNRESET error of its own, whose stack it formats and emits, and stops
    // at the error for one already ended. About 600 per cut: 5.6 → 3.9 ms of CPU a cut.
    if (socket.destroyed) {
      req.destroy();
      return;
    }
    const count = (waiting.get(socket) ?? 0) + 1;
    if (count > maxWaiting) {
      refused.pipelined++;
      if (socket.remoteAddress !== undefined) cooled?.cut(socket.remoteAddress);
      socket.destroy();
      req.destroy();
      return;
    }
    waiting.set(socket, count);
    res.once('socket', () => {
      waiting.set(socket, waiting.get(socket)! - 1);
      listener(req, res);
    });
  };
}
