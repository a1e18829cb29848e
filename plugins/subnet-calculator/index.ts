import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { ADDRESS_TYPES } from './ipv4.js';
import { calculate } from './subnet.js';

const closed = { additionalProperties: false } as const;
const ip = (description: string) => Type.String({ description });

const entryFields = {
  cidr: ip('Network in CIDR notation'),
  network: ip('Network address'),
  broadcast: ip('Broadcast (last) address'),
  netmask: ip('Netmask'),
  wildcard: ip('Wildcard mask (inverted netmask)'),
  firstHost: ip('First usable host (the network address itself for /31 and /32)'),
  lastHost: ip('Last usable host (the broadcast address itself for /31 and /32)'),
  total: Type.Number({ description: 'Addresses in the network: 2^(32 − prefix)' }),
  usable: Type.Number({ description: 'Usable hosts: total − 2, but 2 for a /31 (RFC 3021) and 1 for a /32' }),
};
const subnetEntry = Type.Object(entryFields, closed);

export default definePlugin({
  group: 'subnet-calculator',
  sdk: '^1.0.0',
  summary: 'IPv4 subnet calculation: network, broadcast, hosts, address type, reverse DNS zone, splitting',
  title: 'Subnet calculator',
  category: 'Network',
  keywords: ['cidr', 'ip', 'ipv4', 'netmask', 'subnet mask', 'network', 'broadcast'],
  errors: {
    invalid_address: 'The address is not "a.b.c.d/prefix" or "a.b.c.d netmask" with a dotted-quad IPv4 address',
    invalid_netmask: 'The prefix is not 0–32, or the netmask is malformed or not contiguous',
    invalid_split: 'splitPrefix is smaller than the prefix of the network to split',
  },
  operations: {
    calculate: defineOperation({
      summary: 'Describe an IPv4 network and optionally split it into smaller subnets',
      io: { input: 'address', output: 'cidr' },
      recognizers: [
        { kind: 'ipv4-cidr', title: 'IPv4 CIDR block', pattern: /^(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/, confidence: 0.95 },
        // A bare address is read as its one-address network, /32.
        { kind: 'ipv4', title: 'IPv4 address', pattern: /^(?:\d{1,3}\.){3}\d{1,3}$/, confidence: 0.9, fill: { address: '$&/32' } },
      ],
      description:
        'Host bits in the address are allowed and echoed as `address`; `type` and `class` describe that address. ' +
        'Octets are 0–255 without leading zeros. `reverseDns` is the in-addr.arpa zone on the nearest octet ' +
        'boundary at or above the prefix (the full PTR name for a /32).',
      body: Type.Object(
        {
          address: Type.String({ description: '`a.b.c.d/prefix` or `a.b.c.d netmask` (IPv4)' }),
          splitPrefix: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 32, description: 'Split the network into subnets of this prefix' }),
          ),
          limit: Type.Integer({ minimum: 1, maximum: 256, default: 64, description: 'Most subnets listed when splitting' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          ...entryFields,
          address: ip('The given address, host bits included'),
          type: Type.Enum(ADDRESS_TYPES, { description: 'Kind of the given address (IANA special-purpose registry)' }),
          class: Type.Enum(['A', 'B', 'C', 'D', 'E'], { description: 'Classful class by first octet' }),
          binary: Type.Object({ address: Type.String(), netmask: Type.String() }, closed),
          reverseDns: Type.String({ description: 'in-addr.arpa zone (full PTR name for a /32)' }),
          split: Type.Optional(
            Type.Object(
              {
                total: Type.Number({ description: 'Number of subnets: 2^(splitPrefix − prefix)' }),
                subnets: Type.Array(subnetEntry, { description: 'The first `limit` subnets' }),
              },
              closed,
            ),
          ),
        },
        closed,
      ),
      examples: [
        {
          title: 'A host in a /24',
          body: { address: '192.168.1.10/24' },
          response: {
            cidr: '192.168.1.0/24',
            network: '192.168.1.0',
            broadcast: '192.168.1.255',
            netmask: '255.255.255.0',
            wildcard: '0.0.0.255',
            firstHost: '192.168.1.1',
            lastHost: '192.168.1.254',
            total: 256,
            usable: 254,
            address: '192.168.1.10',
            type: 'private',
            class: 'C',
            binary: { address: '11000000.10101000.00000001.00001010', netmask: '11111111.11111111.11111111.00000000' },
            reverseDns: '1.168.192.in-addr.arpa',
          },
        },
        {
          title: 'A documentation /30 split into two /31 point-to-point links (RFC 3021)',
          body: { address: '203.0.113.8 255.255.255.252', splitPrefix: 31 },
          response: {
            cidr: '203.0.113.8/30',
            network: '203.0.113.8',
            broadcast: '203.0.113.11',
            netmask: '255.255.255.252',
            wildcard: '0.0.0.3',
            firstHost: '203.0.113.9',
            lastHost: '203.0.113.10',
            total: 4,
            usable: 2,
            address: '203.0.113.8',
            type: 'documentation',
            class: 'C',
            binary: { address: '11001011.00000000.01110001.00001000', netmask: '11111111.11111111.11111111.11111100' },
            reverseDns: '113.0.203.in-addr.arpa',
            split: {
              total: 2,
              subnets: [
                {
                  cidr: '203.0.113.8/31',
                  network: '203.0.113.8',
                  broadcast: '203.0.113.9',
                  netmask: '255.255.255.254',
                  wildcard: '0.0.0.1',
                  firstHost: '203.0.113.8',
                  lastHost: '203.0.113.9',
                  total: 2,
                  usable: 2,
                },
                {
                  cidr: '203.0.113.10/31',
                  network: '203.0.113.10',
                  broadcast: '203.0.113.11',
                  netmask: '255.255.255.254',
                  wildcard: '0.0.0.1',
                  firstHost: '203.0.113.10',
                  lastHost: '203.0.113.11',
                  total: 2,
                  usable: 2,
                },
              ],
            },
          },
        },
      ],
      handler: ({ address, splitPrefix, limit }) => calculate(address, splitPrefix, limit),
    }),
  },
});
