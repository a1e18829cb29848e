import { definePlugin, defineOperation, Type, type TSchema } from '@toolshed/plugin-sdk';
import { applyPercent, baseOf, change, percentOf, ratio } from './percent.js';
import { splitVat } from './vat.js';

const closed = { additionalProperties: false } as const;
const result = Type.Object({ result: Type.Number({ description: 'Rounded to 10 decimal places' }) }, closed);

/** A request of required JSON numbers. */
function numbers<Fields extends Record<string, TSchema>>(fields: Fields) {
  return Type.Object(fields, closed);
}

export default definePlugin({
  group: 'percent-calculator',
  sdk: '^1.0.0',
  summary: 'Percentages, percentage change and VAT',
  title: 'Percentage calculator',
  category: 'Numbers and money',
  keywords: ['percent', 'percentage', 'vat', 'tax', 'change'],
  errors: {
    division_by_zero: 'The operation would divide by a zero whole, percent or starting value',
    result_not_finite: 'The result is too large for a double-precision number',
  },
  operations: {
    of: defineOperation({
      summary: 'percent % of base',
      io: { output: 'result' },
      errors: ['result_not_finite'],
      description: 'result = percent · base / 100, rounded to 10 decimal places.',
      body: numbers({ percent: Type.Number({ description: 'The percentage to take' }), base: Type.Number({ description: 'The value to take it of' }) }),
      response: result,
      examples: [{ title: '15 % of 80', body: { percent: 15, base: 80 }, response: { result: 12 } }],
      handler: ({ percent, base }) => ({ result: percentOf(percent, base) }),
    }),
    ratio: defineOperation({
      summary: 'What percent part is of whole',
      io: { output: 'result' },
      errors: ['division_by_zero', 'result_not_finite'],
      description: 'result = part / whole · 100, rounded to 10 decimal places; a zero whole is 422 division_by_zero.',
      body: numbers({ part: Type.Number({ description: 'The part' }), whole: Type.Number({ description: 'The whole it is part of (not 0)' }) }),
      response: result,
      examples: [{ title: '1 of 3', body: { part: 1, whole: 3 }, response: { result: 33.3333333333 } }],
      handler: ({ part, whole }) => ({ result: ratio(part, whole) }),
    }),
    base: defineOperation({
      summary: 'The base value of which part is percent %',
      io: { output: 'result' },
      errors: ['division_by_zero', 'result_not_finite'],
      description: 'result = part · 100 / percent, rounded to 10 decimal places; a zero percent is 422 division_by_zero.',
      body: numbers({
        part: Type.Number({ description: 'The known part' }),
        percent: Type.Number({ description: 'Which percentage of the base the part is' }),
      }),
      response: result,
      examples: [{ title: '30 is 15 % of 200', body: { part: 30, percent: 15 }, response: { result: 200 } }],
      handler: ({ part, percent }) => ({ result: baseOf(part, percent) }),
    }),
    change: defineOperation({
      summary: 'Percentage change from one value to another',
      io: { output: 'result' },
      errors: ['division_by_zero', 'result_not_finite'],
      description: 'result = (to − from) / |from| · 100, rounded to 10 decimal places; a zero from is 422 division_by_zero.',
      body: numbers({ from: Type.Number({ description: 'The starting value (not 0)' }), to: Type.Number({ description: 'The new value' }) }),
      response: result,
      examples: [{ title: '80 → 100', body: { from: 80, to: 100 }, response: { result: 25 } }],
      handler: ({ from, to }) => ({ result: change(from, to) }),
    }),
    apply: defineOperation({
      summary: 'Add (or, with a negative percent, subtract) a percentage',
      io: { output: 'result' },
      errors: ['result_not_finite'],
      description: 'result = base · (1 + percent / 100), rounded to 10 decimal places.',
      body: numbers({ base: Type.Number({ description: 'The value to add the percentage to' }), percent: Type.Number({ description: 'Negative for discounts' }) }),
      response: result,
      examples: [
        { title: '100 plus 19 %', body: { base: 100, percent: 19 }, response: { result: 119 } },
        { title: '80 minus 25 %', body: { base: 80, percent: -25 }, response: { result: 60 } },
      ],
      handler: ({ base, percent }) => ({ result: applyPercent(base, percent) }),
    }),
    vat: defineOperation({
      summary: 'Net, VAT and gross amounts, to the cent',
      io: { input: 'amount', output: 'gross' },
      errors: ['result_not_finite'],
      description:
        'The given amount is rounded to cents; the other is computed from it (gross = net · (1 + rate/100), ' +
        'net = gross / (1 + rate/100)) and rounded to cents half away from zero; vat = gross − net exactly.',
      body: Type.Object(
        {
          amount: Type.Number({ description: 'The net or the gross amount, by direction' }),
          rate: Type.Number({ minimum: 0, maximum: 100, default: 19, description: 'VAT percent' }),
          direction: Type.Union([Type.Literal('net-to-gross'), Type.Literal('gross-to-net')], { default: 'net-to-gross', description: 'Whether amount is the net (VAT is added) or the gross (VAT is taken out)' }),
        },
        closed,
      ),
      response: Type.Object({ net: Type.Number(), vat: Type.Number(), gross: Type.Number() }, closed),
      examples: [
        { title: '100 net at the default 19 %', body: { amount: 100 }, response: { net: 100, vat: 19, gross: 119 } },
        {
          title: '100 gross at 19 %',
          body: { amount: 100, direction: 'gross-to-net' },
          response: { net: 84.03, vat: 15.97, gross: 100 },
        },
      ],
      handler: ({ amount, rate, direction }) => splitVat(amount, rate, direction),
    }),
  },
});
