/**
 * The client's address behind proxies, as `server.trustProxy` says. A hop count is Koa's own
 * (`proxy`, `maxIpsCount`): the N-th X-Forwarded-For entry from the right. A list of proxy
 * addresses and ranges is the usual alternative, and the safer one: X-Forwarded-For counts only on
 * a connection from a listed proxy, so a client that reaches the service directly cannot choose its
 * address by sending the header; behind the proxies, the client is the first address, from the
 * right, that is not one of them. Both feed `ctx.ip`: the rate limit's client and the access log's `ip`.
 */
import { BlockList, isIP } from 'node:net';
import { parseAddressRange, type Config } from '../host/index.js';
import type { Request } from 'koa';
import type Koa from './vendor/koa.js';
import type { KernelState } from './types.js';

/** Whether an address is one of `ranges` (addresses and CIDR ranges, checked at configuration load). */
export function trustedProxies(ranges: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const text of ranges) {
    const range = parseAddressRange(text);
    if (typeof range === 'string') throw new Error(`server.trustProxy: ${text} ${range}`);
    list.addSubnet(range.address, range.prefix, range.family);
  }
  // An IPv4 range also holds the IPv4-mapped IPv6 form a dual-stack socket reports (::ffff:10.0.0.1).
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then, walking X-Forwarded-For
 * from the right, the first entry that is not a trusted proxy (the leftmost when all are).
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: (address: string) => boolean): string {
  let address = peer;
  const entries = forwardedFor === undefined ? [] : forwardedFor.split(',');
  for (let index = entries.length - 1; index >= 0 && trusted(address); index--) {
    const entry = entries[index]!.trim();
    if (entry !== '') address = entry;
  }
  return address;
}

/** The Koa options of a hop count; a list is installed by {@link installClientAddress} instead. */
export function proxyOptions(trustProxy: Config['server']['trustProxy']): { proxy: boolean; maxIpsCount: number } {
  return typeof trustProxy === 'number' ? { proxy: trustProxy > 0, maxIpsCount: trustProxy } : { proxy: false, maxIpsCount: 0 };
}

const resolved = Symbol('client address');

/** With a list of trusted proxies, `ctx.ip` of every request of `app` is {@link clientAddress}, worked out once. */
export function installClientAddress(app: Koa<KernelState>, trustProxy: Config['server']['trustProxy']): void {
  if (typeof trustProxy === 'number') return;
  const trusted = trustedProxies(trustProxy);
  Object.defineProperty(app.request, 'ip', {
    configurable: true,
    get(this: Request & { [resolved]?: string }): string {
      this[resolved] ??= clientAddress(this.socket.remoteAddress ?? '', this.get('X-Forwarded-For') || undefined, trusted);
      return this[resolved];
    },
  });
}
