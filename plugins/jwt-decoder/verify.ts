/**
 * Signature verification with jose's compactVerify: only the signature decides `valid`; exp and
 * nbf are reported in `status` (jwtVerify would refuse an expired token outright).
 */
import { compactVerify, errors } from 'jose';
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { isSupportedAlgorithm } from './algorithms.data.js';
import { decodeToken, tokenStatus, tokenTimes, type JsonObject, type Times, type TokenStatus } from './decode.js';
import { verificationKeys, type SecretEncoding, type VerificationKey } from './keys.js';

export interface Inspection {
  header: JsonObject;
  payload: JsonObject;
  status: TokenStatus;
  times: Times;
}

export interface Verification extends Inspection {
  valid: boolean;
}

/** jose's messages name parameters, not values, but are kept short anyway. */
const short = (message: string): string => (message.length > 120 ? `${message.slice(0, 120)}…` : message);

/** Header, claims, status against `now`, and times: what /decode answers. */
export function inspectToken(token: string, now: Date): Inspection & { compact: string } {
  const { compact, header, payload } = decodeToken(token);
  return { compact, header, payload, status: tokenStatus(payload, now), times: tokenTimes(payload) };
}

async function verifiesWith(compact: string, key: VerificationKey, alg: string): Promise<boolean> {
  try {
    await compactVerify(compact, key, { algorithms: [alg] });
    return true;
  } catch (error) {
    if (error instanceof errors.JWSSignatureVerificationFailed) return false;
    // jose refuses RSA keys under 2048 bits with a TypeError naming the rule.
    if (error instanceof TypeError) throw new UnprocessableError('invalid_key', short(error.message));
    // Unknown "crit" extensions (RFC 7515 §4.1.11) and other malformed JWS.
    if (error instanceof errors.JOSEError) throw new UnprocessableError('invalid_token', `jose cannot verify this token: ${short(error.message)}`);
    throw error;
  }
}

/**
 * Verifies the token's signature with `keyText`. `alg: none` (any case) is an unsecured token:
 * valid false, whatever the key. A JWKS without a kid in the token tries every key that fits.
 */
export async function verifyToken(token: string, keyText: string, encoding: SecretEncoding, now: Date): Promise<Verification> {
  const { compact, ...inspection } = inspectToken(token, now);
  const alg = inspection.header.alg;
  if (typeof alg !== 'string') throw new UnprocessableError('invalid_token', 'The header has no "alg" string');
  if (alg.toLowerCase() === 'none') return { valid: false, ...inspection };
  if (!isSupportedAlgorithm(alg)) {
    throw new UnprocessableError('unsupported_algorithm', `The algorithm ${JSON.stringify(alg.slice(0, 40))} is not one jose verifies (HS*, RS*, PS*, ES256/384/512, EdDSA with Ed25519)`);
  }
  for (const key of verificationKeys(keyText, inspection.header, encoding)) {
    if (await verifiesWith(compact, key, alg)) return { valid: true, ...inspection };
  }
  return { valid: false, ...inspection };
}
