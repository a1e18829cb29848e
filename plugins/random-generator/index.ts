import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { flipCoins, randomNumbers, rollDice } from './draws.js';
import { makeTeams, MAX_OUTPUT_CHARS, pickItems, shuffleItems } from './lists.js';

const closed = { additionalProperties: false } as const;
const SAFE = Number.MAX_SAFE_INTEGER; // 2^53 − 1 = 9007199254740991
const itemList = Type.Array(Type.String(), { description: 'The list of items' });
const capNote = `Responses above ${MAX_OUTPUT_CHARS} characters of item text (plus 3 per item) are refused with 422 output_too_large.`;

export default definePlugin({
  group: 'random-generator',
  sdk: '^1.0.0',
  summary: 'Cryptographically secure random numbers, dice, coins, picks, shuffles and teams',
  title: 'Random generator',
  category: 'Security',
  keywords: ['dice', 'coin', 'shuffle', 'pick', 'random number', 'teams'],
  errors: {
    range_too_small: 'unique numbers were asked for, but the range holds fewer than count',
    not_enough_items: 'count is greater than the number of items to pick from',
    output_too_large: `The response would exceed ${MAX_OUTPUT_CHARS} characters`,
  },
  operations: {
    numbers: defineOperation({
      summary: 'Random integers in [min, max]',
      io: { output: 'numbers' },
      deterministic: false, // random
      errors: ['range_too_small'],
      description: 'Uniform (no modulo bias) over the whole range, which may span ±(2^53 − 1). min > max is a 400.',
      body: Type.Object(
        {
          min: Type.Integer({ minimum: -SAFE, maximum: SAFE, default: 1, description: 'Smallest value (inclusive)' }),
          max: Type.Integer({ minimum: -SAFE, maximum: SAFE, default: 100, description: 'Largest value (inclusive)' }),
          count: Type.Integer({ minimum: 1, maximum: 10000, default: 1, description: 'How many numbers' }),
          unique: Type.Boolean({ default: false, description: 'No duplicates' }),
          sort: Type.Boolean({ default: false, description: 'Ascending order' }),
        },
        closed,
      ),
      response: Type.Object({ numbers: Type.Array(Type.Integer()) }, closed),
      examples: [{ title: 'A range of one value', body: { min: 7, max: 7, count: 3 }, response: { numbers: [7, 7, 7] } }],
      handler: ({ min, max, count, unique, sort }) => ({ numbers: randomNumbers(min, max, count, unique, sort) }),
    }),
    dice: defineOperation({
      summary: 'Roll dice',
      deterministic: false, // random
      errors: [],
      body: Type.Object(
        {
          count: Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'How many dice' }),
          sides: Type.Integer({ minimum: 2, maximum: 1000, default: 6, description: 'Faces of each die' }),
        },
        closed,
      ),
      response: Type.Object({ rolls: Type.Array(Type.Integer()), sum: Type.Integer() }, closed),
      examples: [
        // Random by nature: this is one possible answer, not a reproducible one.
        { title: 'Two six-sided dice (one possible answer)', exact: false, body: { count: 2 }, response: { rolls: [3, 5], sum: 8 } },
      ],
      handler: ({ count, sides }) => rollDice(count, sides),
    }),
    coins: defineOperation({
      summary: 'Flip fair coins',
      deterministic: false, // random
      errors: [],
      body: Type.Object({ count: Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'How many coins' }) }, closed),
      response: Type.Object(
        {
          flips: Type.Array(Type.Enum(['heads', 'tails'])),
          heads: Type.Integer(),
          tails: Type.Integer(),
        },
        closed,
      ),
      examples: [
        // Random by nature: this is one possible answer, not a reproducible one.
        { title: 'Three coins (one possible answer)', exact: false, body: { count: 3 }, response: { flips: ['heads', 'tails', 'heads'], heads: 2, tails: 1 } },
      ],
      handler: ({ count }) => flipCoins(count),
    }),
    pick: defineOperation({
      summary: 'Draw distinct items (without replacement)',
      io: { input: 'items', output: 'picked' },
      deterministic: false, // random
      errors: ['not_enough_items', 'output_too_large'],
      description: `Items are drawn by position: a value listed twice can be drawn twice. ${capNote}`,
      body: Type.Object(
        {
          items: itemList,
          count: Type.Integer({ minimum: 1, maximum: 10000, default: 1, description: 'How many items to draw' }),
        },
        closed,
      ),
      response: Type.Object({ picked: Type.Array(Type.String()) }, closed),
      examples: [{ title: 'Drawing every item of a one-item list', body: { items: ['Ada'] }, response: { picked: ['Ada'] } }],
      handler: ({ items, count }) => ({ picked: pickItems(items, count) }),
    }),
    shuffle: defineOperation({
      summary: 'Shuffle a list',
      io: { input: 'items', output: 'items' },
      deterministic: false, // random
      errors: ['output_too_large'],
      description: `Every order is equally likely (Fisher–Yates). ${capNote}`,
      body: Type.Object({ items: itemList }, closed),
      response: Type.Object({ items: Type.Array(Type.String()) }, closed),
      examples: [{ title: 'A list of identical items', body: { items: ['x', 'x', 'x'] }, response: { items: ['x', 'x', 'x'] } }],
      handler: ({ items }) => ({ items: shuffleItems(items) }),
    }),
    teams: defineOperation({
      summary: 'Split a list into random teams',
      io: { input: 'items', output: 'teams' },
      deterministic: false, // random
      errors: ['output_too_large'],
      description:
        'The items are shuffled and dealt round-robin: team sizes differ by at most one, the first teams take the ' +
        `extra members, and with fewer items than teams the last teams are empty. ${capNote}`,
      body: Type.Object(
        {
          items: itemList,
          teams: Type.Integer({ minimum: 1, maximum: 1000, default: 2, description: 'How many teams' }),
        },
        closed,
      ),
      response: Type.Object({ teams: Type.Array(Type.Array(Type.String())) }, closed),
      examples: [{ title: 'Fewer items than teams', body: { items: ['Ada'], teams: 3 }, response: { teams: [['Ada'], [], []] } }],
      handler: ({ items, teams }) => ({ teams: makeTeams(items, teams) }),
    }),
  },
});
