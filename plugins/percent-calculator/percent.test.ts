import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import percentCalculator from './index.js';

const run = (operation: string, body: unknown): Promise<unknown> => invoke(percentCalculator, operation, body);

/** Asserts that the operation answers { result: expected }, treating -0 and 0 as different. */
async function gives(operation: string, body: unknown, expected: number): Promise<void> {
  const answer = (await run(operation, body)) as { result: number };
  assert.deepEqual(answer, { result: expected }, `${operation} ${JSON.stringify(body)}`);
}

/** Asserts a 422 with `code`. */
async function refuses(operation: string, body: unknown, code: string): Promise<void> {
  await assert.rejects(run(operation, body), (error: { status?: number; code?: string }) => error.status === 422 && error.code === code);
}

/** Asserts a 400 whose details name `path`. */
async function rejectsField(operation: string, body: unknown, path: string): Promise<void> {
  await assert.rejects(run(operation, body), (error: { status?: number; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

describe('percent-calculator.of', () => {
  it('computes percent · base / 100', async () => {
    await gives('of', { percent: 15, base: 80 }, 12); // 15 · 80 = 1200; / 100 = 12
    await gives('of', { percent: -10, base: 50 }, -5); // −10 · 50 / 100
    await gives('of', { percent: 200, base: 2.5 }, 5);
  });

  it('rounds away float noise: 7 % of 0.1 is 0.007, not 0.007000000000000001', async () => {
    await gives('of', { percent: 7, base: 0.1 }, 0.007);
  });

  it('rounds to 10 decimals, so a result below 0.5e-10 is 0, and never returns -0', async () => {
    await gives('of', { percent: 1e-9, base: 1 }, 0); // exact result 1e-11
    await gives('of', { percent: 1, base: 1 / 3 }, 0.0033333333); // 0.00333333333… cut after 10 decimals
    const answer = (await run('of', { percent: -5, base: 0 })) as { result: number };
    assert.ok(Object.is(answer.result, 0), 'expected +0');
  });

  it('survives an intermediate overflow when the result is finite: 10 % of 1e308 is 1e307', async () => {
    await gives('of', { percent: 10, base: 1e308 }, 1e307);
  });

  it('answers 422 result_not_finite when the result leaves the double range', async () => {
    await refuses('of', { percent: 1e308, base: 1e308 }, 'result_not_finite');
    await refuses('of', { percent: -1e308, base: 1e308 }, 'result_not_finite');
  });

  it('refuses missing fields, strings, unknown fields with details', async () => {
    await rejectsField('of', { percent: 15 }, '/base');
    await rejectsField('of', { percent: '15', base: 80 }, '/percent');
    await rejectsField('of', { percent: 15, base: 80, extra: 1 }, '/extra');
  });
});

describe('percent-calculator.ratio', () => {
  it('computes part / whole · 100 to 10 decimals', async () => {
    await gives('ratio', { part: 1, whole: 3 }, 33.3333333333); // 100 / 3 = 33.333…
    await gives('ratio', { part: 2, whole: 3 }, 66.6666666667); // 66.666… rounds up at the 10th decimal
    await gives('ratio', { part: -5, whole: 20 }, -25);
    await gives('ratio', { part: 5, whole: -20 }, -25);
    await gives('ratio', { part: 0.3, whole: 0.1 }, 300); // naive 0.3 / 0.1 · 100 = 299.99999999999994
  });

  it('answers 422 division_by_zero for a zero whole, even with a zero part', async () => {
    await refuses('ratio', { part: 5, whole: 0 }, 'division_by_zero');
    await refuses('ratio', { part: 0, whole: 0 }, 'division_by_zero');
    await refuses('ratio', { part: 5, whole: -0 }, 'division_by_zero');
  });

  it('answers 422 result_not_finite when the quotient overflows', async () => {
    await refuses('ratio', { part: 1e308, whole: 1e-308 }, 'result_not_finite');
  });
});

describe('percent-calculator.base', () => {
  it('computes part · 100 / percent', async () => {
    await gives('base', { part: 30, percent: 15 }, 200); // 3000 / 15
    await gives('base', { part: 0.7, percent: 7 }, 10);
    await gives('base', { part: -12, percent: 40 }, -30);
  });

  it('answers 422 division_by_zero for a zero percent', async () => {
    await refuses('base', { part: 30, percent: 0 }, 'division_by_zero');
  });

  it('survives an intermediate overflow: 1e308 at 1e10 % gives 1e300', async () => {
    await gives('base', { part: 1e308, percent: 1e10 }, 1e300); // 1e308 · 100 overflows; 1e308 / 1e10 · 100 does not
  });
});

describe('percent-calculator.change', () => {
  it('computes (to − from) / |from| · 100', async () => {
    await gives('change', { from: 80, to: 100 }, 25); // 20 / 80
    await gives('change', { from: 100, to: 80 }, -20);
    await gives('change', { from: -50, to: -25 }, 50); // +25 over |−50|: a rise
    await gives('change', { from: -50, to: -100 }, -100);
    await gives('change', { from: 0.1, to: 0.3 }, 200); // naive float gives 199.99999999999997
    await gives('change', { from: 7, to: 7 }, 0);
  });

  it('answers 422 division_by_zero for a zero from, even when to is 0', async () => {
    await refuses('change', { from: 0, to: 5 }, 'division_by_zero');
    await refuses('change', { from: 0, to: 0 }, 'division_by_zero');
  });

  it('survives to − from overflowing: 1e308 → −1e308 is −200 %', async () => {
    await gives('change', { from: 1e308, to: -1e308 }, -200);
  });

  it('answers 422 result_not_finite when the change itself overflows', async () => {
    await refuses('change', { from: 1e-308, to: 1e308 }, 'result_not_finite');
  });
});

describe('percent-calculator.apply', () => {
  it('computes base · (1 + percent / 100)', async () => {
    await gives('apply', { base: 100, percent: 19 }, 119);
    await gives('apply', { base: 80, percent: -25 }, 60);
    await gives('apply', { base: 3, percent: 10 }, 3.3); // naive 3 · 1.1 = 3.3000000000000003
    await gives('apply', { base: 50, percent: -100 }, 0);
  });

  it('answers 422 result_not_finite beyond the double range, and is fine just inside it', async () => {
    await refuses('apply', { base: 1e308, percent: 100 }, 'result_not_finite');
    await gives('apply', { base: 1.1e308, percent: -50 }, 5.5e307);
  });
});

describe('percent-calculator hostile input', () => {
  it('refuses a 10 MB string, a lone surrogate and a non-object body quickly', async () => {
    const started = performance.now();
    await rejectsField('of', { percent: 'x'.repeat(10_000_000), base: 1 }, '/percent');
    await rejectsField('ratio', { part: '\udc00', whole: 1 }, '/part');
    await rejectsField('change', [1, 2], '');
    await rejectsField('apply', { base: null, percent: 1 }, '/base');
    assert.ok(performance.now() - started < HANG_GUARD_MS); // mostly the 10 MB structuredClone in invoke()
  });

  it('handles the smallest and largest doubles without NaN', async () => {
    await gives('of', { percent: 5e-324, base: 5e-324 }, 0);
    await gives('ratio', { part: 5e-324, whole: 5e-324 }, 100);
    await gives('change', { from: -1.7976931348623157e308, to: 1.7976931348623157e308 }, 200);
  });
});
