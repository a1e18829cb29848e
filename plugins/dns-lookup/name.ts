/**
 * Turns what a user pastes (a domain, a URL, an e-mail address or an IP address) into the DNS name
 * to query. IP addresses become their reverse-lookup names (RFC 1035 §3.5, RFC 3596 §2.5).
 */
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { UnprocessableError } from '@toolshed/plugin-sdk';

/** The name to query, and whether it came from an IP address (then the lookup is PTR). */
export interface QueryName {
  /** Lowercase ASCII (punycode) without a trailing dot, or an in-addr.arpa / ip6.arpa name. */
  readonly name: string;
  /** True when the input was an IP address. */
  readonly reverse: boolean;
}

// RFC 1035 §2.3.4 / RFC 1123 §2.1: letters, digits and inner hyphens. Underscores are allowed too,
// because service labels such as _sip._tcp or _dmarc are what people look up TXT and SRV records for.
const label = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const urlStart = /^[a-z][a-z0-9+.-]*:\/\//i;
// Schemes whose hostnames the WHATWG URL parser already turns into lowercase punycode.
const specialSchemes = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:']);

function invalid(reason: string): never {
  throw new UnprocessableError('invalid_domain', `The name is not a valid domain, URL, e-mail address or IP address: ${reason}`);
}

/** 16 bytes of an address that `net.isIPv6` accepted (so the shape is already known to be sound). */
function ipv6Bytes(address: string): number[] {
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const result: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number);
        result.push((a << 8) | b, (c << 8) | d);
      } else result.push(parseInt(piece, 16));
    }
    return result;
  };
  const [head, tail] = address.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/** `1.2.3.4` → `4.3.2.1.in-addr.arpa` (RFC 1035 §3.5). */
export function reverseIPv4(address: string): string {
  return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
}

/** An IPv6 address → its 32 reversed nibbles under ip6.arpa (RFC 3596 §2.5). */
export function reverseIPv6(address: string): string {
  const nibbles = ipv6Bytes(address).flatMap((byte) => [byte >> 4, byte & 0x0f]);
  return `${nibbles.reverse().map((nibble) => nibble.toString(16)).join('.')}.ip6.arpa`;
}

/** The host part of a URL, an e-mail address or a bare host. */
function hostOf(text: string): string {
  if (urlStart.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return invalid('the URL cannot be parsed');
    }
    if (url.hostname === '') invalid('the URL has no host');
    if (specialSchemes.has(url.protocol)) return url.hostname;
    // Other schemes keep the host percent-encoded and not yet punycoded.
    try {
      return decodeURIComponent(url.hostname);
    } catch {
      return invalid('the URL host is not valid percent-encoded UTF-8');
    }
  }
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  if (at === 0) invalid('the e-mail address has no local part');
  return text.slice(at + 1);
}

function reverseOf(host: string): QueryName | undefined {
  // A URL host or an e-mail domain literal (RFC 5321 §4.1.3) writes an address in brackets.
  const bracketed = host.startsWith('[') && host.endsWith(']');
  const bare = bracketed ? host.slice(1, -1).replace(/^ipv6:/i, '') : host;
  if (isIPv4(bare)) return { name: reverseIPv4(bare), reverse: true };
  // A zone index (fe80::1%eth0) names a local interface; it has no place in a DNS name.
  if (isIPv6(bare) && !bare.includes('%')) return { name: reverseIPv6(bare), reverse: true };
  if (bracketed) invalid('the bracketed part is not an IP address');
  return undefined;
}

/**
 * Normalises `input` to the name to query: a URL gives its host, an e-mail address its domain, an
 * IDN its punycode form (UTS #46 via `domainToASCII`), an IP address its reverse name. Surrounding
 * whitespace and one trailing dot are ignored. Throws 422 `invalid_domain` for anything that is not
 * a valid host name afterwards.
 */
export function normaliseName(input: string): QueryName {
  const text = input.trim();
  if (text === '') invalid('it is empty');
  const host = hostOf(text);
  const reverse = reverseOf(host);
  if (reverse !== undefined) return reverse;
  // domainToASCII parses a URL host: it would cut "a/b.com" to "a" and decode "ex%41.com" to
  // "exa.com". A bare domain holding such characters is refused instead of silently changed.
  if (/[\s/?#\\@:%[\]<>^|]/.test(host)) invalid('it contains a character that has no place in a host name');
  const ascii = domainToASCII(host);
  if (ascii === '') invalid('it is not a valid internationalised domain name');
  const name = ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
  if (name === '') invalid('it is the DNS root');
  if (name.length > 253) invalid('it is longer than 253 characters');
  const labels = name.split('.');
  for (const part of labels) {
    if (part === '') invalid('it has an empty label');
    if (part.length > 63) invalid('a label is longer than 63 characters');
    if (!label.test(part)) invalid('a label holds a character other than a letter, digit, hyphen or underscore, or starts or ends with a hyphen');
    // Node 20 refuses an undecodable punycode label ("xn--zz"), Node 24's URL parser passes it
    // through unchanged: a real one decodes to something else, on every version.
    if (part.startsWith('xn--') && [part, ''].includes(domainToUnicode(part))) invalid('a punycode label does not decode');
  }
  // RFC 3696 §2: a top-level domain is never all-numeric, so "1.2.3.4." or "0x7f.1" is not a host name.
  if (/^[0-9]+$/.test(labels[labels.length - 1])) invalid('the top-level label is numeric');
  return { name, reverse: false };
}
