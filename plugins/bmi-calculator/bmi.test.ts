import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import bmiCalculator from './index.js';
import { classify } from './bmi.js';

const calculate = (body: unknown): Promise<unknown> => invoke(bmiCalculator, 'calculate', body);

/** Asserts a 400 whose details name `path`. */
async function rejectsField(body: unknown, path: string): Promise<void> {
  await assert.rejects(calculate(body), (error: { status?: number; code?: string; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.equal(error.code, 'validation_failed');
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

describe('bmi-calculator.calculate', () => {
  it('computes 70 kg at 175 cm by hand', async () => {
    // h² = 1.75² = 3.0625; 70 / 3.0625 = 22.857… → 22.9 (normal).
    // 18.5 · 3.0625 = 56.65625 → 56.7; 24.9 · 3.0625 = 76.25625 → 76.3.
    assert.deepEqual(await calculate({ weightKg: 70, heightCm: 175 }), {
      bmi: 22.9,
      category: 'normal',
      normalWeightKg: { min: 56.7, max: 76.3 },
    });
  });

  it('classifies on the rounded value at every WHO boundary (200 cm, h² = 4, so BMI = weight / 4)', async () => {
    // Each pair: weight/4 is x.x5 (a tie, shown rounded up into the next class) and x.x25 (stays below).
    const cases: [number, number, string][] = [
      [63.7, 15.9, 'severe-thinness'], // 63.7 / 4 = 15.925
      [63.8, 16, 'moderate-thinness'], // 63.8 / 4 = 15.95 → 16.0
      [67.7, 16.9, 'moderate-thinness'], // 16.925
      [67.8, 17, 'mild-thinness'], // 16.95 → 17.0
      [73.7, 18.4, 'mild-thinness'], // 18.425
      [73.8, 18.5, 'normal'], // 18.45 → 18.5
      [99.7, 24.9, 'normal'], // 24.925
      [99.8, 25, 'pre-obese'], // 24.95 → 25.0
      [119.7, 29.9, 'pre-obese'], // 29.925
      [119.8, 30, 'obese-1'], // 29.95 → 30.0
      [139.7, 34.9, 'obese-1'], // 34.925
      [139.8, 35, 'obese-2'], // 34.95 → 35.0
      [159.7, 39.9, 'obese-2'], // 39.925
      [159.8, 40, 'obese-3'], // 39.95 → 40.0
    ];
    for (const [weightKg, bmi, category] of cases) {
      // Normal range at 2 m: 18.5 · 4 = 74, 24.9 · 4 = 99.6.
      assert.deepEqual(await calculate({ weightKg, heightCm: 200 }), { bmi, category, normalWeightKg: { min: 74, max: 99.6 } }, `${weightKg} kg`);
    }
  });

  it('accepts the bounds just inside: 700 kg at 30 cm and a tiny weight at 300 cm', async () => {
    // 700 / 0.09 = 7777.77… → 7777.8; 18.5 · 0.09 = 1.665 → 1.7 (tie, half away from zero); 24.9 · 0.09 = 2.241 → 2.2.
    assert.deepEqual(await calculate({ weightKg: 700, heightCm: 30 }), {
      bmi: 7777.8,
      category: 'obese-3',
      normalWeightKg: { min: 1.7, max: 2.2 },
    });
    // 0.001 / 9 = 0.000111 → 0.0; 18.5 · 9 = 166.5; 24.9 · 9 = 224.1.
    assert.deepEqual(await calculate({ weightKg: 0.001, heightCm: 300 }), {
      bmi: 0,
      category: 'severe-thinness',
      normalWeightKg: { min: 166.5, max: 224.1 },
    });
  });

  it('refuses values just outside the bounds with details on the field', async () => {
    await rejectsField({ weightKg: 0, heightCm: 175 }, '/weightKg'); // exclusive minimum
    await rejectsField({ weightKg: -70, heightCm: 175 }, '/weightKg');
    await rejectsField({ weightKg: 700.001, heightCm: 175 }, '/weightKg');
    await rejectsField({ weightKg: 70, heightCm: 29.999 }, '/heightCm');
    await rejectsField({ weightKg: 70, heightCm: 300.001 }, '/heightCm');
  });

  it('refuses missing fields, strings for numbers and unknown properties', async () => {
    await rejectsField({ heightCm: 175 }, '/weightKg');
    await rejectsField({ weightKg: 70 }, '/heightCm');
    await rejectsField({ weightKg: '70', heightCm: 175 }, '/weightKg');
    await rejectsField({ weightKg: 70, heightCm: 175, age: 30 }, '/age');
  });

  it('survives hostile input: extreme numbers, a huge string, the smallest double, a non-object body', async () => {
    await rejectsField({ weightKg: 1e308, heightCm: 1e308 }, '/weightKg');
    await rejectsField({ weightKg: 70, heightCm: 'x'.repeat(10_000_000) }, '/heightCm');
    await rejectsField({ weightKg: 70, heightCm: '\ud800' }, '/heightCm');
    await rejectsField([70, 175], '');
    // 5e-324 kg is > 0, so valid; its BMI rounds to 0.0 and must not come back as -0 or NaN.
    assert.deepEqual(await calculate({ weightKg: 5e-324, heightCm: 100 }), {
      bmi: 0,
      category: 'severe-thinness',
      normalWeightKg: { min: 18.5, max: 24.9 },
    });
  });
});

describe('bmi classify', () => {
  it('puts each boundary value into the upper class', () => {
    assert.equal(classify(15.9), 'severe-thinness');
    assert.equal(classify(16), 'moderate-thinness');
    assert.equal(classify(18.5), 'normal');
    assert.equal(classify(24.9), 'normal');
    assert.equal(classify(25), 'pre-obese');
    assert.equal(classify(40), 'obese-3');
    assert.equal(classify(7777.8), 'obese-3');
  });
});
