/** The subnet calculation itself: a network from an address and a prefix, and its split. */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import {
  addressClass,
  addressType,
  and,
  formatBinary,
  formatDottedQuad,
  maskOf,
  parseAddressWithPrefix,
  type AddressType,
} from './ipv4.js';

/** One network, as the response and each split subnet describe it. */
export interface SubnetEntry {
  cidr: string;
  network: string;
  broadcast: string;
  netmask: string;
  wildcard: string;
  firstHost: string;
  lastHost: string;
  total: number;
  usable: number;
}

/** The response of /calculate. */
export interface SubnetReport extends SubnetEntry {
  address: string;
  type: AddressType;
  class: 'A' | 'B' | 'C' | 'D' | 'E';
  binary: { address: string; netmask: string };
  reverseDns: string;
  split?: { total: number; subnets: SubnetEntry[] };
}

const TWO_32 = 2 ** 32;

/** Describes the network `network/prefix` (`network` has no host bits). */
export function describeNetwork(network: number, prefix: number): SubnetEntry {
  const total = 2 ** (32 - prefix);
  const broadcast = network + total - 1;
  const mask = maskOf(prefix);
  // RFC 3021: a /31 has no network or broadcast address, both are hosts; a /32 is the one host.
  const hasNetworkAndBroadcast = prefix <= 30;
  return {
    cidr: `${formatDottedQuad(network)}/${prefix}`,
    network: formatDottedQuad(network),
    broadcast: formatDottedQuad(broadcast),
    netmask: formatDottedQuad(mask),
    wildcard: formatDottedQuad(TWO_32 - 1 - mask),
    firstHost: formatDottedQuad(hasNetworkAndBroadcast ? network + 1 : network),
    lastHost: formatDottedQuad(hasNetworkAndBroadcast ? broadcast - 1 : broadcast),
    total,
    usable: hasNetworkAndBroadcast ? total - 2 : total,
  };
}

/**
 * The in-addr.arpa zone of `network` on the octet boundary at or above `prefix` (a /20 lives in the
 * /16 zone); for a /32 that is the host's full PTR name.
 */
export function reverseZone(network: number, prefix: number): string {
  const octets = formatDottedQuad(network).split('.').slice(0, Math.floor(prefix / 8));
  return [...octets.reverse(), 'in-addr', 'arpa'].join('.');
}

/**
 * Everything /calculate answers for `input` (`a.b.c.d/prefix` or `a.b.c.d netmask`), with the
 * first `limit` subnets of prefix `splitPrefix` when it is given.
 *
 * @throws UnprocessableError `invalid_address`, `invalid_netmask` or `invalid_split`.
 */
export function calculate(input: string, splitPrefix: number | undefined, limit: number): SubnetReport {
  const { address, prefix } = parseAddressWithPrefix(input);
  const network = and(address, maskOf(prefix));
  const report: SubnetReport = {
    ...describeNetwork(network, prefix),
    address: formatDottedQuad(address),
    type: addressType(address),
    class: addressClass(address),
    binary: { address: formatBinary(address), netmask: formatBinary(maskOf(prefix)) },
    reverseDns: reverseZone(network, prefix),
  };
  if (splitPrefix === undefined) return report;
  if (splitPrefix < prefix) {
    throw new UnprocessableError('invalid_split', `splitPrefix must be at least the network's prefix (/${prefix}) to split it`);
  }
  const total = 2 ** (splitPrefix - prefix);
  const step = 2 ** (32 - splitPrefix);
  const subnets: SubnetEntry[] = [];
  for (let index = 0; index < Math.min(limit, total); index += 1) subnets.push(describeNetwork(network + index * step, splitPrefix));
  return { ...report, split: { total, subnets } };
}
