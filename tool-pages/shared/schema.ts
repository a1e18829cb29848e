/**
 * The part of JSON Schema the tool pages read, and small helpers over it. Shared by the server
 * (which renders the list page) and the browser script (which builds forms and answers).
 */

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The keywords of a (plain, OpenAPI 3.1) JSON Schema that the pages use. */
export interface Schema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: Json;
  const?: Json;
  enum?: Json[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  contentEncoding?: string;
  contentMediaType?: string;
}

export const isRecord = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Words written as people write them, not as a name in code (`ssid` → SSID). */
const WORDS: Record<string, string> = Object.fromEntries(
  ('API AA AAA BMI CIDR CMYK CSS CSV DNS DNSSEC ECDSA EXIF GPS HMAC HSL HSV HTML HTTP HTTPS ID IDs IP IPv4 IPv6 IPTC ISO JPEG JSON JWK JWKS JWT MAC MD5 ' +
    'OKLCH PEM PNG QR RFC RGB RGBA RSA SQL SSID SVG TTL TXT ULID URI URL UTC UTF-8 UUID VAT WCAG WEP WHO WPA XMP YAML SHA-1 SHA-224 SHA-256 SHA-384 SHA-512')
    .split(' ')
    .map((word) => [word.toLowerCase().replace(/-/g, ''), word]),
);
/** Names whose words say nothing to a person: JWT claims, mostly. */
const PHRASES: Record<string, string> = {
  iat: 'Issued at',
  exp: 'Expires',
  nbf: 'Not before',
  iss: 'Issuer',
  sub: 'Subject',
  aud: 'Audience',
  jti: 'Token ID',
  alg: 'Algorithm',
  typ: 'Type',
  kid: 'Key ID',
};
/** A trailing word that names how the value is written: `dataBase64` → "Data (Base64)". */
const ENCODINGS: Record<string, string> = { base64: 'Base64', base64url: 'Base64url', hex: 'hex' };

/** `firstHost` → "First host", `dataBase64` → "Data (Base64)", `ssid` → "SSID", `iat` → "Issued at". */
export function humanize(name: string): string {
  if (PHRASES[name]) return PHRASES[name];
  const words = name
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  const last = words[words.length - 1] ?? '';
  const encoding = words.length > 1 && ENCODINGS[last] ? ` (${ENCODINGS[last]})` : '';
  if (encoding) words.pop();
  const text = words.map((word, index) => WORDS[word] ?? (index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word)).join(' ');
  return text + encoding;
}

/** A field's label: its schema's `title`, else its name in words. */
export const labelOf = (name: string, schema: Schema | undefined): string => schema?.title ?? humanize(name);

/**
 * A fixed value as a person reads it: the `title` of its `const` branch when the schema gives one,
 * a camelCase word in words (`veryStrong` → "Very strong"), anything else as it is.
 */
export function valueLabel(value: Json, schema: Schema | undefined): string {
  const titled = alternativesOf(schema ?? {})?.find((branch) => branch.const === value && branch.title !== undefined);
  if (titled) return titled.title!;
  if (typeof value !== 'string') return JSON.stringify(value);
  return /^[a-z]+(?:[A-Z][a-z]+)+$/.test(value) ? humanize(value) : value;
}

/** The alternatives of a union schema (anyOf or oneOf), or undefined. */
export const alternativesOf = (schema: Schema): Schema[] | undefined => schema.anyOf ?? schema.oneOf;

/** The fixed values a schema allows (`enum`, `const`, or a union of consts), or undefined when it is open. */
export function literalsOf(schema: Schema): Json[] | undefined {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const alternatives = alternativesOf(schema);
  if (alternatives && alternatives.length > 0 && alternatives.every((entry) => entry.const !== undefined)) return alternatives.map((entry) => entry.const as Json);
  return undefined;
}

/** The JSON type of a schema: its `type`, or what its literals are. */
export function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((entry) => entry !== 'null');
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  const literals = literalsOf(schema);
  if (literals && literals.length > 0) return jsonTypeOf(literals[0]!);
  return undefined;
}

/** The JSON Schema type name of a value: integers are `integer`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** True when `value` could be an instance of `schema` as far as the pages care: its type and fixed members. */
export function roughlyMatches(schema: Schema, value: unknown): boolean {
  const literals = literalsOf(schema);
  if (literals) return literals.some((literal) => JSON.stringify(literal) === JSON.stringify(value));
  const type = typeOf(schema);
  const actual = jsonTypeOf(value);
  if (type === undefined) return true;
  if (type === 'number' ? actual !== 'number' && actual !== 'integer' : type !== actual) return false;
  if (type !== 'object' || !isRecord(value)) return true;
  // An object branch is chosen by its fixed members (a `type: 'wifi'` discriminator).
  return Object.entries(schema.properties ?? {}).every(([name, inner]) => {
    const fixed = literalsOf(inner);
    return fixed === undefined || fixed.length !== 1 || (name in value && JSON.stringify(value[name]) === JSON.stringify(fixed[0]));
  });
}

/** JSON Pointer segment escaping (RFC 6901). */
export const pointerSegment = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');
