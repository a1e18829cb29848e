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

/** Closes for requests sent ahead, from one peer address, that start its cooling off. */
export const CUTS_TO_COOL = 4;
/** How long the count of a peer's closes runs, and its cooling off with it. */
export const COOL_MS = 10_000;

/**
 * Peer addresses (an IPv6 /64 as one, as the rate limit counts them) whose connections were closed
 * for sending too many requests ahead, and whether each is cooling off: {@link CUTS_TO_COOL} closes
 * within {@link COOL_MS} of its first. Such a connection cost a parse of about 600 requests, made
 * and dropped (the loadtest's 64 connections reconnecting: RSS 528-666 MiB); one closed as it is
 * accepted costs nothing of the kind.
 */
export class CooledPeers {
  /** Each peer's closes since `since` (a time of `now`). */
  private readonly peers = new Map<string, { cuts: number; since: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** One more connection of `address` closed for requests sent ahead. */
  cut(address: string): void {
    const peer = clientKey(address);
    const at = this.now();
    const entry = this.peers.get(peer);
    if (entry !== undefined && at - entry.since < COOL_MS) entry.cuts++;
    else {
      // A peer's count runs one period; ended ones go once the map holds many.
      if (this.peers.size >= 10_000) this.forgetEnded(at);
      this.peers.set(peer, { cuts: 1, since: at });
    }
  }

  /** True while connections of `address` are closed as they are accepted. */
  cooling(address: string): boolean {
    const peer = clientKey(address);
    const entry = this.peers.get(peer);
    if (entry === undefined) return false;
    if (this.now() - entry.since < COOL_MS) return entry.cuts >= CUTS_TO_COOL;
    this.peers.delete(peer);
    return false;
  }

  private forgetEnded(at: number): void {
    for (const [peer, entry] of this.peers) if (at - entry.since >= COOL_MS) this.peers.delete(peer);
  }
}

/**
 * Applies the caps to `server`, counting in `refused` what they close. The per-client cap and the
 * cooling off count the TCP peer: a trusted proxy (`server.trustProxy` as a list) is left out of
 * them, and with a hop count every peer is a proxy, so only the total applies.
 */
export function capConnections(server: Server, { maxConnections, connectionsPerClient, trustProxy }: Config['server'], refused: RefusedConnections, cooled?: CooledPeers): void {
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
