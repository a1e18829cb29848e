import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { CompactSign, SignJWT } from 'jose';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import jwtDecoder from './index.js';

const NOW = new Date('2025-01-01T00:00:00Z'); // 1735689600 s
const encoder = new TextEncoder();
const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Verified {
  valid: boolean;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  status: string | null;
  times: Record<string, string>;
}
const verify = async (body: Record<string, unknown>): Promise<Verified> => (await invoke(jwtDecoder, 'verify', body, { now: () => NOW })) as Verified;
const refuses = (body: Record<string, unknown>, code: string): Promise<void> => rejectsWith(invoke(jwtDecoder, 'verify', body, { now: () => NOW }), 422, code);

/** RFC 7515 appendix A.1: the HS256 example and its key (a JWK "k"). */
const A1_TOKEN =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const A1_K = 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow';
const A1_JWK = { kty: 'oct', k: A1_K };

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed25519 = generateKeyPairSync('ed25519');
const spki = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }) as string;
const publicJwk = (key: KeyObject, extra: Record<string, unknown> = {}) => ({ ...key.export({ format: 'jwk' }), ...extra });

const sign = (alg: string, key: KeyObject | Uint8Array, claims: Record<string, unknown> = { sub: 'u1' }, header: Record<string, unknown> = {}): Promise<string> =>
  new SignJWT(claims).setProtectedHeader({ alg, ...header }).sign(key);

describe('jwt-decoder.verify: HMAC', () => {
  it('verifies the RFC 7515 A.1 example with its key as JWK and as base64 secret; status says expired', async () => {
    const expected = {
      valid: true,
      header: { typ: 'JWT', alg: 'HS256' },
      payload: { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true },
      status: 'expired', // exp 1300819380 is 2011-03-22T18:43:00Z, before NOW
      times: { exp: '2011-03-22T18:43:00.000Z' },
    };
    assert.deepEqual(await verify({ token: A1_TOKEN, key: JSON.stringify(A1_JWK) }), expected);
    assert.deepEqual(await verify({ token: A1_TOKEN, key: Buffer.from(A1_K, 'base64url').toString('base64'), secretEncoding: 'base64' }), expected);
    assert.deepEqual(await verify({ token: A1_TOKEN, key: JSON.stringify({ keys: [A1_JWK] }) }), expected);
    // The same bytes read as UTF-8 text are another secret.
    assert.equal((await verify({ token: A1_TOKEN, key: A1_K })).valid, false);
  });

  it('answers valid false for a wrong secret or a changed payload, and 422 for bad base64', async () => {
    const token = await sign('HS256', encoder.encode('s3cret'));
    assert.equal((await verify({ token, key: 's3cret' })).valid, true);
    assert.equal((await verify({ token, key: 's3cret ' })).valid, false); // secrets are not trimmed
    const [header, , signature] = token.split('.');
    assert.equal((await verify({ token: `${header}.${b64url({ sub: 'admin' })}.${signature}`, key: 's3cret' })).valid, false);
    await refuses({ token, key: 'not base64!', secretEncoding: 'base64' }, 'invalid_key');
  });

  it('verifies HS384 and HS512 (signature worked out with node:crypto HMAC)', async () => {
    for (const [alg, hash] of [['HS384', 'sha384'], ['HS512', 'sha512']] as const) {
      const input = `${b64url({ alg })}.${b64url({ n: 1 })}`;
      const token = `${input}.${createHmac(hash, 'k').update(input).digest('base64url')}`;
      assert.equal((await verify({ token, key: 'k' })).valid, true, alg);
    }
  });
});

