/**
 * Escaping for the zone-file presentation form (RFC 1035 §5.1): names, <character-string>s and the
 * generic form of RFC 3597 §5.
 */

/** One byte as a zone file writes it: `\DDD` outside printable ASCII, `\X` for a special `X`. */
function escapeByte(byte: number, specials: string): string {
  if (byte < 0x21 || byte > 0x7e) return `\\${byte.toString().padStart(3, '0')}`;
  const char = String.fromCharCode(byte);
  return specials.includes(char) ? `\\${char}` : char;
}

/** A <character-string> in quotes: `"` and `\` escaped, other non-printable bytes as `\DDD`. */
export function quoteBytes(bytes: Uint8Array): string {
  let text = '"';
  for (const byte of bytes) text += byte === 0x20 ? ' ' : escapeByte(byte, '"\\');
  return `${text}"`;
}

/** Label bytes of a wire name, escaped; a dot or backslash inside a label becomes `\.` / `\\`. */
export function escapeLabel(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += escapeByte(byte, '.\\"();');
  return text;
}

/**
 * A name as dns-packet decodes it (labels joined by dots, no trailing dot, "." for the root). The
 * label boundaries are already lost, so only bytes that would break the zone-file syntax are
 * escaped; a backslash is kept as is, because dns-packet writes `\.` for a dot in an SOA mailbox.
 */
export function presentName(name: string): string {
  let text = '';
  for (const byte of Buffer.from(name, 'utf8')) text += escapeByte(byte, '"();');
  return text;
}

/** A domain name inside record data: fully qualified, with its trailing dot. */
export function fqdn(name: string): string {
  return name === '.' || name === '' ? '.' : `${presentName(name)}.`;
}

/** RFC 3597 §5 generic form: `\# 4 0A000001`. */
export function genericData(bytes: Uint8Array): string {
  return bytes.length === 0 ? '\\# 0' : `\\# ${bytes.length} ${Buffer.from(bytes).toString('hex').toUpperCase()}`;
}
