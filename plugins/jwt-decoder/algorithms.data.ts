/**
 * The JWS algorithms jose verifies (RFC 7518 §3.1, RFC 8037, RFC 9864 "Ed25519") and the key each
 * one needs. ES256K and Ed448 are absent: jose 6 does not verify them.
 */
import type { KeyObject } from 'node:crypto';

export type Family = 'hmac' | 'rsa' | 'rsa-pss' | 'ec' | 'eddsa';

const FAMILIES: Readonly<Record<string, Family>> = {
  HS256: 'hmac',
  HS384: 'hmac',
  HS512: 'hmac',
  RS256: 'rsa',
  RS384: 'rsa',
  RS512: 'rsa',
  PS256: 'rsa-pss',
  PS384: 'rsa-pss',
  PS512: 'rsa-pss',
  ES256: 'ec',
  ES384: 'ec',
  ES512: 'ec',
  EdDSA: 'eddsa',
  Ed25519: 'eddsa',
};

/** The OpenSSL curve name (KeyObject.asymmetricKeyDetails.namedCurve) each ECDSA algorithm signs on. */
const CURVES: Readonly<Record<string, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };

/** True for an algorithm this plugin can verify. */
export function isSupportedAlgorithm(alg: string): boolean {
  return Object.hasOwn(FAMILIES, alg);
}

/** The key family of a supported algorithm. */
export function algorithmFamily(alg: string): Family {
  return FAMILIES[alg] as Family;
}

/** Whether the public `key` can verify `alg` signatures (an RSA key for PS* too: RFC 7518 §3.5). */
export function fitsAlgorithm(key: KeyObject, alg: string): boolean {
  const type = key.asymmetricKeyType;
  switch (algorithmFamily(alg)) {
    case 'rsa':
      return type === 'rsa';
    case 'rsa-pss':
      return type === 'rsa' || type === 'rsa-pss';
    case 'ec':
      return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === CURVES[alg];
    case 'eddsa':
      return type === 'ed25519';
    default:
      return false;
  }
}
