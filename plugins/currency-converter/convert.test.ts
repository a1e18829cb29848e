import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import { roundSignificant } from './convert.js';
import { ecbDocument, startFeed, type FakeFeed } from './fake-feed.js';
import currency from './index.js';

// The feed (fake-feed.ts EXAMPLE_RATES), units for 1 EUR: USD 1.0892, JPY 162.17, GBP 0.8552, CHF 0.9627.
let feed: FakeFeed;
const now = () => new Date('2024-03-15T17:00:00Z');
const call = (operation: string, body: unknown): Promise<unknown> => invoke(currency, operation, body, { config: { ratesUrl: feed.url }, now });

before(async () => {
  feed = await startFeed();
});
after(async () => {
  await currency.close?.();
  await feed.close();
});

describe('currency-converter: rounding', () => {
  it('rounds to 6 significant digits half away from zero on the decimal form', () => {
    assert.equal(roundSignificant(148.889092912229, 6), 148.889);
    assert.equal(roundSignificant(0.918105031215571, 6), 0.918105);
    // 0.88385971… → 0.883860: the trailing zero is not written.
    assert.equal(roundSignificant(0.88385971355123, 6), 0.88386);
    // 1.2345650 is the double 1.23456499999999994… : the decimal form decides, so it rounds up.
    assert.equal(roundSignificant(1.234565, 6), 1.23457);
    assert.equal(roundSignificant(9.999995, 6), 10);
    assert.equal(roundSignificant(123456789, 6), 123457000);
    assert.equal(roundSignificant(0.00593636307578467, 6), 0.00593636);
    assert.equal(roundSignificant(1, 6), 1);
  });
});

describe('currency-converter: the manifest examples against the fake feed', () => {
  for (const name of ['convert', 'rates'] as const) {
    for (const example of currency.operations[name].examples) {
      it(`${name}: ${example.title}`, async () => {
        assert.deepEqual(await call(name, example.body), example.response);
      });
    }
  }
  // The working behind them (bc, scale 20):
  //   USD→EUR 1/1.0892 = 0.918105031215…      → 0.918105; 100 × it = 91.81050312… → 91.8105
  //   USD→JPY 162.17/1.0892 = 148.889092912…  → 148.889;  100 × it = 14888.909291… → 14888.9093
  //   USD→GBP 0.8552/1.0892 = 0.785163422695… → 0.785163; 100 × it = 78.51634226… → 78.5163
  //   USD→CHF 0.9627/1.0892 = 0.883859713551… → 0.883860 (written 0.88386)
  //   GBP→USD 1.0892/0.8552 = 1.273620205799… → 1.27362;  250 × it = 318.405051449… → 318.4051
  it('has the examples the working above gives', () => {
    assert.deepEqual((currency.operations.convert.examples[0].response as { results: unknown }).results, [
      { currency: 'EUR', rate: 0.918105, value: 91.8105 },
      { currency: 'JPY', rate: 148.889, value: 14888.9093 },
      { currency: 'GBP', rate: 0.785163, value: 78.5163 },
    ]);
  });
});

