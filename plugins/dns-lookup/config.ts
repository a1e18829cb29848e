/**
 * The plugin's configuration section `dns`: the two resolvers' DoH endpoints and the time budget
 * of one lookup. config/default.yaml carries the same defaults.
 */
import { Type, type Static } from '@toolshed/plugin-sdk';

const url = (fallback: string) =>
  Type.String({ pattern: '^https?://[^\\s/?#]+', default: fallback, description: 'DNS-over-HTTPS endpoint (RFC 8484), http(s) URL' });

/** Schema of the `dns` section. */
export const DnsConfigSchema = Type.Object(
  {
    resolvers: Type.Object(
      { cloudflare: url('https://cloudflare-dns.com/dns-query'), google: url('https://dns.google/dns-query') },
      { additionalProperties: false, default: {} },
    ),
    timeoutMs: Type.Integer({ minimum: 1, maximum: 60000, default: 5000, description: 'Budget of one lookup, all its queries together' }),
  },
  { additionalProperties: false },
);

/** The `dns` section, validated and with its defaults filled. */
export type DnsConfig = Static<typeof DnsConfigSchema>;
