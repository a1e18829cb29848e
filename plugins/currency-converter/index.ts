import { definePlugin, defineOperation, Type, type OperationContext } from '@toolshed/plugin-sdk';
import { CurrencyConfigSchema, type CurrencyConfig } from './config.js';
import { convert, ratesFor, targetCodes } from './convert.js';
import { closeRateStores, currentRates } from './rate-store.js';

const closed = { additionalProperties: false } as const;
const codePattern = '^[A-Za-z]{3}$';
const Code = (description: string) => Type.String({ pattern: codePattern, description });
const Rate = Type.Number({ exclusiveMinimum: 0, description: 'Units of the target currency for 1 unit of the base, to 6 significant digits' });
const RateDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'Day of the reference rates (the feed\'s Cube time), YYYY-MM-DD' });
const Source = Type.String({ description: 'The rate provider: European Central Bank' });

const ConversionResult = Type.Object(
  {
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'Target currency, upper case' }),
    rate: Rate,
    value: Type.Number({ description: 'amount × the unrounded rate, rounded half away from zero to 4 decimals' }),
  },
  closed,
);

const upstreamNote =
  'Rates are the ECB euro foreign exchange reference rates (about 30 currencies and EUR, published on TARGET working days around 16:00 CET); ' +
  'cross rates go through EUR. They are fetched on the first request and again in the background once older than `currency.refreshMinutes`; ' +
  'if the feed fails the last good set keeps answering (see `date`). With no rates loaded yet and the feed failing: 503 `upstream_unavailable`. ' +
  'The examples use a fixed test feed of 2024-03-15 (USD 1.0892, JPY 162.17, GBP 0.8552, CHF 0.9627).';

export default definePlugin({
  group: 'currency-converter',
  sdk: '^1.0.0',
  summary: 'Currency conversion with the European Central Bank reference rates',
  title: 'Currency converter',
  category: 'Numbers and money',
  keywords: ['exchange rate', 'ecb', 'euro', 'dollar', 'money', 'fx'],
  errors: {
    unknown_currency: 'A currency code is not among the currencies of the current reference rates (EUR and the ECB list)',
  },
  config: { section: 'currency', schema: CurrencyConfigSchema },
  close: closeRateStores,
  operations: {
    convert: defineOperation({
      summary: 'Convert an amount from one currency into one or more others',
      errors: ['unknown_currency'],
      description:
        'Codes are ISO 4217, case-insensitive. `rate` has 6 significant digits; `value` is amount × the unrounded rate, to 4 decimals. ' +
        'Results come in the order of `to`; a code repeated in `to` is refused with 400. ' +
        upstreamNote,
      upstream: true,
      body: Type.Object(
        {
          amount: Type.Number({ minimum: -1e12, maximum: 1e12, default: 1, description: 'Amount in `from`; negative amounts (refunds, debts) convert the same way' }),
          from: Code('Source currency (3 letters, ISO 4217, case-insensitive)'),
          to: Type.Union([Code('One target currency'), Type.Array(Code('A target currency'), { minItems: 1, maxItems: 40, uniqueItems: true })], {
            description: 'One target currency, or an array of 1–40 different ones (codes that differ only in letter case are the same currency: 400)',
          }),
        },
        closed,
      ),
      response: Type.Object(
        {
          amount: Type.Number({ description: 'The amount as given' }),
          from: Type.String({ pattern: '^[A-Z]{3}$', description: 'Source currency, upper case' }),
          date: RateDate,
          results: Type.Array(ConversionResult, { description: 'One result per target, in request order' }),
          source: Source,
        },
        closed,
      ),
      examples: [
        {
          title: '100 US dollars into three currencies (codes in any case)',
          body: { amount: 100, from: 'usd', to: ['EUR', 'jpy', 'GBP'] },
          response: {
            amount: 100,
            from: 'USD',
            date: '2024-03-15',
            results: [
              { currency: 'EUR', rate: 0.918105, value: 91.8105 },
              { currency: 'JPY', rate: 148.889, value: 14888.9093 },
              { currency: 'GBP', rate: 0.785163, value: 78.5163 },
            ],
            source: 'European Central Bank',
          },
        },
        {
          title: 'One target as a string; the value comes from the unrounded rate (250 × 1.27362 would be 318.405)',
          body: { amount: 250, from: 'GBP', to: 'USD' },
          response: { amount: 250, from: 'GBP', date: '2024-03-15', results: [{ currency: 'USD', rate: 1.27362, value: 318.4051 }], source: 'European Central Bank' },
        },
        {
          title: 'The amount defaults to 1',
          body: { from: 'EUR', to: 'CHF' },
          response: { amount: 1, from: 'EUR', date: '2024-03-15', results: [{ currency: 'CHF', rate: 0.9627, value: 0.9627 }], source: 'European Central Bank' },
        },
      ],
      handler: async (input, context: OperationContext<CurrencyConfig>) => {
        const targets = targetCodes(input.to);
        return convert(input, targets, await currentRates(context.config, context.now(), context.signal));
      },
    }),
    rates: defineOperation({
      summary: 'All reference rates for one base currency',
      errors: ['unknown_currency'],
      description: 'Every currency of the day, EUR included, except the base itself, in code order, each per 1 unit of the base. ' + upstreamNote,
      upstream: true,
      body: Type.Object({ base: Type.String({ pattern: codePattern, default: 'EUR', description: 'Base currency (3 letters, case-insensitive)' }) }, closed),
      response: Type.Object(
        {
          base: Type.String({ pattern: '^[A-Z]{3}$', description: 'Base currency, upper case' }),
          date: RateDate,
          rates: Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Rate, { additionalProperties: false, description: 'Currency code → units of it for 1 unit of the base; the base is left out' }),
          source: Source,
        },
        closed,
      ),
      examples: [
        {
          title: 'The rates as published: base EUR',
          body: {},
          response: { base: 'EUR', date: '2024-03-15', rates: { CHF: 0.9627, GBP: 0.8552, JPY: 162.17, USD: 1.0892 }, source: 'European Central Bank' },
        },
        {
          title: 'Cross rates for US dollars',
          body: { base: 'usd' },
          response: {
            base: 'USD',
            date: '2024-03-15',
            rates: { CHF: 0.88386, EUR: 0.918105, GBP: 0.785163, JPY: 148.889 },
            source: 'European Central Bank',
          },
        },
      ],
      handler: async (input, context: OperationContext<CurrencyConfig>) =>
        ratesFor(input.base, await currentRates(context.config, context.now(), context.signal)),
    }),
  },
});
