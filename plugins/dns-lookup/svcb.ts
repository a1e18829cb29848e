/**
 * SVCB and HTTPS record data (RFC 9460), which dns-packet 5.6.1 does not decode: the raw rdata is
 * parsed here and written in the presentation form of RFC 9460 §2.1 / Appendix A, as `dig` prints
 * it: `1 . alpn="h3,h2" ipv4hint=104.16.132.229 ipv6hint=2606:4700::6810:84e5`.
 */
import { escapeLabel, genericData, quoteBytes } from './escape.js';

// IANA "Service Parameter Keys (SvcParamKeys)": RFC 9460 §14.3.2, RFC 9461 (dohpath), RFC 9540 (ohttp).
const KEY_NAMES = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint', 'dohpath', 'ohttp'];

class Malformed extends Error {}

function keyName(key: number): string {
  return KEY_NAMES[key] ?? `key${key}`;
}

/** An IPv6 address in RFC 5952 form: lowercase, no leading zeros, the longest zero run as `::`. */
export function formatIPv6(bytes: Uint8Array): string {
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((bytes[i] << 8) | bytes[i + 1]);
  let bestStart = -1;
  let bestLength = 1; // RFC 5952 §4.2.2: a single zero group is not shortened.
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j += 1;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Splits `value` into items of `size` bytes; the length must be a non-zero multiple of `size`. */
function items(value: Uint8Array, size: number): Uint8Array[] {
  if (value.length === 0 || value.length % size !== 0) throw new Malformed();
  const result: Uint8Array[] = [];
  for (let i = 0; i < value.length; i += size) result.push(value.subarray(i, i + size));
  return result;
}

/** alpn: length-prefixed ids; in the list a comma or backslash inside an id is escaped (Appendix A.1). */
function alpnList(value: Uint8Array): string {
  const ids: string[] = [];
  for (let i = 0; i < value.length; ) {
    const length = value[i];
    if (length === 0 || i + 1 + length > value.length) throw new Malformed();
    const id = Buffer.from(value.subarray(i + 1, i + 1 + length)).toString('latin1');
    ids.push(id.replace(/[\\,]/g, (char) => `\\${char}`));
    i += 1 + length;
  }
  if (ids.length === 0) throw new Malformed();
  return quoteBytes(Buffer.from(ids.join(','), 'latin1'));
}

/** `key=value` (or the bare key) for one SvcParam; throws Malformed when the value breaks its format. */
function presentParam(key: number, value: Uint8Array): string {
  const name = keyName(key);
  switch (key) {
    case 0:
      return `${name}=${items(value, 2)
        .map((item) => keyName((item[0] << 8) | item[1]))
        .join(',')}`;
    case 1:
      return `${name}=${alpnList(value)}`;
    case 2:
    case 8:
      if (value.length !== 0) throw new Malformed();
      return name;
    case 3:
      if (value.length !== 2) throw new Malformed();
      return `${name}=${(value[0] << 8) | value[1]}`;
    case 4:
      return `${name}=${items(value, 4)
        .map((item) => item.join('.'))
        .join(',')}`;
    case 5:
      return `${name}=${Buffer.from(value).toString('base64')}`;
    case 6:
      return `${name}=${items(value, 16).map(formatIPv6).join(',')}`;
    default:
      // dohpath and unknown keys: the value as a quoted character-string.
      return `${name}=${quoteBytes(value)}`;
  }
}

/** SvcPriority, TargetName and SvcParams of `rdata`; throws Malformed when they break RFC 9460 §2.2. */
function parse(rdata: Uint8Array): string {
  if (rdata.length < 3) throw new Malformed();
  const priority = (rdata[0] << 8) | rdata[1];
  // The TargetName is never compressed (RFC 9460 §2.2), so it can be read from the rdata alone.
  const labels: string[] = [];
  let offset = 2;
  for (;;) {
    if (offset >= rdata.length) throw new Malformed();
    const length = rdata[offset];
    if (length > 63 || offset + 1 + length > rdata.length) throw new Malformed();
    offset += 1;
    if (length === 0) break;
    labels.push(escapeLabel(rdata.subarray(offset, offset + length)));
    offset += length;
  }
  const parts = [String(priority), labels.length === 0 ? '.' : `${labels.join('.')}.`];
  let previous = -1;
  while (offset < rdata.length) {
    if (offset + 4 > rdata.length) throw new Malformed();
    const key = (rdata[offset] << 8) | rdata[offset + 1];
    const length = (rdata[offset + 2] << 8) | rdata[offset + 3];
    // Keys must be strictly increasing on the wire (RFC 9460 §2.2).
    if (key <= previous || offset + 4 + length > rdata.length) throw new Malformed();
    parts.push(presentParam(key, rdata.subarray(offset + 4, offset + 4 + length)));
    previous = key;
    offset += 4 + length;
  }
  return parts.join(' ');
}

/**
 * The presentation form of SVCB/HTTPS rdata. Data that breaks the wire format of RFC 9460 §2.2 is
 * shown in the generic form `\# <length> <hex>` rather than failing the whole lookup.
 */
export function presentSvcb(rdata: Uint8Array): string {
  try {
    return parse(rdata);
  } catch (error) {
    if (error instanceof Malformed) return genericData(rdata);
    throw error;
  }
}
