import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import percentCalculator from './index.js';

const vat = (body: unknown): Promise<unknown> => invoke(percentCalculator, 'vat', body);

/** Asserts a 400 whose details name `path`. */
async function rejectsField(body: unknown, path: string): Promise<void> {
  await assert.rejects(vat(body), (error: { status?: number; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

describe('percent-calculator.vat', () => {
  it('defaults to 19 % net-to-gross', async () => {
    assert.deepEqual(await vat({ amount: 100 }), { net: 100, vat: 19, gross: 119 });
  });

  it('rounds gross to cents: 19.99 · 1.19 = 23.7881 → 23.79, vat 3.80', async () => {
    assert.deepEqual(await vat({ amount: 19.99 }), { net: 19.99, vat: 3.8, gross: 23.79 });
  });

  it('divides gross by (1 + rate/100): 100 / 1.19 = 84.0336… → 84.03, vat = 100 − 84.03 = 15.97', async () => {
    assert.deepEqual(await vat({ amount: 100, direction: 'gross-to-net' }), { net: 84.03, vat: 15.97, gross: 100 });
    // 119 / 1.19 = 100 exactly, whatever the float noise of 1.19.
    assert.deepEqual(await vat({ amount: 119, direction: 'gross-to-net' }), { net: 100, vat: 19, gross: 119 });
  });

  it('rounds a half cent away from zero: 0.50 · 1.19 = 0.595 → 0.60, and −0.595 → −0.60', async () => {
    assert.deepEqual(await vat({ amount: 0.5 }), { net: 0.5, vat: 0.1, gross: 0.6 });
    assert.deepEqual(await vat({ amount: -0.5 }), { net: -0.5, vat: -0.1, gross: -0.6 });
  });

  it('rounds the given amount to cents first: 10.004 net → 10.00, gross 11.90', async () => {
    assert.deepEqual(await vat({ amount: 10.004 }), { net: 10, vat: 1.9, gross: 11.9 });
  });

  it('handles credit notes (negative amounts) symmetrically', async () => {
    assert.deepEqual(await vat({ amount: -100, rate: 7 }), { net: -100, vat: -7, gross: -107 });
  });

  it('keeps vat = gross − net to the cent over many amounts and rates', async () => {
    for (const rate of [0, 5, 7, 7.7, 19, 20, 21, 25.5, 100]) {
      for (let cents = 1; cents <= 2001; cents += 37) {
        for (const direction of ['net-to-gross', 'gross-to-net']) {
          const answer = (await vat({ amount: cents / 100, rate, direction })) as { net: number; vat: number; gross: number };
          assert.equal(Math.round(answer.net * 100) + Math.round(answer.vat * 100), Math.round(answer.gross * 100));
          for (const value of Object.values(answer)) assert.equal(value, Math.round(value * 100) / 100, `${value} is whole cents`);
        }
      }
    }
  });

  it('accepts the rate bounds 0 and 100 and refuses just outside them', async () => {
    assert.deepEqual(await vat({ amount: 12.34, rate: 0 }), { net: 12.34, vat: 0, gross: 12.34 });
    assert.deepEqual(await vat({ amount: 12.34, rate: 100 }), { net: 12.34, vat: 12.34, gross: 24.68 });
    assert.deepEqual(await vat({ amount: 100, rate: 7.7 }), { net: 100, vat: 7.7, gross: 107.7 }); // 100 · 1.077
    await rejectsField({ amount: 100, rate: -0.01 }, '/rate');
    await rejectsField({ amount: 100, rate: 100.01 }, '/rate');
  });

  it('refuses a missing amount, an unknown direction and unknown fields', async () => {
    await rejectsField({ rate: 19 }, '/amount');
    await rejectsField({ amount: 1, direction: 'sideways' }, '/direction');
    await rejectsField({ amount: 1, currency: 'EUR' }, '/currency');
  });

  it('answers 422 result_not_finite when the gross amount overflows, and copes with huge finite amounts', async () => {
    await assert.rejects(vat({ amount: 1e308, rate: 100 }), { status: 422, code: 'result_not_finite' });
    // 1e308 / 2 = 5e307; 1e308 − 5e307 = 5e307.
    assert.deepEqual(await vat({ amount: 1e308, rate: 100, direction: 'gross-to-net' }), { net: 5e307, vat: 5e307, gross: 1e308 });
    // 1e15 · 1.19 = 1.19e15; vat 1.9e14.
    assert.deepEqual(await vat({ amount: 1e15 }), { net: 1e15, vat: 1.9e14, gross: 1.19e15 });
  });

  it('refuses hostile values: a 10 MB string, a lone surrogate, an array body', async () => {
    await rejectsField({ amount: '9'.repeat(10_000_000) }, '/amount');
    await rejectsField({ amount: 1, direction: '\ud800' }, '/direction');
    await rejectsField([100], '');
  });
});
