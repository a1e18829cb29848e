/**
 * The DNS message: the query we send and the checks on the answer we get back (RFC 1035 §4.1).
 * dns-packet does the encoding and decoding; this file adds what it lacks: the HTTPS type number,
 * the header fields its typings omit, and the checks that an answer really answers our question.
 */
import dnsPacket from 'dns-packet';
import { UpstreamError } from '@toolshed/plugin-sdk';
import { presentRecord, type PresentedRecord } from './presentation.js';

/** The record types a client may ask for, with their IANA numbers. */
export const RECORD_TYPES = {
  A: 1,
  AAAA: 28,
  CNAME: 5,
  MX: 15,
  NS: 2,
  TXT: 16,
  SOA: 6,
  CAA: 257,
  SRV: 33,
  PTR: 12,
  DS: 43,
  DNSKEY: 48,
  HTTPS: 65,
} as const;

/** A record type a client may ask for. */
export type RecordTypeName = keyof typeof RECORD_TYPES;

/** The answer to one question. */
export interface DnsAnswer {
  /** RCODE name (RFC 1035 §4.1.1, RFC 6895 §2.3). */
  readonly status: string;
  /** The AD bit: the resolver validated the answer with DNSSEC (RFC 4035 §3.2.3). */
  readonly authenticated: boolean;
  /** The answer section, in presentation form. */
  readonly records: PresentedRecord[];
}

// IANA "DNS RCODEs" 0–11; 12–15 are unassigned. Extended RCODEs need EDNS, which we do not send.
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE', 'DSOTYPENI'];

/** The name of a 4-bit RCODE: `NXDOMAIN` for 3, `RCODE12` for an unassigned one. */
export function rcodeName(rcode: number): string {
  return RCODES[rcode] ?? `RCODE${rcode}`;
}

const QR = 0x8000;
const OPCODE_MASK = 0x7800;
const RCODE_MASK = 0x000f;

/**
 * The wire query for `name` and `type`: ID 0 (RFC 8484 §4.1 asks for 0 so HTTP caches can share
 * answers), RD so the resolver recurses, and AD so it reports DNSSEC validation (RFC 6840 §5.7).
 */
export function buildQuery(name: string, type: RecordTypeName): Buffer {
  const query = dnsPacket.encode({
    type: 'query',
    id: 0,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
    // dns-packet knows no HTTPS type, so the type is written below, after QNAME: QTYPE then QCLASS.
    questions: [{ type: 'A', name, class: 'IN' }],
  });
  query.writeUInt16BE(RECORD_TYPES[type], query.length - 4);
  return query;
}

function garbage(reason: string): never {
  throw new UpstreamError(`The resolver sent an invalid DNS answer: ${reason}`);
}

/** Reads QNAME and QTYPE of the first question straight from the wire (no compression there). */
function firstQuestion(message: Buffer): { name: string; type: number } {
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    const length = message[offset];
    if (length === undefined || length > 63 || offset + 1 + length > message.length) garbage('the question is malformed');
    offset += 1;
    if (length === 0) break;
    labels.push(message.toString('latin1', offset, offset + length));
    offset += length;
  }
  if (offset + 4 > message.length) garbage('the question is truncated');
  return { name: labels.join('.'), type: message.readUInt16BE(offset) };
}

/**
 * Decodes the resolver's answer to the question (`name`, `type`) and checks that it is one: a
 * response, opcode QUERY, ID 0, and (when it repeats the question, as resolvers do) the same name
 * and type. Throws UpstreamError for anything else.
 */
export function readAnswer(message: Buffer, name: string, type: RecordTypeName): DnsAnswer {
  if (message.length < 12) garbage('it is shorter than a DNS header');
  const flags = message.readUInt16BE(2);
  if ((flags & QR) === 0) garbage('it is a query, not a response');
  if ((flags & OPCODE_MASK) !== 0) garbage('its opcode is not QUERY');
  if (message.readUInt16BE(0) !== 0) garbage('its ID does not match the query');
  let packet: dnsPacket.DecodedPacket;
  try {
    packet = dnsPacket.decode(message);
  } catch {
    return garbage('it cannot be decoded');
  }
  if (dnsPacket.decode.bytes !== message.length) garbage('its length does not match its content');
  const questions = packet.questions ?? [];
  if (questions.length > 1) garbage('it holds more than one question');
  if (questions.length === 1) {
    const question = firstQuestion(message);
    if (question.name.toLowerCase() !== name || question.type !== RECORD_TYPES[type]) garbage('it answers another question');
  }
  let records: PresentedRecord[];
  try {
    records = (packet.answers ?? []).map(presentRecord);
  } catch {
    return garbage('a record cannot be presented');
  }
  return { status: rcodeName(flags & RCODE_MASK), authenticated: packet.flag_ad, records };
}
