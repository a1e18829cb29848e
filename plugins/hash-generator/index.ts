import { definePlugin, defineOperation, InputError, Type, UnprocessableError } from '@toolshed/plugin-sdk';
import { ALGORITHMS, digestAll } from './digest.js';

const closed = { additionalProperties: false } as const;
/** The rule on text and dataBase64, as the schema states it and as each detail words it. */
const EXACTLY_ONE_INPUT = 'exactly one of text and dataBase64 must be given';
const strictBase64 = /^[A-Za-z0-9+/\-_\s]*={0,2}\s*$/;

/** The input bytes: `text` as UTF-8, or `dataBase64` decoded (either alphabet, whitespace allowed). */
function inputBytes(text: string | undefined, dataBase64: string | undefined): Buffer {
  if ((text === undefined) === (dataBase64 === undefined)) {
    throw new InputError(`The request body does not match the schema: ${EXACTLY_ONE_INPUT}`, [
      { path: '/text', message: EXACTLY_ONE_INPUT },
      { path: '/dataBase64', message: EXACTLY_ONE_INPUT },
    ]);
  }
  if (text !== undefined) return Buffer.from(text, 'utf8');
  const compact = (dataBase64 as string).replace(/\s+/g, '');
  // Buffer.from skips characters outside the alphabet silently; a digest of the wrong bytes is worse than a 422.
  if (!strictBase64.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new UnprocessableError('invalid_base64', 'dataBase64 is not valid Base64');
  }
  return Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export default definePlugin({
  group: 'hash-generator',
  sdk: '^1.0.0',
  summary: 'MD5, SHA-1 and SHA-2 digests of text or binary data',
  title: 'Hash generator',
  category: 'Security',
  keywords: ['sha256', 'sha-256', 'sha1', 'sha-1', 'sha512', 'sha-512', 'md5', 'digest', 'checksum', 'hmac'],
  errors: { invalid_base64: 'dataBase64 is not valid Base64' },
  operations: {
    hash: defineOperation({
      summary: 'Hash UTF-8 text or Base64 data with one or more algorithms',
      io: { input: 'text', output: 'hashes' },
      // One pass per algorithm: 256 KiB with all five cost the main thread ~5 ms (workers.linearOffloadBytes).
      cost: 'linear',
      description: 'Give exactly one of `text` and `dataBase64` (the schema\'s `oneOf`); both or neither is a 400 naming both fields.',
      body: Type.Object(
        {
          text: Type.Optional(Type.String({ description: `Text, hashed as UTF-8; ${EXACTLY_ONE_INPUT}` })),
          dataBase64: Type.Optional(Type.String({ description: `Binary data as Base64 (standard or URL-safe); ${EXACTLY_ONE_INPUT}` })),
          algorithms: Type.Array(Type.Enum([...ALGORITHMS]), {
            minItems: 1,
            maxItems: 5,
            uniqueItems: true,
            default: [...ALGORITHMS],
            description: 'Digests to compute, each algorithm at most once',
          }),
          encoding: Type.Union([Type.Literal('hex'), Type.Literal('base64')], { default: 'hex', description: 'How each digest is written' }),
          uppercase: Type.Boolean({ default: false, description: 'Uppercase hex digits' }),
        },
        {
          ...closed,
                    // `properties: { x: true }` beside `required` keeps strict validators (Ajv's strictRequired) content.
          allOf: [
            {
              description: EXACTLY_ONE_INPUT,
              oneOf: [
                { required: ['text'], properties: { text: true } },
                { required: ['dataBase64'], properties: { dataBase64: true } },
              ],
            },
          ],
        },
      ),
      response: Type.Object(
        { hashes: Type.Record(Type.String(), Type.String(), { description: 'Algorithm name → digest' }) },
        closed,
      ),
      examples: [
        {
          title: 'FIPS 180-2 / RFC 1321 "abc"',
          body: { text: 'abc', algorithms: ['MD5', 'SHA-256'] },
          response: {
            hashes: {
              MD5: '900150983cd24fb0d6963f7d28e17f72',
              'SHA-256': 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
            },
          },
        },
      ],
      handler: ({ text, dataBase64, algorithms, encoding, uppercase }) => ({
        hashes: digestAll(inputBytes(text, dataBase64), algorithms, encoding, uppercase),
      }),
    }),
  },
});
