/**
 * The text a QR code carries for each kind of content: the de-facto formats phone cameras read
 * (ZXing's WIFI: syntax, vCard 3.0, mailto: URIs).
 */
import { InputError } from '@toolshed/plugin-sdk';

export interface WifiContent {
  type: 'wifi';
  ssid: string;
  password: string;
  security: 'WPA' | 'WEP' | 'nopass';
  hidden: boolean;
}

export interface ContactContent {
  type: 'contact';
  firstName: string;
  lastName: string;
  organization: string;
  title: string;
  phone: string;
  email: string;
  website: string;
}

export interface EmailContent {
  type: 'email';
  to: string;
  subject: string;
  body: string;
}

export interface TextContent {
  type: 'text';
  text: string;
}

export type Content = TextContent | WifiContent | ContactContent | EmailContent;

/** ZXing's WIFI: syntax escapes `\ ; , : "` with a backslash. */
const escapeWifi = (value: string): string => value.replace(/[\\;,:"]/g, (char) => `\\${char}`);

/** The wifi rule, as the schema states it and as its 400 words it. */
export const NOPASS_WITHOUT_PASSWORD = 'must be empty when security is nopass';
/** The contact fields of which one must not be empty (a title alone names nobody). */
export const CONTACT_FIELDS = ['firstName', 'lastName', 'organization', 'email', 'phone', 'website'] as const;
export const CONTACT_NEEDS_A_FIELD = 'at least one of firstName, lastName, organization, email, phone and website must not be empty';

/**
 * `WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;`. P is left out when the password is empty (ZXing:
 * "may be omitted" for an open network); H only for a hidden network.
 */
export function wifiPayload({ ssid, password, security, hidden }: WifiContent): string {
  if (security === 'nopass' && password !== '') {
    // Dropping it silently would hide a client mistake: an open network has no password.
    throw new InputError('An open network (security nopass) takes no password', [
      { path: '/content/password', message: NOPASS_WITHOUT_PASSWORD },
    ]);
  }
  const fields = [`T:${security}`, `S:${escapeWifi(ssid)}`];
  if (password !== '') fields.push(`P:${escapeWifi(password)}`);
  if (hidden) fields.push('H:true');
  return `WIFI:${fields.join(';')};;`;
}

/** RFC 6350 §3.4 text escaping (vCard 3.0, RFC 2426, escapes the same way): `\` `,` `;` and newlines. */
const escapeVcard = (value: string): string =>
  value.replace(/[\\,;]|\r\n|\r|\n/g, (match) => (match === '\\' || match === ',' || match === ';' ? `\\${match}` : '\\n'));

/**
 * vCard 3.0 with CRLF line ends and only the given fields. N and FN are required by RFC 2426: N
 * always (empty components when there are no names), FN from the names, else the organization,
 * else the email, phone or website. Lines are not folded: readers accept long lines and folding
 * would only grow the code.
 */
export function contactPayload(contact: ContactContent): string {
  const names = [contact.firstName, contact.lastName].filter((name) => name !== '').join(' ');
  const formatted = [names, contact.organization, contact.email, contact.phone, contact.website].find((value) => value !== '');
  if (formatted === undefined) {
    throw new InputError('A contact needs at least one field', CONTACT_FIELDS.map((name) => ({ path: `/content/${name}`, message: CONTACT_NEEDS_A_FIELD })));
  }
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:${escapeVcard(contact.lastName)};${escapeVcard(contact.firstName)};;;`, `FN:${escapeVcard(formatted)}`];
  const optional: [string, string][] = [
    ['ORG', contact.organization],
    ['TITLE', contact.title],
    ['TEL', contact.phone],
    ['EMAIL', contact.email],
    ['URL', contact.website],
  ];
  for (const [property, value] of optional) if (value !== '') lines.push(`${property}:${escapeVcard(value)}`);
  lines.push('END:VCARD');
  return lines.join('\r\n');
}

/**
 * `mailto:<to>?subject=…&body=…` (RFC 6068), percent-encoded with encodeURIComponent (a space is
 * %20, never +). In `to`, `@` and the `,` that separates several addresses stay literal.
 */
export function emailPayload({ to, subject, body }: EmailContent): string {
  if (to.trim() === '') throw new InputError('The email needs a recipient', [{ path: '/content/to', message: 'must not be blank' }]);
  const address = encodeURIComponent(to.trim()).replace(/%40/g, '@').replace(/%2C/g, ',');
  const query: string[] = [];
  if (subject !== '') query.push(`subject=${encodeURIComponent(subject)}`);
  if (body !== '') query.push(`body=${encodeURIComponent(body)}`);
  return query.length === 0 ? `mailto:${address}` : `mailto:${address}?${query.join('&')}`;
}

export function payloadOf(content: Content): string {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'wifi':
      return wifiPayload(content);
    case 'contact':
      return contactPayload(content);
    case 'email':
      return emailPayload(content);
  }
}
