/**
 * Record data in the presentation form of zone files (RFC 1035 §5.1 and each type's RFC), the form
 * `dig` prints: `10 mail.example.com.` for MX, quoted strings for TXT, and `\# <length> <hex>`
 * (RFC 3597 §5) for data that has no other form here.
 */
import dnsPacket from 'dns-packet';
import { fqdn, genericData, presentName, quoteBytes } from './escape.js';
import { presentSvcb } from './svcb.js';

/** One answer record as the API returns it. */
export interface PresentedRecord {
  name: string;
  type: string;
  ttl: number;
  data: string;
}

/** The mnemonic of a type dns-packet did not know: 65 is HTTPS, 64 SVCB, otherwise RFC 3597 `TYPE<n>`. */
function typeName(type: string): string {
  const unknown = /^UNKNOWN_(\d+)$/.exec(type);
  if (unknown === null) return type;
  const number = Number(unknown[1]);
  return number === 65 ? 'HTTPS' : number === 64 ? 'SVCB' : `TYPE${number}`;
}

// @types/dns-packet omits `record(type)`, the per-type codec dns-packet exports.
const codecs = dnsPacket as unknown as { record(type: string): { encode(data: unknown): Buffer } };

/** The rdata of a record dns-packet decoded into an object we have no presentation for. */
function reencoded(type: string, data: unknown): string {
  // The codec writes RDLENGTH first; the data follows it.
  return genericData(codecs.record(type).encode(data).subarray(2));
}

/** The presentation form of one decoded answer's data. */
function presentData(answer: dnsPacket.Answer): string {
  switch (answer.type) {
    case 'A':
    case 'AAAA':
      return answer.data;
    case 'CNAME':
    case 'DNAME':
    case 'NS':
    case 'PTR':
      return fqdn(answer.data);
    case 'MX':
      return `${answer.data.preference ?? 0} ${fqdn(answer.data.exchange)}`;
    case 'TXT': {
      const strings = Array.isArray(answer.data) ? answer.data : [answer.data];
      if (strings.length === 0) return genericData(new Uint8Array(0));
      return strings.map((part) => quoteBytes(typeof part === 'string' ? Buffer.from(part) : part)).join(' ');
    }
    case 'SOA': {
      const soa = answer.data;
      return [fqdn(soa.mname), fqdn(soa.rname), soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum].join(' ');
    }
    case 'CAA':
      return `${answer.data.flags ?? 0} ${presentName(answer.data.tag)} ${quoteBytes(Buffer.from(answer.data.value, 'utf8'))}`;
    case 'SRV': {
      const srv = answer.data;
      return `${srv.priority ?? 0} ${srv.weight ?? 0} ${srv.port} ${fqdn(srv.target)}`;
    }
    case 'DS':
      return `${answer.data.keyTag} ${answer.data.algorithm} ${answer.data.digestType} ${answer.data.digest.toString('hex').toUpperCase()}`;
    case 'DNSKEY':
      // The protocol field is always 3: dns-packet refuses to decode any other value.
      return `${answer.data.flags} 3 ${answer.data.algorithm} ${answer.data.key.toString('base64')}`;
    default:
      break;
  }
  const data: unknown = 'data' in answer ? answer.data : undefined;
  if (Buffer.isBuffer(data)) {
    const type = typeName(answer.type);
    return type === 'HTTPS' || type === 'SVCB' ? presentSvcb(data) : genericData(data);
  }
  return reencoded(answer.type, data);
}

/** One decoded answer record → `{ name, type, ttl, data }`; the owner name has no trailing dot. */
export function presentRecord(answer: dnsPacket.Answer): PresentedRecord {
  const ttl = 'ttl' in answer ? (answer.ttl ?? 0) : 0;
  return { name: presentName(answer.name), type: typeName(answer.type), ttl, data: presentData(answer) };
}
