import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { inspectToken, verifyToken } from './verify.js';

const closed = { additionalProperties: false } as const;

/** The jwt.io sample token: HS256 with the secret "your-256-bit-secret", iat only, so the answer never changes. */
const JWT_IO = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const JWT_IO_DECODED = {
  header: { alg: 'HS256', typ: 'JWT' },
  payload: { sub: '1234567890', name: 'John Doe', iat: 1516239022 },
  status: null,
  times: { iat: '2018-01-18T01:30:22.000Z' },
};
/** RFC 7515 appendix A.1: HS256, its JWK "k" as base64; exp 1300819380 (2011), so `status` follows the clock. */
const RFC7515_A1 =
  'eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC7515_A1_DECODED = {
  header: { typ: 'JWT', alg: 'HS256' },
  payload: { iss: 'joe', exp: 1300819380, 'http://example.com/is_root': true },
  status: 'expired' as const,
  times: { exp: '2011-03-22T18:43:00.000Z' },
};

const token = Type.String({ minLength: 1, maxLength: 100000, description: 'Compact JWT; a leading "Bearer " is ignored' });
const jsonObject = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });
/** What `status` weighs: the time claims only, never the signature (a model reading "valid" must not think otherwise). */
const TIME_WINDOW = 'from exp and nbf against the current time (RFC 7519: expired on or after exp); null when neither is a number';
/** The fields /decode and /verify both answer; `signature` says what the answer's status leaves out. */
const inspection = (signature: string) => ({
  header: jsonObject('The JOSE header'),
  payload: jsonObject('The claims'),
  status: Type.Union([Type.Literal('valid'), Type.Literal('expired'), Type.Literal('not-yet-valid'), Type.Null()], {
    description: `Time window only — ${signature}: ${TIME_WINDOW}`,
  }),
  times: Type.Object(
    {
      exp: Type.Optional(Type.String()),
      nbf: Type.Optional(Type.String()),
      iat: Type.Optional(Type.String()),
      auth_time: Type.Optional(Type.String()),
    },
    { ...closed, description: 'ISO 8601 (UTC) for each of these claims present as a number' },
  ),
});

export default definePlugin({
  group: 'jwt-decoder',
  sdk: '^1.0.0',
  summary: 'Decode JSON Web Tokens and verify their signatures (HMAC, RSA, RSA-PSS, ECDSA, EdDSA)',
  title: 'JWT decoder',
  category: 'Security',
  keywords: ['jwt', 'json web token', 'bearer', 'claims', 'signature', 'jws'],
  errors: {
    invalid_token: 'The token is not a compact JWS of three base64url parts whose header and payload are JSON objects (a 5-part JWE included)',
    invalid_key: 'The key cannot be read: not a secret, PEM public key, certificate, JWK or JWKS; or a private key; or an RSA key under 2048 bits',
    key_mismatch: "The key's type does not fit the token's algorithm (a public key offered for HS*, an EC key for RS256, a JWK meant for another alg)",
    key_not_found: "The JWKS has no key with the token's kid",
    unsupported_algorithm: 'The token names an algorithm jose does not verify (other than none)',
  },
  operations: {
    decode: defineOperation({
      summary: 'Decode a JWT without verifying it',
      io: { input: 'token', output: 'payload' },
      recognizers: [
        { kind: 'jwt', title: 'JSON Web Token', pattern: /^(?:bearer\s+)?eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*$/i, confidence: 0.97 },
        { kind: 'jwt', title: 'JSON Web Token', pattern: /^(?:bearer\s+)?eyJ[\w-]*\.[\w-]+\.[\w-]*$/i, confidence: 0.9 },
      ],
      deterministic: false, // the token status (expired, not yet valid) depends on the clock
      readsClock: true,
      errors: ['invalid_token'],
      description:
        '`status` is the time window only — the signature was not checked (jwt-decoder/verify checks it). ' +
        'Exactly three dot-separated parts. Time claims that are not numbers are left out of `times` and ignored by `status`.',
      body: Type.Object({ token }, closed),
      response: Type.Object(inspection('the signature was not checked'), closed),
      examples: [
        { title: 'The jwt.io sample token', body: { token: JWT_IO }, response: JWT_IO_DECODED },
        {
          title: 'An expired token (RFC 7515 A.1) with a Bearer prefix',
          body: { token: `Bearer ${RFC7515_A1}` },
          response: RFC7515_A1_DECODED,
          exact: false,
        },
      ],
      handler: ({ token }, context) => {
        const { header, payload, status, times } = inspectToken(token, context.now());
        return { header, payload, status, times };
      },
    }),
    verify: defineOperation({
      summary: 'Verify the signature of a JWT',
      io: { input: 'token', output: 'payload' },
      deterministic: false, // the token status (expired, not yet valid) depends on the clock
      readsClock: true,
      errors: ['invalid_token', 'invalid_key', 'key_mismatch', 'key_not_found', 'unsupported_algorithm'],
      description:
        '`valid` says only whether the signature matches; expiry is in `status`. The key is an HMAC secret, a PEM public ' +
        'key (SPKI or PKCS#1) or X.509 certificate, a JWK, or a JWKS (key chosen by the token\'s kid). A public key is ' +
        'never used as an HMAC secret. `alg: none` gives valid false.',
      body: Type.Object(
        {
          token,
          key: Type.String({ minLength: 1, maxLength: 100000, description: 'HMAC secret, PEM public key or certificate, JWK or JWKS' }),
          secretEncoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')], { default: 'utf8', description: 'Encoding of an HMAC secret' }),
        },
        closed,
      ),
      response: Type.Object({ valid: Type.Boolean(), ...inspection('the signature is in valid') }, closed),
      examples: [
        { title: 'The jwt.io sample token and its secret', body: { token: JWT_IO, key: 'your-256-bit-secret' }, response: { valid: true, ...JWT_IO_DECODED } },
        {
          title: 'RFC 7515 A.1 with its key in base64: a good signature on an expired token',
          body: { token: RFC7515_A1, key: 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ+EstJQLr/T+1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow==', secretEncoding: 'base64' },
          response: { valid: true, ...RFC7515_A1_DECODED },
          exact: false,
        },
      ],
      handler: ({ token, key, secretEncoding }, context) => verifyToken(token, key, secretEncoding, context.now()),
    }),
  },
});
