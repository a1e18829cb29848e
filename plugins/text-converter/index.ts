import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { decodeBytes } from './decode-bytes.js';
import { encodeBytes, MAX_OUTPUT_LENGTH } from './encode-bytes.js';

const closed = { additionalProperties: false } as const;

const format = Type.Union([Type.Literal('hex'), Type.Literal('binary'), Type.Literal('decimal'), Type.Literal('octal')], {
  default: 'hex',
  description: 'hex: two digits per byte; binary: eight; octal: three; decimal: unpadded',
});

export default definePlugin({
  group: 'text-converter',
  sdk: '^1.0.0',
  summary: 'UTF-8 text to and from byte values in hex, binary, decimal or octal',
  title: 'Text to bytes',
  category: 'Encoding',
  keywords: ['hex', 'binary', 'utf-8', 'bytes', 'ascii', 'decimal', 'octal'],
  errors: {
    invalid_text: 'The text contains a lone UTF-16 surrogate, which has no UTF-8 encoding',
    output_too_large: `The encoded bytes would be longer than ${MAX_OUTPUT_LENGTH} characters`,
    invalid_bytes: 'A character is neither a digit of the format nor a separator, hex or binary digits are not whole bytes, or a value is over 255',
    invalid_utf8: 'The bytes are not valid UTF-8 text',
  },
  operations: {
    encode: defineOperation({
      summary: 'Write the UTF-8 bytes of text as numbers',
      io: { input: 'text', output: 'bytes' },
      errors: ['invalid_text', 'output_too_large'],
      body: Type.Object(
        {
          text: Type.String({ description: 'Text, encoded as UTF-8' }),
          format,
          separator: Type.String({ maxLength: 10, default: ' ', description: 'Between bytes; may be empty' }),
          uppercase: Type.Boolean({ default: false, description: 'Uppercase hex digits (hex only)' }),
        },
        closed,
      ),
      response: Type.Object(
        { bytes: Type.String(), count: Type.Integer({ minimum: 0, description: 'Number of bytes' }) },
        closed,
      ),
      examples: [
        { title: 'Hex', body: { text: 'Hi ü' }, response: { bytes: '48 69 20 c3 bc', count: 5 } },
        {
          title: 'Binary, comma-separated',
          body: { text: 'Hi', format: 'binary', separator: ',' },
          response: { bytes: '01001000,01101001', count: 2 },
        },
      ],
      handler: ({ text, format, separator, uppercase }) => encodeBytes(text, format, separator, uppercase),
    }),
    decode: defineOperation({
      summary: 'Read byte numbers back into UTF-8 text',
      io: { input: 'bytes', output: 'text' },
      recognizers: [
        { kind: 'binary-bytes', title: 'Binary bytes', pattern: /^[01]{8}(?:[\s,:]*[01]{8})*$/, confidence: 0.85, body: { format: 'binary' } },
        { kind: 'hex-bytes', title: 'Hex bytes', pattern: /^(?=[\s\S]*[a-fA-F])[0-9a-fA-F]{2}(?:[\s,:-]?[0-9a-fA-F]{2}){3,}$/, confidence: 0.8, body: { format: 'hex' } },
        // 0x before a run of hex digits: bytes as well as a number (number-base-converter tries that).
        { kind: 'hex-bytes', title: 'Hex bytes (0x)', pattern: /^0x(?<hex>(?:[0-9a-f]{2}){4,})$/i, confidence: 0.8, body: { format: 'hex' }, fill: { bytes: '$<hex>' } },
      ],
      errors: ['invalid_bytes', 'invalid_utf8'],
      description:
        'Separators: space, tab, newline, comma and colon, mixed and repeated. Hex and binary may also come ' +
        'unseparated (pairs / octets); decimal and octal values must be separated.',
      body: Type.Object(
        {
          bytes: Type.String({ description: 'Byte values separated by spaces, commas or colons' }),
          format,
        },
        closed,
      ),
      response: Type.Object({ text: Type.String() }, closed),
      examples: [
        { title: 'Hex with mixed separators', body: { bytes: '48:69, 20 C3BC' }, response: { text: 'Hi ü' } },
        { title: 'Decimal', body: { bytes: '72 105', format: 'decimal' }, response: { text: 'Hi' } },
      ],
      handler: ({ bytes, format }) => ({ text: decodeBytes(bytes, format) }),
    }),
  },
});