describe('jwt-decoder.verify: the algorithm-confusion forgery', () => {
  it('never accepts an HS256 token signed with the text of a public key PEM', async () => {
    const pem = spki(rsa.publicKey);
    const forged = await sign('HS256', encoder.encode(pem), { sub: 'admin' });
    // Whatever form the PEM takes: as given, without its final newline, base64 of its bytes.
    await refuses({ token: forged, key: pem }, 'key_mismatch');
    await refuses({ token: forged, key: pem.trim() }, 'key_mismatch');
    await refuses({ token: forged, key: `\n${pem}` }, 'key_mismatch');
    await refuses({ token: forged, key: `my key: ${pem}` }, 'key_mismatch');
    await refuses({ token: forged, key: Buffer.from(pem).toString('base64'), secretEncoding: 'base64' }, 'key_mismatch');
    // The DER bytes of the key as a secret, and their base64 text.
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    const derForged = await sign('HS256', new Uint8Array(der));
    await refuses({ token: derForged, key: der.toString('base64'), secretEncoding: 'base64' }, 'key_mismatch');
    await refuses({ token: derForged, key: der.toString('base64') }, 'key_mismatch');
    // A public JWK offered for an HS256 token.
    await refuses({ token: forged, key: JSON.stringify(publicJwk(rsa.publicKey)) }, 'key_mismatch');
  });
});

