/**
 * For tests only: a real DNS-over-HTTPS server on 127.0.0.1 (node:http, a free port) that decodes
 * the wire query with dns-packet and answers from a small in-memory zone, so the plugin is tested
 * end to end without the network. Behaviours other than a zone answer are plugged in per test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

/** A query as the server received it. */
export interface ReceivedQuery {
  /** HTTP method, path and the Accept header of the request. */
  readonly method: string;
  readonly path: string;
  readonly accept: string | undefined;
  /** The raw `dns` parameter and the bytes it decodes to. */
  readonly param: string;
  readonly wire: Buffer;
  /** Header fields and the first question, read from the wire. */
  readonly id: number;
  readonly flags: number;
  readonly name: string;
  readonly type: number;
}

/** A record to answer with: one dns-packet can encode, or raw rdata of any type number. */
export type ZoneRecord = dnsPacket.Answer | { readonly name: string; readonly typeCode: number; readonly ttl: number; readonly rdata: Buffer };

/** What the zone says for one name and type. */
export interface ZoneEntry {
  readonly rcode?: number;
  readonly ad?: boolean;
  readonly answers?: readonly ZoneRecord[];
}

/** Zone key: `<name>/<type number>`. */
export type Zone = Record<string, ZoneEntry>;

/**
 * Handles one request itself: answer through `response`, call `answer()` (now or later) for the
 * zone's answer, or return false to have the zone answer at once.
 */
export type Behaviour = (query: ReceivedQuery, response: ServerResponse, answer: () => void) => boolean | void;

/** A running fake resolver. */
export interface FakeResolver {
  readonly url: string;
  readonly queries: ReceivedQuery[];
  /** Replaces the per-request behaviour (undefined: answer from the zone). */
  behave(behaviour: Behaviour | undefined): void;
  close(): Promise<void>;
}

function encodeName(name: string): Buffer {
  const labels = name === '.' ? [] : name.split('.');
  return Buffer.concat([...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'latin1')])), Buffer.from([0])]);
}

/** One resource record written by hand (RFC 1035 §4.1.3): for types dns-packet cannot encode. */
export function rawRecord(name: string, typeCode: number, ttl: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(10);
  fixed.writeUInt16BE(typeCode, 0);
  fixed.writeUInt16BE(1, 2);
  fixed.writeUInt32BE(ttl, 4);
  fixed.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([encodeName(name), fixed, rdata]);
}

/**
 * A response to `query`: its ID, QR set, RD and RA set, AD and RCODE as given, the question copied
 * from the query, then the answers. dns-packet never compresses names, so its answer bytes can be
 * moved after a copied question without breaking pointers.
 */
export function encodeResponse(query: Buffer, entry: ZoneEntry): Buffer {
  const packed = (entry.answers ?? []).filter((answer): answer is dnsPacket.Answer => !('typeCode' in answer));
  const raw = (entry.answers ?? []).filter((answer) => 'typeCode' in answer);
  const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (entry.ad === true ? dnsPacket.AUTHENTIC_DATA : 0) | (entry.rcode ?? 0);
  const body = dnsPacket.encode({ type: 'response', id: query.readUInt16BE(0), flags, answers: packed });
  const header = Buffer.from(body.subarray(0, 12));
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(packed.length + raw.length, 6);
  const rawBytes = raw.map((record) => rawRecord(record.name, record.typeCode, record.ttl, record.rdata));
  return Buffer.concat([header, query.subarray(12), body.subarray(12), ...rawBytes]);
}

function parseQuery(request: IncomingMessage): ReceivedQuery {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const param = url.searchParams.get('dns') ?? '';
  const wire = Buffer.from(param, 'base64url');
  const decoded = dnsPacket.decode(wire);
  const question = decoded.questions?.[0];
  return {
    method: request.method ?? '',
    path: url.pathname,
    accept: request.headers.accept,
    param,
    wire,
    id: wire.readUInt16BE(0),
    flags: wire.readUInt16BE(2),
    name: question?.name ?? '',
    type: wire.readUInt16BE(wire.length - 4),
  };
}

/** Starts a fake resolver answering from `zone` (unknown names: NXDOMAIN). */
export async function startResolver(zone: Zone = {}): Promise<FakeResolver> {
  const queries: ReceivedQuery[] = [];
  let behaviour: Behaviour | undefined;
  const server: Server = createServer((request, response) => {
    const query = parseQuery(request);
    queries.push(query);
    const answer = (): void => {
      // A name the zone knows but not with this type: NOERROR without records (NODATA); else NXDOMAIN.
      const known = Object.keys(zone).some((key) => key.startsWith(`${query.name}/`));
      const entry = zone[`${query.name}/${query.type}`] ?? (known ? {} : { rcode: 3 });
      response.writeHead(200, { 'Content-Type': 'application/dns-message' });
      response.end(encodeResponse(query.wire, entry));
    };
    if (behaviour !== undefined && behaviour(query, response, answer) !== false) return;
    answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/dns-query`,
    queries,
    behave: (next) => {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A lookup's answer in presentation form, as the manifest's examples give it. */
export interface PresentedLookup {
  readonly name: string;
  readonly results: readonly { readonly type: string; readonly authenticated: boolean; readonly records: readonly { readonly name: string; readonly type: string; readonly ttl: number; readonly data: string }[] }[];
}

/**
 * The zone a resolver must hold for a lookup to answer `expected`: each record turned back from
 * presentation form into dns-packet data, for the record types the manifest's examples use.
 */
export function zoneAnswering(expected: PresentedLookup): Zone {
  const codes: Record<string, number> = { A: 1, MX: 15, TXT: 16, PTR: 12 };
  const zone: Zone = {};
  for (const result of expected.results) {
    zone[`${expected.name}/${codes[result.type]}`] = {
      ad: result.authenticated,
      answers: result.records.map((record) => {
        const base = { name: record.name, ttl: record.ttl };
        if (record.type === 'MX') return { ...base, type: 'MX' as const, data: { preference: Number(record.data.split(' ')[0]), exchange: record.data.split(' ')[1]!.replace(/\.$/, '') || '.' } };
        if (record.type === 'TXT') return { ...base, type: 'TXT' as const, data: [JSON.parse(record.data) as string] };
        if (record.type === 'A') return { ...base, type: 'A' as const, data: record.data };
        return { ...base, type: record.type as 'CNAME' | 'PTR', data: record.data.slice(0, -1) };
      }),
    };
  }
  return zone;
}
