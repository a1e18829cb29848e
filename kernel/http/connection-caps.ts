/**
 * Caps on open connections, applied as each is accepted, before a byte of it is read: a connection
 * costs the service memory whatever it sends (about 6 KB stalled in its headers, 17 KB stalled in a
 * body: 10,000 of them took 275 MB), and the byte budgets count only bodies and answers. Past
 * `server.maxConnections` in all (Node's own cap) or `server.connectionsPerClient` from one peer
 * address (an IPv6 /64 is one, as for the rate limit), the connection is closed at once; so is one
 * from a peer cooling off after sending too many requests ahead (pipelined-requests.ts).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../host/index.js';
import { trustedProxies } from './client-address.js';
import { clientKey } from './rate-limit/client-key.js';

/** Connections closed by a cap, by the cap that closed them (`/metrics` reads them). */
export interface RefusedConnections {
  /** As accepted, past `server.maxConnections`. */
  total: number;
  /** As accepted, past `server.connectionsPerClient`. */
  client: number;
  /** With more requests sent ahead than may wait, or as accepted from a peer cooling off after such closes (pipelined-requests.ts). */
  pipelined: number;
}

/** Peers whose new connections are closed as they are accepted (pipelined-requests.ts's CooledPeers). */
export interface CoolingPeers {
  cooling(address: string): boolean;
}

/**
 * Applies the caps to `server`, counting in `refused` what they close. The per-client cap and the
 * cooling off count the TCP peer: a trusted proxy (`server.trustProxy` as a list) is left out of
 * them, and with a hop count every peer is a proxy, so only the total applies.
 */
export function capConnections(server: Server, { maxConnections, connectionsPerClient, trustProxy }: Config['server'], refused: RefusedConnections, cooled?: CoolingPeers): void {
  server.maxConnections = maxConnections;
  server.on('drop', () => refused.total++);
  if (connectionsPerClient === 0 || (typeof trustProxy === 'number' && trustProxy > 0)) return;
  const proxy = typeof trustProxy === 'number' ? undefined : trustedProxies(trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || proxy?.(address) === true) return;
    if (cooled?.cooling(address) === true) {
      refused.pipelined++;
      socket.destroy();
      return;
    }
    const client = clientKey(address);
    const count = open.get(client) ?? 0;
    if (count >= connectionsPerClient) {
      refused.client++;
      socket.destroy();
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = open.get(client)! - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
