/**
 * Decoding of UUIDs (any version, RFC 9562) and ULIDs: normalized form, version, variant and the
 * embedded timestamp of the time-based versions.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { decodeTime } from 'ulid';

export type Variant = 'NCS' | 'RFC 9562' | 'Microsoft' | 'reserved';

export interface Decoded {
  kind: 'uuid' | 'ulid';
  normalized: string;
  version?: number;
  variant?: Variant;
  timestamp?: string;
}

/** Longest accepted form: `urn:uuid:` + 36 characters. Anything longer is refused unread. */
const LONGEST_FORM = 45;
const HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAIN_HEX = /^[0-9a-f]{32}$/i;
const URN_PREFIX = /^urn:uuid:/i;
// Crockford Base32 without I, L, O and U, any case; the first character carries the top 3 bits of
// the 48-bit time, so it must be 0–7.
const ULID_FORM = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
/** Gregorian 100-ns ticks from 1582-10-15 to 1970-01-01 (RFC 9562 §5.1). */
const GREGORIAN_OFFSET_TICKS = 0x01b21dd213814000n;
const TICKS_PER_MS = 10_000n;

function invalid(message: string): never {
  throw new UnprocessableError('invalid_id', message);
}

/** Strips at most one wrapper (`{…}` or `urn:uuid:`) and returns the 32 hex digits, lowercase. */
function uuidHex(id: string): string | undefined {
  let body = id;
  if (body.startsWith('{') && body.endsWith('}')) body = body.slice(1, -1);
  else if (URN_PREFIX.test(body)) body = body.slice('urn:uuid:'.length);
  if (HYPHENATED.test(body)) return body.replaceAll('-', '').toLowerCase();
  if (PLAIN_HEX.test(body)) return body.toLowerCase();
  return undefined;
}

/** RFC 9562 §4.1, table 1: the variant is read from the top bits of octet 8. */
export function variantOf(octet8: number): Variant {
  if ((octet8 & 0x80) === 0) return 'NCS';
  if ((octet8 & 0xc0) === 0x80) return 'RFC 9562';
  if ((octet8 & 0xe0) === 0xc0) return 'Microsoft';
  return 'reserved';
}

function gregorianTicksToIso(ticks: bigint): string {
  const unixTicks = ticks - GREGORIAN_OFFSET_TICKS;
  // Floor toward negative infinity: BigInt division truncates, which would round pre-1970 times up.
  let ms = unixTicks / TICKS_PER_MS;
  if (unixTicks % TICKS_PER_MS < 0n) ms -= 1n;
  return new Date(Number(ms)).toISOString();
}

function timestampOf(hex: string, version: number): string | undefined {
  switch (version) {
    case 1: {
      // time_low (32) | time_mid (16) | version (4) + time_high (12)
      const ticks = (BigInt(`0x${hex.slice(13, 16)}`) << 48n) | (BigInt(`0x${hex.slice(8, 12)}`) << 32n) | BigInt(`0x${hex.slice(0, 8)}`);
      return gregorianTicksToIso(ticks);
    }
    case 6: {
      // time_high (32) | time_mid (16) | version (4) + time_low (12)
      const ticks = (BigInt(`0x${hex.slice(0, 8)}`) << 28n) | (BigInt(`0x${hex.slice(8, 12)}`) << 12n) | BigInt(`0x${hex.slice(13, 16)}`);
      return gregorianTicksToIso(ticks);
    }
    case 7:
      return new Date(Number.parseInt(hex.slice(0, 12), 16)).toISOString();
    default:
      return undefined;
  }
}

function decodeUuid(hex: string): Decoded {
  const version = Number.parseInt(hex[12]!, 16);
  const variant = variantOf(Number.parseInt(hex.slice(16, 18), 16));
  const normalized = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const decoded: Decoded = { kind: 'uuid', normalized, version, variant };
  // The version field only means something in the RFC 9562 variant; a "v1" of another variant has
  // no defined timestamp layout.
  const timestamp = variant === 'RFC 9562' ? timestampOf(hex, version) : undefined;
  if (timestamp !== undefined) decoded.timestamp = timestamp;
  return decoded;
}

function decodeUlid(id: string): Decoded {
  const normalized = id.toUpperCase();
  if (normalized[0]! > '7') invalid('The ULID timestamp overflows 48 bits: the first character must be 0–7');
  return { kind: 'ulid', normalized, timestamp: new Date(decodeTime(normalized)).toISOString() };
}

export function decodeId(id: string): Decoded {
  if (id.length > LONGEST_FORM) invalid(`Not a UUID or ULID: ${id.length} characters is longer than any accepted form`);
  const hex = uuidHex(id);
  if (hex !== undefined) return decodeUuid(hex);
  if (id.length === 26) {
    if (ULID_FORM.test(id)) return decodeUlid(id);
    invalid('Not a ULID: it has a character outside Crockford Base32 (0-9, A-Z without I, L, O, U)');
  }
  return invalid(
    'Not a UUID or ULID: expected 32 hex digits (optionally hyphenated 8-4-4-4-12, in braces or after urn:uuid:) or 26 Crockford Base32 characters',
  );
}
