/**
 * IPv4 addresses as unsigned 32-bit numbers (0 … 2^32 − 1, plain doubles). Masks and sizes use
 * `2 ** n` rather than shifts: in JavaScript `1 << 32` is 1 and `-1 << 32` is -1.
 */
import { isIPv6 } from 'node:net';
import { UnprocessableError } from '@toolshed/plugin-sdk';

const TWO_32 = 2 ** 32;
// 0–255 without leading zeros: "010" is octal to inet_aton and decimal to others, so it is refused.
const octet = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const dottedQuad = new RegExp(`^${octet}\\.${octet}\\.${octet}\\.${octet}$`);
const prefixPattern = /^([0-9]|[12][0-9]|3[0-2])$/;
/** Longest accepted address text: "255.255.255.255 255.255.255.255" is 31 characters. */
const MAX_INPUT_LENGTH = 64;

/** A parsed `address/prefix` or `address netmask`. */
export interface AddressWithPrefix {
  readonly address: number;
  readonly prefix: number;
}

/** Parses a dotted quad; undefined when it is not one. */
export function parseDottedQuad(text: string): number | undefined {
  const match = dottedQuad.exec(text);
  if (match === null) return undefined;
  return ((Number(match[1]) * 256 + Number(match[2])) * 256 + Number(match[3])) * 256 + Number(match[4]);
}

/** The dotted quad of a 32-bit value. */
export function formatDottedQuad(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The dotted binary of a 32-bit value: `11000000.10101000.00000001.00000001`. */
export function formatBinary(value: number): string {
  return formatDottedQuad(value)
    .split('.')
    .map((part) => Number(part).toString(2).padStart(8, '0'))
    .join('.');
}

/** The netmask of a prefix length (0–32). */
export function maskOf(prefix: number): number {
  return TWO_32 - 2 ** (32 - prefix);
}

/** The prefix length of a contiguous netmask, or undefined when its one bits are not contiguous. */
export function prefixOfMask(mask: number): number | undefined {
  for (let prefix = 0; prefix <= 32; prefix += 1) if (maskOf(prefix) === mask) return prefix;
  return undefined;
}

/** `value & mask` for unsigned values (the result of `&` is signed). */
export function and(value: number, mask: number): number {
  return (value & mask) >>> 0;
}

/**
 * Parses `a.b.c.d/prefix` or `a.b.c.d netmask` (surrounding whitespace ignored).
 *
 * @throws UnprocessableError `invalid_address` for a malformed address or form, `invalid_netmask`
 *   for a prefix outside 0–32 or a netmask that is malformed or not contiguous.
 */
export function parseAddressWithPrefix(input: string): AddressWithPrefix {
  const text = input.length <= MAX_INPUT_LENGTH ? input.trim() : '';
  if (isIPv6(text.split(/[\s/]/, 1)[0] ?? '')) {
    throw new UnprocessableError('invalid_address', 'IPv6 is not supported: this calculator takes an IPv4 address, "a.b.c.d/prefix" or "a.b.c.d netmask"');
  }
  const slash = /^([^\s/]+)\s*\/\s*([^\s/]+)$/.exec(text);
  const space = slash === null ? /^(\S+)\s+(\S+)$/.exec(text) : null;
  const parts = slash ?? space;
  if (parts === null) {
    throw new UnprocessableError('invalid_address', 'address must be "a.b.c.d/prefix" or "a.b.c.d netmask" (IPv4)');
  }
  const address = parseDottedQuad(parts[1]);
  if (address === undefined) {
    throw new UnprocessableError('invalid_address', 'The address is not a dotted-quad IPv4 address (four numbers 0–255, no leading zeros)');
  }
  if (slash !== null) {
    if (!prefixPattern.test(parts[2])) throw new UnprocessableError('invalid_netmask', 'The prefix length must be a number from 0 to 32');
    return { address, prefix: Number(parts[2]) };
  }
  const mask = parseDottedQuad(parts[2]);
  if (mask === undefined) throw new UnprocessableError('invalid_netmask', 'The netmask is not a dotted-quad IPv4 netmask');
  const prefix = prefixOfMask(mask);
  if (prefix === undefined) {
    throw new UnprocessableError('invalid_netmask', 'The netmask is not contiguous: its one bits must all come before its zero bits');
  }
  return { address, prefix };
}

/** The kinds of address the contract names. */
export const ADDRESS_TYPES = [
  'private',
  'loopback',
  'link-local',
  'multicast',
  'shared',
  'documentation',
  'reserved',
  'unspecified',
  'broadcast',
  'public',
] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

// IANA IPv4 Special-Purpose Address Registry (RFC 6890) plus multicast and class E; first match wins.
const specialRanges: readonly [string, number, AddressType][] = [
  ['0.0.0.0', 32, 'unspecified'], // RFC 1122 §3.2.1.3: "this host"
  ['255.255.255.255', 32, 'broadcast'], // RFC 919, RFC 8190: limited broadcast
  ['0.0.0.0', 8, 'reserved'], // RFC 1122: "this network"
  ['10.0.0.0', 8, 'private'], // RFC 1918
  ['100.64.0.0', 10, 'shared'], // RFC 6598: carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'], // RFC 1122
  ['169.254.0.0', 16, 'link-local'], // RFC 3927
  ['172.16.0.0', 12, 'private'], // RFC 1918
  ['192.0.0.0', 24, 'reserved'], // RFC 6890: IETF protocol assignments
  ['192.0.2.0', 24, 'documentation'], // RFC 5737: TEST-NET-1
  ['192.88.99.0', 24, 'reserved'], // RFC 7526: deprecated 6to4 relay anycast
  ['192.168.0.0', 16, 'private'], // RFC 1918
  ['198.18.0.0', 15, 'reserved'], // RFC 2544: benchmarking
  ['198.51.100.0', 24, 'documentation'], // RFC 5737: TEST-NET-2
  ['203.0.113.0', 24, 'documentation'], // RFC 5737: TEST-NET-3
  ['224.0.0.0', 4, 'multicast'], // RFC 5771
  ['240.0.0.0', 4, 'reserved'], // RFC 1112: reserved for future use (class E)
];
const ranges = specialRanges.map(([network, prefix, type]) => ({ network: parseDottedQuad(network)!, mask: maskOf(prefix), type }));

/** The kind of `address` (IANA special-purpose registry; everything else is public). */
export function addressType(address: number): AddressType {
  return ranges.find((range) => and(address, range.mask) === range.network)?.type ?? 'public';
}

/** The classful class (A–E) of `address`, by its first octet. */
export function addressClass(address: number): 'A' | 'B' | 'C' | 'D' | 'E' {
  const first = address >>> 24;
  if (first < 128) return 'A';
  if (first < 192) return 'B';
  if (first < 224) return 'C';
  if (first < 240) return 'D';
  return 'E';
}
