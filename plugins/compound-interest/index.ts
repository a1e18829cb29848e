import { definePlugin, defineOperation, Type } from '@toolshed/plugin-sdk';
import { simulate } from './simulate.js';

const closed = { additionalProperties: false } as const;
const money = (description: string) => Type.Number({ description: `${description}, rounded to cents` });

const yearRow = Type.Object(
  {
    year: Type.Integer({ minimum: 1 }),
    contributions: money("This year's monthly contributions"),
    interest: money("This year's interest"),
    balance: money('Closing balance of the year'),
    totalContributions: money('Initial capital plus all contributions so far'),
    totalInterest: money('All interest so far'),
  },
  closed,
);

export default definePlugin({
  group: 'compound-interest',
  sdk: '^1.0.0',
  summary: 'Compound-interest savings simulation with monthly contributions',
  title: 'Compound interest',
  category: 'Numbers and money',
  keywords: ['savings', 'interest', 'investment', 'finance'],
  operations: {
    simulate: defineOperation({
      summary: 'Simulate savings year by year',
      description:
        'Monthly compounding: each month the balance grows by rate/12 %, then the contribution is added. ' +
        'Yearly compounding: the opening balance earns the full rate, each end-of-month contribution earns ' +
        'simple interest for the rest of the year (savings-book method). `increase` raises the monthly ' +
        'contribution once a year from year 2 on. Computed unrounded, reported in cents so that ' +
        'final = totalContributions + totalInterest and the rows add up to the totals.',
      body: Type.Object(
        {
          initial: Type.Number({ minimum: 0, maximum: 1_000_000_000_000, default: 0, description: 'Starting capital' }),
          monthly: Type.Number({ minimum: 0, maximum: 1_000_000_000_000, default: 0, description: 'Contribution at the end of each month' }),
          rate: Type.Number({ minimum: -50, maximum: 100, description: 'Nominal yearly interest rate in percent' }),
          years: Type.Integer({ minimum: 1, maximum: 100, description: 'How many years to simulate (one row each)' }),
          compounding: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')], { default: 'monthly', description: 'When interest is added to the balance: every month or once a year' }),
          increase: Type.Number({ minimum: 0, maximum: 100, default: 0, description: 'Yearly percent increase of the monthly contribution' }),
        },
        closed,
      ),
      response: Type.Object(
        {
          final: money('Balance at the end'),
          totalContributions: money('Initial capital plus all contributions'),
          totalInterest: money('All interest'),
          rows: Type.Array(yearRow, { description: 'One row per year' }),
        },
        closed,
      ),
      examples: [
        {
          title: '1000 at 5 %, compounded monthly, 1 year: 1000 · (1 + 0.05/12)^12',
          body: { initial: 1000, rate: 5, years: 1 },
          response: {
            final: 1051.16,
            totalContributions: 1000,
            totalInterest: 51.16,
            rows: [{ year: 1, contributions: 0, interest: 51.16, balance: 1051.16, totalContributions: 1000, totalInterest: 51.16 }],
          },
        },
        {
          title: '100 a month at 12 %, yearly crediting (savings-book method), 1 year',
          body: { monthly: 100, rate: 12, years: 1, compounding: 'yearly' },
          response: {
            final: 1266,
            totalContributions: 1200,
            totalInterest: 66,
            rows: [{ year: 1, contributions: 1200, interest: 66, balance: 1266, totalContributions: 1200, totalInterest: 66 }],
          },
        },
      ],
      handler: (input) => simulate(input),
    }),
  },
});
