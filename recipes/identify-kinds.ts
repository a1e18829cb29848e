/**
 * Kinds people paste that no operation here reads, so no recognizer of a manifest names them:
 * identify names them anyway (a candidate without steps and with a note saying why), rather than
 * answering nothing. Plain data, as the manifests' patterns are: tested on the same sample.
 */

/** A kind identify names without a recipe. */
export interface NamedKind {
  readonly kind: string;
  readonly title: string;
  readonly pattern: RegExp;
  readonly confidence: number;
  /** Why no recipe: said to the person beside the name. */
  readonly note: string;
}

const DIGEST_NOTE = 'No tool here reads it: a digest cannot be turned back into what was hashed. hash-generator/hash makes digests to compare it with.';
const hexDigest = (kind: string, title: string, digits: number, prefix = ''): NamedKind => ({
  kind,
  title,
  pattern: new RegExp(`^(?:${prefix})?[0-9a-f]{${digits}}$`, 'i'),
  confidence: 0.75,
  note: DIGEST_NOTE,
});
const h16 = '[0-9a-f]{1,4}';
const ipv4 = '(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Every RFC 4291 text form: eight groups, one `::` for a run of zero groups, an IPv4 tail, a zone after `%`. */
const ipv6 = [
  `(?:${h16}:){7}${h16}`,
  `(?:${h16}:){1,7}:`,
  `(?:${h16}:){1,6}:${h16}`,
  `(?:${h16}:){1,5}(?::${h16}){1,2}`,
  `(?:${h16}:){1,4}(?::${h16}){1,3}`,
  `(?:${h16}:){1,3}(?::${h16}){1,4}`,
  `(?:${h16}:){1,2}(?::${h16}){1,5}`,
  `${h16}:(?::${h16}){1,6}`,
  `:(?:(?::${h16}){1,7}|:)`,
  `(?:${h16}:){6}${ipv4}`,
  `(?:${h16}:){0,5}:${ipv4}`,
  `::(?:ffff(?::0{1,4})?:)?${ipv4}`,
].join('|');
const IPV6_NOTE =
  'No tool here reads it: subnet-calculator reads IPv4 only, and dns-lookup (a reverse lookup) asks an outside resolver, which identify never runs.';

export const NAMED_KINDS: readonly NamedKind[] = [
  { kind: 'pem', title: 'PEM block', pattern: /^-----BEGIN [A-Z0-9 ]{1,60}-----\r?\n[A-Za-z0-9+/=\r\n:,\- ]+-----END [A-Z0-9 ]{1,60}-----/, confidence: 0.95, note: 'No tool here reads it alone; jwt-decoder/verify takes a PEM public key to check a token\'s signature.' },
  // Eight pairs of hex digits between colons are bytes written out (text-converter reads those), not an address.
  { kind: 'ipv6', title: 'IPv6 address', pattern: new RegExp(`^(?!(?:[0-9a-f]{2}:)+[0-9a-f]{2}$)\\[?(?:${ipv6})(?:%[0-9a-z._~-]+)?\\]?$`, 'i'), confidence: 0.9, note: IPV6_NOTE },
  { kind: 'ipv6-cidr', title: 'IPv6 network (CIDR)', pattern: new RegExp(`^(?:${ipv6})/(?:12[0-8]|1[01]\\d|[1-9]?\\d)$`, 'i'), confidence: 0.9, note: IPV6_NOTE },
  {
    kind: 'mac-address',
    title: 'MAC address',
    pattern: /^(?:(?:[0-9a-f]{2}:){5}[0-9a-f]{2}|(?:[0-9a-f]{2}-){5}[0-9a-f]{2}|(?:[0-9a-f]{4}\.){2}[0-9a-f]{4})$/i,
    confidence: 0.85,
    note: 'No tool here reads it.',
  },
  hexDigest('md5', 'MD5 digest (hex)', 32),
  hexDigest('sha-1', 'SHA-1 digest (hex), or a Git commit id', 40),
  hexDigest('sha-256', 'SHA-256 digest (hex)', 64, 'sha256[:=]'),
  hexDigest('sha-384', 'SHA-384 digest (hex)', 96),
  hexDigest('sha-512', 'SHA-512 digest (hex)', 128),
  {
    kind: 'base32',
    title: 'Base32',
    // RFC 4648 section 6: groups of eight, the last padded; a digit or padding, so words in capitals stay out.
    pattern: /^(?=[A-Z2-7=]*[2-7=])(?:[A-Z2-7]{8})*(?:[A-Z2-7]{8}|[A-Z2-7]{2}={6}|[A-Z2-7]{4}={4}|[A-Z2-7]{5}={3}|[A-Z2-7]{7}=)$/,
    confidence: 0.7,
    note: 'No tool here reads Base32.',
  },
  {
    kind: 'base64',
    title: 'Base64 (binary data)',
    // Long enough, with lower- and upper-case letters and a digit, + or /: what Base64 of bytes looks like.
    pattern: /^(?=[\s\S]{24})(?=[^+/0-9]*[+/0-9])(?=[^a-z]*[a-z])(?=[^A-Z]*[A-Z])[A-Za-z0-9+/\r\n]+={0,2}$/,
    confidence: 0.6,
    note: 'Valid Base64 of bytes that are not text: no tool here shows them (exif-viewer reads JPEG, PNG and WebP images; hash-generator hashes bytes given as dataBase64).',
  },
  {
    kind: 'percent-encoding',
    title: 'Percent-encoded bytes (not UTF-8)',
    // RFC 3986's shape: only characters a URI may carry as they are, and % always before two hex digits.
    pattern: /^(?![a-z][a-z0-9+.-]*:)(?:[\w.~!$&'()*+,;=:@/?#[\]-]|%[0-9a-f]{2})*%[0-9a-f]{2}(?:[\w.~!$&'()*+,;=:@/?#[\]-]|%[0-9a-f]{2})*$/i,
    confidence: 0.6,
    note: 'Its escapes are bytes that are not UTF-8 text (Latin-1, Shift_JIS…): url-encoder/decode reads UTF-8 only.',
  },
  {
    kind: 'cron',
    title: 'Cron expression (Quartz or Jenkins syntax)',
    // Five to seven fields, one of them * or ?, with the signs standard cron lacks (L W # H ?).
    pattern: /^(?=[^\n]*[*?])(?=[^\n]*[LW#H?])(?:[\d*?/,LW#H()-]+|[a-z]{3}(?:[-,#][a-z0-9]{1,3})*)(?:[ \t]+(?:[\d*?/,LW#H()-]+|[a-z]{3}(?:[-,#][a-z0-9]{1,3})*)){4,6}$/i,
    confidence: 0.7,
    note: 'cron-expression reads standard five-field cron: ?, L, W, # and Jenkins H are not part of it.',
  },
];
