/**
 * Reading a compact JWS without verifying it: the three parts, the header and claims as JSON
 * objects, the validity window against a clock, and the time claims as ISO 8601.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';

export type JsonObject = Record<string, unknown>;
export type TokenStatus = 'valid' | 'expired' | 'not-yet-valid' | null;
export type TimeClaim = 'exp' | 'nbf' | 'iat' | 'auth_time';
export type Times = Partial<Record<TimeClaim, string>>;

export interface DecodedToken {
  /** The token without `Bearer ` and surrounding whitespace: what the signature covers, with the signature. */
  readonly compact: string;
  readonly header: JsonObject;
  readonly payload: JsonObject;
}

/**
 * Deepest nesting accepted in the header or claims. JWT claims are shallow; the cap keeps the
 * answer's serialisation (recursive in V8) far from the stack limit whatever the token holds.
 */
export const MAX_JSON_DEPTH = 64;

const TIME_CLAIMS: readonly TimeClaim[] = ['exp', 'nbf', 'iat', 'auth_time'];
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** RFC 6750 §2.1: the scheme name is case-insensitive, followed by one or more spaces. */
const BEARER = /^bearer +/i;
/** Date's range: ±8.64e15 ms (ECMA-262 §21.4.1.1). */
const MAX_DATE_MS = 8.64e15;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function invalid(message: string): UnprocessableError {
  return new UnprocessableError('invalid_token', message);
}

/** Strips surrounding whitespace and a leading `Bearer ` (any case). */
export function stripBearer(token: string): string {
  return token.trim().replace(BEARER, '');
}

/** Deepest `{`/`[` nesting of JSON text, counted outside strings; linear and iterative. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === '}' || char === ']') depth--;
  }
  return deepest;
}

/**
 * How a part that does not decode is refused. The payload's problems are told as such; the header
 * comes first, so when it does not decode the text is most likely not a JWT at all, and the message
 * says that and what a JWT's first part looks like.
 */
function undecodable(name: 'header' | 'payload', problem: string): UnprocessableError {
  if (name === 'payload') return invalid(`The payload ${problem}`);
  return invalid(`This is not a JWT: its first part must be the header, base64url-encoded JSON (so it starts with "eyJ"), but it ${problem}`);
}

function decodeObject(part: string, name: 'header' | 'payload'): JsonObject {
  if (part === '') throw undecodable(name, 'is empty');
  // RFC 7515 §2: base64url without padding; a length of 4n + 1 cannot come from any bytes.
  if (!BASE64URL.test(part) || part.length % 4 === 1) throw undecodable(name, 'is not base64url (RFC 7515: A–Z a–z 0–9 - _, no padding)');
  let text: string;
  try {
    text = utf8.decode(Buffer.from(part, 'base64url'));
  } catch {
    throw undecodable(name, 'decodes to bytes that are not UTF-8 text');
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw invalid(`The ${name} is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw undecodable(name, 'decodes to text that is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw undecodable(name, 'decodes to JSON that is not an object');
  return value as JsonObject;
}

/**
 * Splits and decodes a compact JWT. Exactly three parts; five parts is an encrypted token (JWE),
 * whose claims cannot be read without the recipient's key. The signature part is checked to be
 * base64url but not verified here.
 */
export function decodeToken(raw: string): DecodedToken {
  const compact = stripBearer(raw);
  const parts = compact.split('.', 6);
  if (parts.length === 5) {
    throw invalid('This is an encrypted JWT (JWE, 5 parts): its claims cannot be read without the decryption key');
  }
  if (parts.length !== 3) throw invalid(`A JWT has 3 dot-separated parts (header.payload.signature); this token has ${parts.length === 6 ? 'more than 5' : parts.length}`);
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeObject(headerPart, 'header');
  const payload = decodeObject(payloadPart, 'payload');
  if (!BASE64URL.test(signaturePart) || signaturePart.length % 4 === 1) throw invalid('The signature is not base64url');
  return { compact, header, payload };
}

/** A NumericDate claim in milliseconds, or undefined when absent, not a number, or outside Date's range. */
function numericDateMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const ms = value * 1000;
  return Math.abs(ms) <= MAX_DATE_MS ? ms : undefined;
}

/**
 * RFC 7519 §4.1.4: expired "on or after" exp; §4.1.5: not yet valid before nbf. No leeway. A token
 * both past exp and before nbf (exp < nbf, never valid) is `expired`: it can never become valid.
 * A claim that is not a usable number counts as absent.
 */
export function tokenStatus(payload: JsonObject, now: Date): TokenStatus {
  const exp = numericDateMs(payload.exp);
  const nbf = numericDateMs(payload.nbf);
  if (exp === undefined && nbf === undefined) return null;
  const nowMs = now.getTime();
  if (exp !== undefined && nowMs >= exp) return 'expired';
  if (nbf !== undefined && nowMs < nbf) return 'not-yet-valid';
  return 'valid';
}

/** exp, nbf, iat and auth_time as ISO 8601 (UTC, milliseconds), for those present as usable numbers. */
export function tokenTimes(payload: JsonObject): Times {
  const times: Times = {};
  for (const claim of TIME_CLAIMS) {
    const ms = numericDateMs(payload[claim]);
    if (ms !== undefined) times[claim] = new Date(ms).toISOString();
  }
  return times;
}