describe('jwt-decoder.verify: public keys', () => {
  it('verifies RS256, PS256, ES256, ES384, EdDSA and Ed25519 with PEM keys, and fails with another key', async () => {
    const cases = [
      ['RS256', rsa],
      ['RS512', rsa],
      ['PS256', rsa],
      ['ES256', p256],
      ['ES384', p384],
      ['EdDSA', ed25519],
      ['Ed25519', ed25519],
    ] as const;
    for (const [alg, pair] of cases) {
      const token = await sign(alg, pair.privateKey, { sub: 'u1', exp: 1735689600 });
      const result = await verify({ token, key: spki(pair.publicKey) });
      assert.deepEqual(result, { valid: true, header: { alg }, payload: { sub: 'u1', exp: 1735689600 }, status: 'expired', times: { exp: '2025-01-01T00:00:00.000Z' } }, alg);
    }
    const token = await sign('RS256', rsa.privateKey);
    assert.equal((await verify({ token, key: spki(otherRsa.publicKey) })).valid, false);
  });

  it('reads a PKCS#1 RSA public key and an X.509 certificate', async () => {
    const token = await sign('RS256', rsa.privateKey);
    const pkcs1 = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    assert.match(pkcs1, /^-----BEGIN RSA PUBLIC KEY-----/);
    assert.equal((await verify({ token, key: pkcs1 })).valid, true);
    // RFC 7517 appendix B: the "x5c" certificate of its RSA example; no private key here, so a
    // token of ours does not verify, but the certificate must be read (not 422).
    const certificate = `-----BEGIN CERTIFICATE-----\n${RFC7517_B_X5C.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
    assert.equal((await verify({ token, key: certificate })).valid, false);
    await refuses({ token: await sign('ES256', p256.privateKey), key: certificate }, 'key_mismatch');
  });

  it('refuses a key of the wrong type or curve with 422 key_mismatch', async () => {
    await refuses({ token: await sign('RS256', rsa.privateKey), key: spki(p256.publicKey) }, 'key_mismatch');
    await refuses({ token: await sign('ES256', p256.privateKey), key: spki(p384.publicKey) }, 'key_mismatch');
    await refuses({ token: await sign('EdDSA', ed25519.privateKey), key: spki(rsa.publicKey) }, 'key_mismatch');
    // jose 6 verifies EdDSA with Ed25519 only.
    await refuses({ token: await sign('EdDSA', ed25519.privateKey), key: spki(generateKeyPairSync('ed448').publicKey) }, 'key_mismatch');
    await refuses({ token: await sign('RS256', rsa.privateKey), key: JSON.stringify(A1_JWK) }, 'key_mismatch');
    await refuses({ token: await sign('RS256', rsa.privateKey), key: JSON.stringify(publicJwk(rsa.publicKey, { alg: 'RS512' })) }, 'key_mismatch');
    await refuses({ token: await sign('RS256', rsa.privateKey), key: JSON.stringify(publicJwk(rsa.publicKey, { use: 'enc' })) }, 'key_mismatch');
  });

  it('refuses private keys (PEM PKCS#8 and private JWK) with 422 invalid_key', async () => {
    const token = await sign('RS256', rsa.privateKey);
    await refuses({ token, key: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string }, 'invalid_key');
    await refuses({ token, key: JSON.stringify(rsa.privateKey.export({ format: 'jwk' })) }, 'invalid_key');
  });

  it('refuses unreadable keys with 422 invalid_key', async () => {
    const token = await sign('RS256', rsa.privateKey);
    await refuses({ token, key: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----' }, 'invalid_key');
    await refuses({ token, key: '{"kty":"RSA","n":"AQAB"' }, 'invalid_key');
    await refuses({ token, key: '{"kty":"RSA"}' }, 'invalid_key');
    await refuses({ token, key: '{"keys":"none"}' }, 'invalid_key');
    await refuses({ token, key: 'just a secret' }, 'invalid_key');
    // jose refuses RSA keys under 2048 bits.
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const smallToken = `${b64url({ alg: 'RS256' })}.${b64url({})}.AAAA`;
    await refuses({ token: smallToken, key: spki(small.publicKey) }, 'invalid_key');
  });
});

describe('jwt-decoder.verify: JWKS and alg', () => {
  const jwks = JSON.stringify({
    keys: [publicJwk(otherRsa.publicKey, { kid: 'old' }), publicJwk(rsa.publicKey, { kid: 'current' }), publicJwk(p256.publicKey, { kid: 'ec' })],
  });

  it('picks the key by kid', async () => {
    assert.equal((await verify({ token: await sign('RS256', rsa.privateKey, {}, { kid: 'current' }), key: jwks })).valid, true);
    assert.equal((await verify({ token: await sign('RS256', rsa.privateKey, {}, { kid: 'old' }), key: jwks })).valid, false);
    assert.equal((await verify({ token: await sign('ES256', p256.privateKey, {}, { kid: 'ec' }), key: jwks })).valid, true);
  });

  it('answers 422 key_not_found for a kid the JWKS lacks, and key_mismatch when the kid names a key of another type', async () => {
    await refuses({ token: await sign('RS256', rsa.privateKey, {}, { kid: 'gone' }), key: jwks }, 'key_not_found');
    await refuses({ token: await sign('RS256', rsa.privateKey, {}, { kid: 'ec' }), key: jwks }, 'key_mismatch');
    await refuses({ token: await sign('RS256', rsa.privateKey), key: '{"keys":[]}' }, 'key_not_found');
  });

  it('tries every fitting key when the token has no kid', async () => {
    assert.equal((await verify({ token: await sign('RS256', rsa.privateKey), key: jwks })).valid, true);
    assert.equal((await verify({ token: await sign('RS256', generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey), key: jwks })).valid, false);
  });

  it('answers valid false for alg none in any case, whatever the key', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${b64url({ alg })}.${b64url({ sub: 'admin' })}.`;
      assert.deepEqual(await verify({ token, key: 'anything' }), { valid: false, header: { alg }, payload: { sub: 'admin' }, status: null, times: {} });
    }
  });

  it('answers 422 for an unsupported or missing alg and for an unknown crit extension', async () => {
    await refuses({ token: `${b64url({ alg: 'ES256K' })}.${b64url({})}.AAAA`, key: 'k' }, 'unsupported_algorithm');
    await refuses({ token: `${b64url({ typ: 'JWT' })}.${b64url({})}.AAAA`, key: 'k' }, 'invalid_token');
    // RFC 7515 §4.1.11: a verifier must reject a "crit" extension it does not understand, even with a good signature.
    const input = `${b64url({ alg: 'HS256', crit: ['x-custom'], 'x-custom': 1 })}.${b64url({})}`;
    await refuses({ token: `${input}.${createHmac('sha256', 'k').update(input).digest('base64url')}`, key: 'k' }, 'invalid_token');
    // jose's CompactSign produces the A.1-style token this test builds by hand for HS256.
    const hand = `${b64url({ alg: 'HS256' })}.${b64url({ a: 1 })}`;
    const signed = await new CompactSign(encoder.encode(JSON.stringify({ a: 1 }))).setProtectedHeader({ alg: 'HS256' }).sign(encoder.encode('k'));
    assert.equal(signed, `${hand}.${createHmac('sha256', 'k').update(hand).digest('base64url')}`);
  });

  it('bounds token and key to 1–100,000 characters (400)', async () => {
    await rejectsField(invoke(jwtDecoder, 'verify', { token: A1_TOKEN, key: '' }), '/key');
    await rejectsField(invoke(jwtDecoder, 'verify', { token: A1_TOKEN, key: 'k'.repeat(100_001) }), '/key');
    await rejectsField(invoke(jwtDecoder, 'verify', { token: A1_TOKEN, key: 'k', secretEncoding: 'hex' }), '/secretEncoding');
  });
});

