import { definePlugin, defineOperation, Type, type OperationContext } from '@toolshed/plugin-sdk';
import { DnsConfigSchema, type DnsConfig } from './config.js';
import { lookup } from './lookup.js';
import { RECORD_TYPES, type RecordTypeName } from './wire.js';

const closed = { additionalProperties: false } as const;
const typeNames = Object.keys(RECORD_TYPES) as RecordTypeName[];
const RecordType = Type.Enum(typeNames, { description: 'DNS record type' });

const DnsRecord = Type.Object(
  {
    name: Type.String({ description: 'Owner name, without the trailing dot' }),
    type: Type.String({ description: 'Record type; an answer to A may also hold the CNAME records that led to it' }),
    ttl: Type.Integer({ minimum: 0, maximum: 4294967295, description: 'Time to live in seconds' }),
    data: Type.String({ description: 'Record data in zone-file presentation form, names with their trailing dot' }),
  },
  closed,
);

const DnsResult = Type.Object(
  {
    type: RecordType,
    status: Type.String({ description: 'RCODE name: NOERROR, NXDOMAIN, SERVFAIL, REFUSED, …' }),
    authenticated: Type.Boolean({ description: 'The resolver validated the answer with DNSSEC (AD bit)' }),
    records: Type.Array(DnsRecord, { description: 'The answer section' }),
  },
  closed,
);

export default definePlugin({
  group: 'dns-lookup',
  sdk: '^1.0.0',
  summary: 'DNS lookups over DNS-over-HTTPS (RFC 8484), with the DNSSEC validation status',
  title: 'DNS lookup',
  category: 'Network',
  keywords: ['dig', 'nslookup', 'mx', 'txt', 'aaaa', 'dnssec', 'domain'],
  errors: {
    invalid_domain: 'The name is not a valid domain, URL, e-mail address or IP address after normalisation',
  },
  config: { section: 'dns', schema: DnsConfigSchema },
  operations: {
    lookup: defineOperation({
      summary: 'Look up DNS records of a domain, or the PTR record of an IP address',
      description:
        'One query per requested type, sent in parallel to the chosen DNS-over-HTTPS resolver with the RD and AD bits set. ' +
        '`name` may be a domain (IDNs are converted to punycode), a URL (its host) or an e-mail address (its domain). ' +
        'An IPv4 or IPv6 address is looked up as PTR of its in-addr.arpa / ip6.arpa name, and `types` is then ignored. ' +
        'A resolver that fails answers 502 `upstream_error`; one slower than the configured budget 504 `upstream_timeout`.',
      upstream: true,
      body: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 300, description: 'Domain, URL, e-mail address or IP address' }),
          types: Type.Array(RecordType, {
            minItems: 1,
            maxItems: 13,
            uniqueItems: true,
            default: ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA'],
            description: 'Record types to look up, each at most once; results come in this order',
          }),
          resolver: Type.Union([Type.Literal('cloudflare'), Type.Literal('google')], {
            default: 'cloudflare',
            description: 'The DNS-over-HTTPS resolver to ask',
          }),
        },
        closed,
      ),
      response: Type.Object(
        {
          name: Type.String({ description: 'The queried name in punycode, or the in-addr.arpa / ip6.arpa name of an IP address' }),
          results: Type.Array(DnsResult, { description: 'One result per requested type, in request order' }),
        },
        closed,
      ),
      examples: [
        {
          title: 'A URL: its host, with the CNAME that leads to the address',
          body: { name: 'https://www.Example.com/index.html', types: ['A'] },
          response: {
            name: 'www.example.com',
            results: [
              {
                type: 'A',
                status: 'NOERROR',
                authenticated: false,
                records: [
                  { name: 'www.example.com', type: 'CNAME', ttl: 300, data: 'www.example.com-v4.edgesuite.net.' },
                  { name: 'www.example.com-v4.edgesuite.net', type: 'A', ttl: 20, data: '23.215.0.136' },
                ],
              },
            ],
          },
        },
        {
          title: 'An e-mail address: the mail exchanger of its domain (example.com publishes a null MX, RFC 7505)',
          body: { name: 'postmaster@example.com', types: ['MX', 'TXT'] },
          response: {
            name: 'example.com',
            results: [
              { type: 'MX', status: 'NOERROR', authenticated: true, records: [{ name: 'example.com', type: 'MX', ttl: 86400, data: '0 .' }] },
              { type: 'TXT', status: 'NOERROR', authenticated: true, records: [{ name: 'example.com', type: 'TXT', ttl: 86400, data: '"v=spf1 -all"' }] },
            ],
          },
        },
        {
          title: 'Reverse lookup of an IP address',
          body: { name: '8.8.8.8' },
          response: {
            name: '8.8.8.8.in-addr.arpa',
            results: [
              {
                type: 'PTR',
                status: 'NOERROR',
                authenticated: false,
                records: [{ name: '8.8.8.8.in-addr.arpa', type: 'PTR', ttl: 21600, data: 'dns.google.' }],
              },
            ],
          },
        },
      ],
      handler: (input, context: OperationContext<DnsConfig>) => lookup(input, context),
    }),
  },
});
