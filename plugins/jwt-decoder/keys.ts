/**
 * Turning the `key` text into verification keys that fit the token's algorithm. The rule that
 * matters most: a public key (PEM, certificate, public JWK, or its DER bytes) is never used as an
 * HMAC secret, because a verifier that does so accepts HS256 tokens forged with the public key's
 * text (the algorithm-confusion attack, CVE-2015-9235 and its many descendants).
 */
import { X509Certificate, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { algorithmFamily, fitsAlgorithm, type Family } from './algorithms.data.js';

export type VerificationKey = KeyObject | Uint8Array;
export type SecretEncoding = 'utf8' | 'base64';

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

const invalidKey = (message: string) => new UnprocessableError('invalid_key', message);
const mismatch = (message: string) => new UnprocessableError('key_mismatch', message);
const notFound = (message: string) => new UnprocessableError('key_not_found', message);

/** Shortens a value from the request for a message (kid values are the caller's, but may be long). */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `bytes` are DER of a public key (SPKI) or an X.509 certificate. */
function isDerPublicKey(bytes: Buffer): boolean {
  if (bytes[0] !== 0x30) return false; // every DER structure here starts with SEQUENCE
  try {
    createPublicKey({ key: bytes, format: 'der', type: 'spki' });
    return true;
  } catch {
    // not SPKI; a certificate, maybe
  }
  try {
    new X509Certificate(bytes);
    return true;
  } catch {
    return false;
  }
}

function hmacSecret(key: string, encoding: SecretEncoding, alg: string): Uint8Array {
  const looksEncoded = BASE64.test(key.replace(/\s+/g, ''));
  let bytes: Buffer;
  if (encoding === 'base64') {
    if (!looksEncoded) throw invalidKey('The secret is not base64 (secretEncoding is base64)');
    // Node's base64 decoder takes the base64url alphabet as well.
    bytes = Buffer.from(key.replace(/\s+/g, ''), 'base64');
  } else bytes = Buffer.from(key, 'utf8');
  if (bytes.length === 0) throw invalidKey('The secret is empty');
  // A public key without its PEM armour is still a public key: refuse it as raw DER, or as the
  // base64 text of DER.
  const der = encoding === 'utf8' && looksEncoded ? Buffer.from(key.replace(/\s+/g, ''), 'base64') : bytes;
  if (bytes.toString('latin1').includes('-----BEGIN')) {
    throw mismatch(`The secret is PEM text; a PEM key is never used as an ${alg} secret (algorithm confusion)`);
  }
  if (isDerPublicKey(bytes) || isDerPublicKey(der)) {
    throw mismatch(`The key is a public key in DER form; an ${alg} token needs an HMAC secret`);
  }
  return new Uint8Array(bytes);
}

function pemKey(pem: string, alg: string, family: Family): KeyObject {
  if (family === 'hmac') throw mismatch(`A PEM key or certificate is never used as an ${alg} secret (algorithm confusion)`);
  const label = /^-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1] ?? '';
  if (label.includes('PRIVATE KEY')) throw invalidKey('This is a private key: give the public key or certificate (a verifier never needs the private key)');
  let key: KeyObject;
  try {
    key = label === 'CERTIFICATE' ? new X509Certificate(pem).publicKey : createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw invalidKey(`The PEM block "${label.slice(0, 40)}" cannot be read as a public key or certificate`);
  }
  return checkFit(key, alg);
}

function checkFit(key: KeyObject, alg: string): KeyObject {
  if (!fitsAlgorithm(key, alg)) {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    throw mismatch(`A ${key.asymmetricKeyType ?? 'secret'}${curve === undefined ? '' : ` ${curve}`} key cannot verify an ${alg} token`);
  }
  return key;
}

/** One JWK to a key for `alg`, or the reason it cannot be one. */
function jwkKey(jwk: Record<string, unknown>, alg: string, family: Family): VerificationKey {
  if (typeof jwk.kty !== 'string') throw invalidKey('The JWK has no "kty"');
  if (typeof jwk.alg === 'string' && jwk.alg !== alg) throw mismatch(`The JWK is meant for ${quote(jwk.alg)}, the token uses ${alg}`);
  if (jwk.use !== undefined && jwk.use !== 'sig') throw mismatch('The JWK is not a signing key ("use" is not "sig")');
  if (jwk.kty === 'oct') {
    if (family !== 'hmac') throw mismatch(`A symmetric JWK (kty "oct") cannot verify an ${alg} token`);
    if (typeof jwk.k !== 'string' || !/^[A-Za-z0-9_-]+$/.test(jwk.k)) throw invalidKey('The JWK "k" is not base64url');
    return new Uint8Array(Buffer.from(jwk.k, 'base64url'));
  }
  if (family === 'hmac') throw mismatch(`A public JWK is never used as an ${alg} secret (algorithm confusion)`);
  if ('d' in jwk) throw invalidKey('This is a private JWK: give the public key (a verifier never needs the private key)');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch {
    throw invalidKey(`The JWK (kty ${quote(jwk.kty)}) cannot be read as a public key`);
  }
  return checkFit(key, alg);
}

/**
 * Keys to try for a token with header `header`: one for a PEM, a JWK or a secret; for a JWKS the
 * keys with the token's `kid` (RFC 7515 §4.1.4), or when the token has no kid every key that fits
 * the algorithm (the token verifies when one of them verifies it).
 */
export function verificationKeys(keyText: string, header: Record<string, unknown>, encoding: SecretEncoding): VerificationKey[] {
  const alg = header.alg as string;
  const family = algorithmFamily(alg);
  const trimmed = keyText.trim();
  if (trimmed.startsWith('-----BEGIN')) return [pemKey(trimmed, alg, family)];
  if (trimmed.includes('-----BEGIN ') && family === 'hmac') {
    throw mismatch(`A PEM key or certificate is never used as an ${alg} secret (algorithm confusion)`);
  }
  if (!trimmed.startsWith('{')) {
    if (family !== 'hmac') throw invalidKey(`An ${alg} token needs a PEM public key, a certificate, a JWK or a JWKS`);
    return [hmacSecret(keyText, encoding, alg)];
  }
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    throw invalidKey('The key starts with "{" but is not JSON (a JWK or JWKS); give a secret that starts with "{" base64-encoded');
  }
  if (!isRecord(json)) throw invalidKey('The key is not a JWK or JWKS object');
  if (!('keys' in json)) return [jwkKey(json, alg, family)];
  if (!Array.isArray(json.keys) || !json.keys.every(isRecord)) throw invalidKey('The JWKS "keys" is not an array of JWK objects');
  const keys = json.keys as Record<string, unknown>[];
  const kid = header.kid;
  if (kid !== undefined) {
    const named = keys.filter((jwk) => jwk.kid === kid);
    if (named.length === 0) throw notFound(`The JWKS has no key with the token's kid ${quote(String(kid))}`);
    return pickFitting(named, alg, family);
  }
  if (keys.length === 0) throw notFound('The JWKS holds no keys');
  return pickFitting(keys, alg, family);
}

/** The keys among `candidates` that fit `alg`; when none does, the first one's reason. */
function pickFitting(candidates: Record<string, unknown>[], alg: string, family: Family): VerificationKey[] {
  const keys: VerificationKey[] = [];
  let firstProblem: unknown;
  for (const jwk of candidates) {
    try {
      keys.push(jwkKey(jwk, alg, family));
    } catch (error) {
      firstProblem ??= error;
    }
  }
  if (keys.length === 0) throw firstProblem;
  return keys;
}