describe('currency-converter.convert', () => {
  it('goes through EUR for a cross rate: JPY → GBP and CHF', async () => {
    // JPY→GBP 0.8552/162.17 = 0.005273478447… → 0.00527348; 10000 × it = 52.734784484… → 52.7348
    // JPY→CHF 0.9627/162.17 = 0.005936363075… → 0.00593636; 10000 × it = 59.363630757… → 59.3636
    assert.deepEqual(await call('convert', { amount: 10000, from: 'JPY', to: ['gbp', 'Chf'] }), {
      amount: 10000,
      from: 'JPY',
      date: '2024-03-15',
      results: [
        { currency: 'GBP', rate: 0.00527348, value: 52.7348 },
        { currency: 'CHF', rate: 0.00593636, value: 59.3636 },
      ],
      source: 'European Central Bank',
    });
  });

  it('treats EUR as a currency of rate 1, also into itself, and a code into itself as 1', async () => {
    const answer = (await call('convert', { amount: 2.5, from: 'eur', to: ['EUR', 'CHF', 'usd'] })) as { results: unknown[] };
    // 2.5 × 0.9627 = 2.40675 exactly → 2.4068 (half away from zero); 2.5 × 1.0892 = 2.723
    assert.deepEqual(answer.results, [
      { currency: 'EUR', rate: 1, value: 2.5 },
      { currency: 'CHF', rate: 0.9627, value: 2.4068 },
      { currency: 'USD', rate: 1.0892, value: 2.723 },
    ]);
    const same = (await call('convert', { amount: 7, from: 'GBP', to: 'GBP' })) as { results: unknown[] };
    assert.deepEqual(same.results, [{ currency: 'GBP', rate: 1, value: 7 }]);
  });

  it('converts negative amounts and zero linearly', async () => {
    // -100 × 0.918105031… = -91.8105031… → -91.8105
    const negative = (await call('convert', { amount: -100, from: 'USD', to: 'EUR' })) as { amount: number; results: unknown[] };
    assert.equal(negative.amount, -100);
    assert.deepEqual(negative.results, [{ currency: 'EUR', rate: 0.918105, value: -91.8105 }]);
    const zero = (await call('convert', { amount: 0, from: 'USD', to: 'EUR' })) as { results: unknown[] };
    assert.deepEqual(zero.results, [{ currency: 'EUR', rate: 0.918105, value: 0 }]);
    // -0.00001 × 1.0892 = -0.0000109 → 0, never -0.
    const tiny = (await call('convert', { amount: -0.00001, from: 'EUR', to: 'USD' })) as { results: { value: number }[] };
    assert.ok(Object.is(tiny.results[0].value, 0));
  });

  it('converts the largest amount, 10^12', async () => {
    // 10^12 × 162.17 = 162,170,000,000,000 (exact)
    const answer = (await call('convert', { amount: 1e12, from: 'EUR', to: 'JPY' })) as { results: unknown[] };
    assert.deepEqual(answer.results, [{ currency: 'JPY', rate: 162.17, value: 162170000000000 }]);
  });

  it('answers 422 unknown_currency for a well-formed code the feed does not list', async () => {
    await rejectsWith(call('convert', { from: 'XYZ', to: 'EUR' }), 422, 'unknown_currency');
    await rejectsWith(call('convert', { from: 'USD', to: 'SEK' }), 422, 'unknown_currency');
    await rejectsWith(call('convert', { from: 'USD', to: ['EUR', 'sek'] }), 422, 'unknown_currency');
    await assert.rejects(call('convert', { from: 'USD', to: ['EUR', 'sek'] }), { message: /SEK \(at \/to\/1\)/ });
  });

  it('refuses a repeated target (compared case-insensitively) with 400 naming each repeat', async () => {
    // An exact repeat breaks the schema's uniqueItems, which names it; the handler finds the rest.
    await rejectsWith(call('convert', { from: 'USD', to: ['EUR', 'GBP', 'eur', 'EUR'] }), 400, 'validation_failed', ['/to/3']);
    await rejectsWith(call('convert', { from: 'USD', to: ['EUR', 'GBP', 'eur'] }), 400, 'validation_failed', ['/to/2']);
  });

  it('checks the schema: codes, amount bounds, 1–40 targets', async () => {
    for (const from of ['US', 'USDX', 'U5D', 'ÜSD', '']) await rejectsField(call('convert', { from, to: 'EUR' }), '/from');
    await rejectsField(call('convert', { to: 'EUR' }), '/from');
    await rejectsField(call('convert', { from: 'USD' }), '/to');
    await rejectsField(call('convert', { from: 'USD', to: [] }), '/to');
    await rejectsField(call('convert', { from: 'USD', to: 'EURO' }), '/to');
    await rejectsField(call('convert', { from: 'USD', to: Array.from({ length: 41 }, () => 'EUR') }), '/to');
    await rejectsField(call('convert', { from: 'USD', to: 'EUR', amount: 1e12 + 1 }), '/amount');
    await rejectsField(call('convert', { from: 'USD', to: 'EUR', amount: -1e12 - 1 }), '/amount');
    await rejectsField(call('convert', { from: 'USD', to: 'EUR', amount: '5' }), '/amount');
    await rejectsField(call('convert', { from: 'USD', to: 'EUR', rate: 1 }), '/rate');
  });

  it('takes 40 different targets, in request order', async () => {
    // A feed of 39 codes QAA…QBM with rates 1…39 (units for 1 EUR), plus EUR itself: 40 targets.
    const codes = Array.from({ length: 39 }, (_, index) => `Q${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`);
    const wide = await startFeed(ecbDocument('2024-03-15', Object.fromEntries(codes.map((code, index) => [code, String(index + 1)]))));
    try {
      const to = ['EUR', ...[...codes].reverse()];
      const answer = (await invoke(currency, 'convert', { amount: 2, from: 'EUR', to }, { config: { ratesUrl: wide.url }, now })) as { results: unknown[] };
      // From EUR the rate is the feed's rate itself: QBM (the 39th) is 39, value 2 × 39 = 78.
      assert.deepEqual(answer.results, [
        { currency: 'EUR', rate: 1, value: 2 },
        ...[...codes].reverse().map((currency, index) => ({ currency, rate: 39 - index, value: 2 * (39 - index) })),
      ]);
    } finally {
      await wide.close();
    }
  });
});

describe('currency-converter.rates', () => {
  it('answers for base GBP with EUR listed and GBP left out', async () => {
    // 1/0.8552 = 1.169317118… → 1.16932; 0.9627/0.8552 = 1.125701590… → 1.1257;
    // 162.17/0.8552 = 189.628157156… → 189.628; 1.0892/0.8552 = 1.273620205… → 1.27362
    assert.deepEqual(await call('rates', { base: 'gbp' }), {
      base: 'GBP',
      date: '2024-03-15',
      rates: { CHF: 1.1257, EUR: 1.16932, JPY: 189.628, USD: 1.27362 },
      source: 'European Central Bank',
    });
  });

  it('answers 422 unknown_currency for an unlisted base and 400 for a malformed one', async () => {
    await rejectsWith(call('rates', { base: 'SEK' }), 422, 'unknown_currency');
    await rejectsField(call('rates', { base: 'EU' }), '/base');
    await rejectsField(call('rates', { base: 'EUR', symbols: ['USD'] }), '/symbols');
  });
});