/** RFC 7517 appendix B: the X.509 certificate ("x5c") of the RSA public key example. */
const RFC7517_B_X5C =
  'MIIDQjCCAiqgAwIBAgIGATz/FuLiMA0GCSqGSIb3DQEBBQUAMGIxCzAJBgNVBAYTAlVTMQswCQYDVQQIEwJDTzEPMA0GA1UEBxMGRGVudmVyMRwwGgYDVQQKExNQaW5nIElkZW50aXR5IENvcnAuMRcwFQYDVQQDEw5CcmlhbiBDYW1wYmVsbDAeFw0xMzAyMjEyMzI5MTVaFw0xODA4MTQyMjI5MTVaMGIxCzAJBgNVBAYTAlVTMQswCQYDVQQIEwJDTzEPMA0GA1UEBxMGRGVudmVyMRwwGgYDVQQKExNQaW5nIElkZW50aXR5IENvcnAuMRcwFQYDVQQDEw5CcmlhbiBDYW1wYmVsbDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEBAL64zn8/QnHYMeZ0LncoXaEde1fiLm1jHjmQsF/449IYALM9if6amFtPDy2yvz3YlRij66s5gyLCyO7ANuVRJx1NbgizcAblIgjtdf/u3WG7K+IiZhtELto/A7Fck9Ws6SQvzRvOE8uSirYbgmj6He4iO8NCyvaK0jIQRMMGQwsU1quGmFgHIXPLfnpnfajr1rVTAwtgV5LEZ4Iel+W1GC8ugMhyr4/p1MtcIM42EA8BzE6ZQqC7VPqPvEjZ2dbZkaBhPbiZAS3YeYBRDWm1p1OZtWamT3cEvqqPpnjL1XyW+oyVVkaZdklLQp2Btgt9qr21m42f4wTw+Xrp6rCKNb0CAwEAATANBgkqhkiG9w0BAQUFAAOCAQEAh8zGlfSlcI0o3rYDPBB07aXNswb4ECNIKG0CETTUxmXl9KUL+9gGlqCz5iWLOgWsnrcKcY0vXPG9J1r9AqBNTqNgHq2G03X09266X5CpOe1zFo+Owb1zxtp3PehFdfQJ610CDLEaS9V9Rqp17hCyybEpOGVwe8fnk+fbEL2Bo3UPGrpsHzUoaGpDftmWssZkhpBJKVMJyf/RuP2SmmaIzmnw9JiSlYhzo4tpzd5rFXhjRbg4zW9C+2qok+2+qDM1iJ684gPHMIY8aLWrdgQTxkumGmTqgawR+N5MDtdPTEQ0XfIBc2cJEUyMTY5MPvACWpkA6SdS4xSvdXK3IVfOWA==';
