/**
 * The identity an anonymous client is counted under. An IPv4 address is one client; an IPv6 host
 * is usually handed a whole /64 (SLAAC, privacy addresses), so counting per address would let one
 * machine step through 2^64 fresh limits. IPv6 clients are therefore counted per /64 prefix.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of a valid IPv6 address (zone id already removed). */
function groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    // Keep the colon when it is part of a "::" so the split below still sees the gap.
    text = text.endsWith(`::${last}`) ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const gap = text.indexOf('::');
  if (gap === -1) return [...parse(text), ...tail];
  const head = parse(text.slice(0, gap));
  const rest = parse(text.slice(gap + 2));
  const zeros = new Array<number>(8 - head.length - rest.length - tail.length).fill(0);
  return [...head, ...zeros, ...rest, ...tail];
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run (≥ 2) of zero groups as "::". */
function format(parts: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < parts.length; start++) {
    let length = 0;
    while (start + length < parts.length && parts[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
    start += length;
  }
  const hex = parts.map((part) => part.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The rate-limit identity of a client address: an IPv4 address as is, an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, as a dual-stack socket reports IPv4 peers) as its IPv4 address, any other IPv6
 * address as its normalised /64 prefix (`2001:db8:1:2::/64`), zone id dropped. Anything that is
 * not an IP address (should a proxy header carry one) is returned unchanged.
 */
export function clientKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const zone = ip.indexOf('%');
  const address = zone === -1 ? ip : ip.slice(0, zone);
  if (!isIPv6(address)) return ip;
  const parts = groups(address);
  const mapped = parts.slice(0, 5).every((part) => part === 0) && parts[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = parts.slice(6);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${format([...parts.slice(0, 4), 0, 0, 0, 0])}/64`;
}
