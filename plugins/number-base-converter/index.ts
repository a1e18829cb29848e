import { definePlugin, defineOperation, ServerBusyError, Type, workerRefusal, type OperationContext } from '@toolshed/plugin-sdk';
import { toBases, twosComplement } from './convert.js';
import { parseInteger } from './parse.js';
import { fromRoman, toRoman } from './roman.js';

const closed = { additionalProperties: false } as const;

/** Values up to this many characters are written in their bases here (1.2 ms at most); longer ones on the pool. */
export const INLINE_LIMIT = 1000;
/** Budget of one worker job, queue time included: fifty times the slowest value (38 ms). */
export const WRITE_DEADLINE_MS = 2000;
const convertModule = new URL('./convert.js', import.meta.url);

async function inBases(value: bigint, length: number, to: readonly number[], uppercase: boolean, context: OperationContext): Promise<Record<string, string>> {
  if (length <= INLINE_LIMIT) return toBases(value, to, uppercase);
  try {
    return await context.runInWorker<Record<string, string>>(convertModule, 'toBases', [value, to, uppercase], { deadlineMs: WRITE_DEADLINE_MS, signal: context.signal });
  } catch (error) {
    // The work is bounded (10,000 characters), so missing the deadline means the pool was saturated.
    throw workerRefusal(error, { timeout: () => new ServerBusyError() });
  }
}
const base = (description: string) => Type.Integer({ minimum: 2, maximum: 36, description });
const pattern = Type.Union([Type.String(), Type.Null()], { description: 'Hex pattern, or null when the value does not fit' });

export default definePlugin({
  group: 'number-base-converter',
  sdk: '^1.0.0',
  summary: 'Integers of any size between bases 2–36, two’s complement, Roman numerals',
  title: 'Number bases',
  category: 'Encoding',
  keywords: ['hex', 'hexadecimal', 'binary', 'octal', 'decimal', 'radix', 'roman numerals', 'twos complement'],
  errors: {
    invalid_number: 'The value is not an integer in the given base (a digit outside the base, a misplaced separator, or a prefix that contradicts the base)',
    invalid_roman: 'The text is not a canonical Roman numeral from I to MMMCMXCIX',
  },
  operations: {
    convert: defineOperation({
      summary: 'Convert an integer of any size between bases',
      io: { input: 'value', output: 'results' },
      recognizers: [
        { kind: 'hex-number', title: 'Hexadecimal number (0x)', pattern: /^(?=[-+]?0x[0-9a-f_' ]{1,24}$)[-+]?0x[0-9a-f]+(?:[_' ][0-9a-f]+)*$/i, confidence: 0.9 },
        // Past 64 bits a 0x value is more often bytes (text-converter tries those) than a number.
        { kind: 'hex-number', title: 'Hexadecimal number (0x)', pattern: /^[-+]?0x[0-9a-f]{25,}$/i, confidence: 0.45 },
        { kind: 'binary-number', title: 'Binary number (0b)', pattern: /^[-+]?0b[01]+(?:[_' ][01]+)*$/i, confidence: 0.9 },
        { kind: 'octal-number', title: 'Octal number (0o)', pattern: /^[-+]?0o[0-7]+(?:[_' ][0-7]+)*$/i, confidence: 0.9 },
      ],
      errors: ['invalid_number'],
      description:
        'The value may carry a sign, single separators between digits (space, `_`, `\'`, `,`) and a 0x/0b/0o ' +
        'prefix; with the default base 10 a prefix sets the base, otherwise it must agree with the base ' +
        '(unless its letter is a digit of that base, as "0b" is in base 16). `twosComplement` gives the ' +
        'w-bit pattern in hex for −2^(w−1) ≤ value ≤ 2^w − 1, else null.',
      body: Type.Object(
        {
          value: Type.String({ minLength: 1, maxLength: 10000, description: 'Integer as text' }),
          base: Type.Integer({ minimum: 2, maximum: 36, default: 10, description: 'Base of value' }),
          to: Type.Array(base('Target base'), { minItems: 1, maxItems: 35, default: [2, 8, 10, 16], description: 'Bases to write the value in' }),
          uppercase: Type.Boolean({ default: false, description: 'Uppercase letter digits' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          results: Type.Record(Type.String({ pattern: '^(?:[2-9]|[12][0-9]|3[0-6])$' }), Type.String(), {
            ...closed,
            description: 'Target base (as a string) to the converted value',
          }),
          twosComplement: Type.Object({ '8': pattern, '16': pattern, '32': pattern, '64': pattern }, closed),
        },
        closed,
      ),
      examples: [
        {
          title: '255 to the default bases',
          body: { value: '255' },
          response: {
            results: { '2': '11111111', '8': '377', '10': '255', '16': 'ff' },
            twosComplement: { '8': 'ff', '16': '00ff', '32': '000000ff', '64': '00000000000000ff' },
          },
        },
        {
          title: 'A negative hex value, uppercase',
          body: { value: '-0x80', to: [2, 10, 16], uppercase: true },
          response: {
            results: { '2': '-10000000', '10': '-128', '16': '-80' },
            twosComplement: { '8': '80', '16': 'FF80', '32': 'FFFFFF80', '64': 'FFFFFFFFFFFFFF80' },
          },
        },
      ],
      handler: async ({ value, base: requested, to, uppercase }, context) => {
        const parsed = parseInteger(value, requested).value;
        return { results: await inBases(parsed, value.length, to, uppercase, context), twosComplement: twosComplement(parsed, uppercase) };
      },
    }),
    roman: defineOperation({
      summary: 'Roman numerals both ways (1–3999)',
      io: { input: 'value', output: 'number' },
      recognizers: [
        { kind: 'roman-numeral', title: 'Roman numeral', pattern: /^(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/, confidence: 0.8 },
      ],
      errors: ['invalid_roman'],
      description: 'A number gives its canonical numeral; a numeral (any case) gives its number. Non-canonical numerals such as IIII or IC are 422 invalid_roman.',
      body: Type.Object(
        {
          value: Type.Union([
            Type.Integer({ minimum: 1, maximum: 3999, description: 'A number to write as a numeral' }),
            Type.String({ minLength: 1, maxLength: 20, description: 'A Roman numeral to read' }),
          ], { description: 'A number (1–3999) to write as a numeral, or a numeral (any case) to read' }),
        },
        closed,
      ),
      response: Type.Object({ number: Type.Integer({ minimum: 1, maximum: 3999 }), roman: Type.String() }, closed),
      examples: [
        { title: 'Number to numeral', body: { value: 1994 }, response: { number: 1994, roman: 'MCMXCIV' } },
        { title: 'Numeral to number', body: { value: 'mmxxiv' }, response: { number: 2024, roman: 'MMXXIV' } },
      ],
      handler: ({ value }) => {
        const number = typeof value === 'number' ? value : fromRoman(value);
        return { number, roman: toRoman(number) };
      },
    }),
  },
});
