/**
 * The trusted proxies of `server.trustProxy` as a list: IP addresses and CIDR ranges, read once at
 * configuration load. The host only reads and checks them (it knows no socket); the HTTP door
 * matches client addresses against them.
 */
import type { ErrorDetail } from '@toolshed/plugin-sdk';

/** An address or a range: `10.0.0.0/8` is `{ address: '10.0.0.0', prefix: 8, family: 'ipv4' }`, one address a full prefix. */
export interface AddressRange {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

const ipv4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** An IPv6 address as URLs take them between brackets (RFC 4291 text, an IPv4 tail allowed, no zone id). */
function isIpv6(text: string): boolean {
  if (!/^[\da-f:.]+$/i.test(text) || !text.includes(':')) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/** `text` as an address range, or why it is not one. */
export function parseAddressRange(text: string): AddressRange | string {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const family = ipv4.test(address) ? 'ipv4' : isIpv6(address) ? 'ipv6' : undefined;
  if (family === undefined) return 'must be an IP address or a CIDR range, such as 10.0.0.5, 10.0.0.0/8 or fd00::/8';
  const bits = family === 'ipv4' ? 32 : 128;
  if (slash === -1) return { address, prefix: bits, family };
  const prefix = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `must have a prefix length from 1 to ${bits} after the "/"`;
  // Every address would be a proxy, so every client could write its own address: as if no check were made.
  if (Number(prefix) === 0) return 'trusts every address, so any client could choose the address it is counted under; list your proxies';
  return { address, prefix: Number(prefix), family };
}

/** A problem for each entry of a trusted-proxy list that is not an address range, at `path`/<index>. */
export function addressRangeProblems(list: unknown, path: string): ErrorDetail[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry, index) => {
    const range = typeof entry === 'string' ? parseAddressRange(entry) : undefined;
    return typeof range === 'string' ? [{ path: `${path}/${index}`, message: range }] : [];
  });
}
