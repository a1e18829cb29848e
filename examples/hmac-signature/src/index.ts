import { defineOperation, definePlugin, Type } from '@toolshed/plugin-sdk';
import { ALGORITHMS, decodeField, INPUT_ENCODINGS, sign, SIGNATURE_ENCODINGS, verify } from './hmac.js';

const closed = { additionalProperties: false } as const;

/** What both operations take: the message, the key and the hash function. */
const signed = {
  message: Type.String({ maxLength: 1_048_576, description: 'The message, in messageEncoding' }),
  messageEncoding: Type.Enum([...INPUT_ENCODINGS], { default: 'utf8', description: 'utf8 (the text itself), hex or base64' }),
  key: Type.String({ minLength: 1, maxLength: 4096, description: 'The secret key, in keyEncoding' }),
  keyEncoding: Type.Enum([...INPUT_ENCODINGS], { default: 'utf8', description: 'utf8 (the text itself), hex or base64' }),
  algorithm: Type.Enum([...ALGORITHMS], { default: 'sha256', description: 'The hash function of the HMAC' }),
};

// RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
const jefe = { key: 'Jefe', message: 'what do ya want for nothing?' };
const jefeSha256 = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';

export default definePlugin({
  group: 'hmac',
  sdk: '^1.0.0',
  summary: 'HMAC signatures with SHA-256, SHA-384 and SHA-512: sign a message, verify a signature',
  errors: { invalid_encoding: 'The key, message or signature is not valid in the encoding named for it' },
  operations: {
    sign: defineOperation({
      summary: 'Sign a message with HMAC',
      errors: ['invalid_encoding'],
      body: Type.Object(
        { ...signed, encoding: Type.Enum([...SIGNATURE_ENCODINGS], { default: 'hex', description: 'How to write the signature' }) },
        closed,
      ),
      response: Type.Object({ signature: Type.String() }, closed),
      examples: [
        { title: 'RFC 4231 test case 2', body: jefe, response: { signature: jefeSha256 } },
        {
          title: 'The same signature in Base64',
          body: { ...jefe, encoding: 'base64' },
          response: { signature: 'W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=' },
        },
      ],
      handler: ({ message, messageEncoding, key, keyEncoding, algorithm, encoding }) => {
        const mac = sign(decodeField('key', key, keyEncoding), decodeField('message', message, messageEncoding), algorithm);
        return { signature: mac.toString(encoding) };
      },
    }),
    verify: defineOperation({
      summary: 'Check an HMAC signature, in constant time',
      errors: ['invalid_encoding'],
      description: 'Hex digits may be in either case. Only the full signature is valid: a truncated one answers `valid: false`.',
      body: Type.Object(
        {
          ...signed,
          signature: Type.String({ maxLength: 256, description: 'The signature to check, in encoding' }),
          encoding: Type.Enum([...SIGNATURE_ENCODINGS], { default: 'hex', description: 'How the signature is written' }),
        },
        closed,
      ),
      response: Type.Object({ valid: Type.Boolean() }, closed),
      examples: [{ title: 'RFC 4231 test case 2', body: { ...jefe, signature: jefeSha256 }, response: { valid: true } }],
      handler: ({ message, messageEncoding, key, keyEncoding, algorithm, signature, encoding }) => {
        const claimed = decodeField('signature', signature, encoding);
        return { valid: verify(decodeField('key', key, keyEncoding), decodeField('message', message, messageEncoding), algorithm, claimed) };
      },
    }),
  },
});
