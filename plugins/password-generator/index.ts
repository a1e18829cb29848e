import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { generatePassphrases } from './passphrase.js';
import { AMBIGUOUS, CHARACTER_CLASSES, generatePasswords, NO_CLASS_SELECTED, SYMBOLS } from './password.js';

const closed = { additionalProperties: false } as const;

const response = Type.Object(
  {
    passwords: Type.Array(Type.String()),
    entropyBits: Type.Number({ description: 'Entropy of each password in bits, one decimal' }),
    strength: Type.Enum(['weak', 'fair', 'strong', 'veryStrong'], {
      description: 'From entropyBits: < 40 weak, < 60 fair, < 80 strong, else veryStrong',
    }),
    crackSeconds: Type.Number({
      description: 'Average offline brute-force time at 10 billion guesses a second: 2^entropyBits / 2 / 1e10, 3 significant digits',
    }),
  },
  closed,
);

const count = Type.Integer({ minimum: 1, maximum: 50, default: 1, description: 'How many to generate' });

export default definePlugin({
  group: 'password-generator',
  sdk: '^1.0.0',
  summary: "Random passwords and Diceware passphrases (EFF's large word list, CC BY 3.0 US) from node:crypto",
  title: 'Password generator',
  category: 'Security',
  keywords: ['passphrase', 'diceware', 'strength', 'random password'],
  operations: {
    password: defineOperation({
      summary: 'Generate random passwords',
      io: { output: 'passwords' },
      deterministic: false, // random
      description:
        `Each selected class appears at least once; every such password is equally likely. Symbols: \`${SYMBOLS}\` ` +
        `(the 32 ASCII punctuation characters). excludeAmbiguous removes \`${AMBIGUOUS}\`. ` +
        'entropyBits = length · log2(pool size). At least one class must be true (the schema\'s `anyOf`; 400 otherwise).',
      body: Type.Object(
        {
          length: Type.Integer({ minimum: 4, maximum: 128, default: 20, description: 'Characters per password' }),
          lowercase: Type.Boolean({ default: true, description: `Include a–z; ${NO_CLASS_SELECTED}` }),
          uppercase: Type.Boolean({ default: true, description: `Include A–Z; ${NO_CLASS_SELECTED}` }),
          digits: Type.Boolean({ default: true, description: `Include 0–9; ${NO_CLASS_SELECTED}` }),
          symbols: Type.Boolean({ default: true, description: `Include ASCII punctuation; ${NO_CLASS_SELECTED}` }),
          excludeAmbiguous: Type.Boolean({ default: false, description: `Leave out ${AMBIGUOUS.split('').join(' ')}` }),
          count,
        },
        {
          ...closed,
          allOf: [
            {
              description: NO_CLASS_SELECTED,
              anyOf: CHARACTER_CLASSES.map((name) => ({ properties: { [name]: { const: true } } })),
            },
          ],
        },
      ),
      response,
      examples: [
        {
          // Random by nature: the password is one possible answer; the other fields are exact.
          title: 'Four digits (one possible password)',
          exact: false,
          body: { length: 4, lowercase: false, uppercase: false, symbols: false },
          response: { passwords: ['4071'], entropyBits: 13.3, strength: 'weak', crackSeconds: 5.04e-7 },
        },
      ],
      handler: (options) => generatePasswords(options),
    }),
    passphrase: defineOperation({
      summary: "Generate Diceware passphrases from EFF's large word list",
      io: { output: 'passwords' },
      deterministic: false, // random
      description:
        "Words are drawn independently from EFF's large word list (7776 words, log2(7776) ≈ 12.925 bits each; " +
        'https://www.eff.org/dice, CC BY 3.0 US, by the Electronic Frontier Foundation). includeNumber appends one ' +
        'random digit to one random word and adds log2(10 · words) bits.',
      body: Type.Object(
        {
          words: Type.Integer({ minimum: 3, maximum: 12, default: 5, description: 'Words per passphrase' }),
          separator: Type.String({ maxLength: 3, default: '-', description: 'Between words; up to 3 code points' }),
          capitalize: Type.Boolean({ default: false, description: 'Capitalize each word' }),
          includeNumber: Type.Boolean({ default: false, description: 'Append a digit to one random word' }),
          count,
        },
        closed,
      ),
      response,
      examples: [
        {
          // Random by nature: the passphrase is one possible answer; the other fields are exact.
          title: 'Five words (one possible passphrase)',
          exact: false,
          body: {},
          response: { passwords: ['cleft-cabbage-synergy-jogging-dingbat'], entropyBits: 64.6, strength: 'strong', crackSeconds: 1.4e9 },
        },
      ],
      handler: (options) => generatePassphrases(options),
    }),
  },
});
