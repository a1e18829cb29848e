import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import compoundInterest from './index.js';
import type { SimulationResult } from './simulate.js';

const simulate = async (body: unknown): Promise<SimulationResult> => (await invoke(compoundInterest, 'simulate', body)) as SimulationResult;

/** Asserts a 400 whose details name `path`. */
async function rejectsField(body: unknown, path: string): Promise<void> {
  await assert.rejects(simulate(body), (error: { status?: number; details?: { path: string }[] }) => {
    assert.equal(error.status, 400);
    assert.ok(error.details?.some((detail) => detail.path === path), `details should name ${path}: ${JSON.stringify(error.details)}`);
    return true;
  });
}

const toCents = (value: number): number => Math.round(value * 100);

/** The reported figures add up to the cent: per row, across rows, and in the totals. */
function assertConsistent(result: SimulationResult, initial: number): void {
  let contributions = toCents(initial);
  let interest = 0;
  for (const row of result.rows) {
    contributions += toCents(row.contributions);
    interest += toCents(row.interest);
    assert.equal(toCents(row.totalContributions), contributions, `year ${row.year} contributions`);
    assert.equal(toCents(row.totalInterest), interest, `year ${row.year} interest`);
    assert.equal(toCents(row.balance), contributions + interest, `year ${row.year} balance`);
  }
  assert.equal(toCents(result.final), toCents(result.totalContributions) + toCents(result.totalInterest));
  const last = result.rows[result.rows.length - 1]!;
  assert.deepEqual([result.final, result.totalContributions, result.totalInterest], [last.balance, last.totalContributions, last.totalInterest]);
}

describe('compound-interest.simulate: published and hand-worked examples', () => {
  it('1000 at 5 % compounded yearly for 1 year is 1050', async () => {
    assert.deepEqual(await simulate({ initial: 1000, rate: 5, years: 1, compounding: 'yearly' }), {
      final: 1050,
      totalContributions: 1000,
      totalInterest: 50,
      rows: [{ year: 1, contributions: 0, interest: 50, balance: 1050, totalContributions: 1000, totalInterest: 50 }],
    });
  });

  it('1000 at 5 % yearly for 10 years is 1628.89 (textbook: 1000 · 1.05^10 = 1628.894627)', async () => {
    const result = await simulate({ initial: 1000, rate: 5, years: 10, compounding: 'yearly' });
    assert.equal(result.final, 1628.89);
    assert.equal(result.totalInterest, 628.89);
    assert.equal(result.rows.length, 10);
    assert.deepEqual(result.rows[1], { year: 2, contributions: 0, interest: 52.5, balance: 1102.5, totalContributions: 1000, totalInterest: 102.5 });
  });

  it('compounds monthly by default: 1000 · (1 + 0.05/12)^12 = 1051.1619 and ^24 = 1104.9413', async () => {
    const result = await simulate({ initial: 1000, rate: 5, years: 2 });
    assert.deepEqual(result.rows, [
      { year: 1, contributions: 0, interest: 51.16, balance: 1051.16, totalContributions: 1000, totalInterest: 51.16 },
      // year 2 interest: 104.94 − 51.16 = 53.78 (unrounded 1104.94134 − 1051.16190 = 53.77944)
      { year: 2, contributions: 0, interest: 53.78, balance: 1104.94, totalContributions: 1000, totalInterest: 104.94 },
    ]);
  });

  it('matches the published annuity: 100 a month at 6 % for 10 years is 16387.93', async () => {
    // FV = 100 · ((1.005^120 − 1) / 0.005) = 100 · 163.8793468 = 16387.93468 (ordinary annuity, end of month).
    const result = await simulate({ monthly: 100, rate: 6, years: 10 });
    assert.deepEqual([result.final, result.totalContributions, result.totalInterest], [16387.93, 12000, 4387.93]);
    assertConsistent(result, 0);
  });

  it('adds the contribution after the month\'s interest (end of month): 100 a month at 12 % gives 1268.25', async () => {
    // Month 1: 0 · 1.01 + 100 = 100; month 2: 100 · 1.01 + 100 = 201; month 3: 201 · 1.01 + 100 = 303.01; …
    // after 12: 100 · (1.01^12 − 1) / 0.01 = 100 · 12.682503 = 1268.25. (Start of month would give 1280.93.)
    assert.deepEqual((await simulate({ monthly: 100, rate: 12, years: 1 })).rows, [
      { year: 1, contributions: 1200, interest: 68.25, balance: 1268.25, totalContributions: 1200, totalInterest: 68.25 },
    ]);
  });

  it('credits yearly with simple interest on each end-of-month payment (savings-book method)', async () => {
    // Year 1: payment of month m earns 12 % · (12 − m)/12: 100 · 0.12 · (11 + 10 + … + 0)/12 = 100 · 0.12 · 5.5 = 66.
    // Year 2: 1266 · 0.12 = 151.92 on the opening balance, plus 66 on the payments = 217.92;
    //         balance 1266 + 1200 + 217.92 = 2683.92.
    assert.deepEqual((await simulate({ monthly: 100, rate: 12, years: 2, compounding: 'yearly' })).rows, [
      { year: 1, contributions: 1200, interest: 66, balance: 1266, totalContributions: 1200, totalInterest: 66 },
      { year: 2, contributions: 1200, interest: 217.92, balance: 2683.92, totalContributions: 2400, totalInterest: 283.92 },
    ]);
  });

  it('raises the monthly contribution once a year from year 2 on, and counts the initial capital as a contribution', async () => {
    // 100 a month, +10 %/year, no interest: 12 · 100 = 1200, 12 · 110 = 1320, 12 · 121 = 1452; plus 500 initial.
    assert.deepEqual(await simulate({ initial: 500, monthly: 100, rate: 0, years: 3, increase: 10 }), {
      final: 4472,
      totalContributions: 4472,
      totalInterest: 0,
      rows: [
        { year: 1, contributions: 1200, interest: 0, balance: 1700, totalContributions: 1700, totalInterest: 0 },
        { year: 2, contributions: 1320, interest: 0, balance: 3020, totalContributions: 3020, totalInterest: 0 },
        { year: 3, contributions: 1452, interest: 0, balance: 4472, totalContributions: 4472, totalInterest: 0 },
      ],
    });
    // With 12 % yearly: year 2 pays 110 a month; interest 1266 · 0.12 + 110 · 0.12 · 5.5 = 151.92 + 72.6 = 224.52;
    // balance 1266 + 1320 + 224.52 = 2810.52.
    const rows = (await simulate({ monthly: 100, rate: 12, years: 2, compounding: 'yearly', increase: 10 })).rows;
    assert.deepEqual(rows[1], { year: 2, contributions: 1320, interest: 224.52, balance: 2810.52, totalContributions: 2520, totalInterest: 290.52 });
  });

  it('handles negative rates down to −50 %', async () => {
    // Yearly: 1000 · 0.5 = 500, · 0.5 = 250.
    assert.deepEqual((await simulate({ initial: 1000, rate: -50, years: 2, compounding: 'yearly' })).rows, [
      { year: 1, contributions: 0, interest: -500, balance: 500, totalContributions: 1000, totalInterest: -500 },
      { year: 2, contributions: 0, interest: -250, balance: 250, totalContributions: 1000, totalInterest: -750 },
    ]);
    // Monthly: 1000 · (1 − 0.5/12)^12 = 1000 · (23/24)^12 = 600.066154 → 600.07.
    const monthly = await simulate({ initial: 1000, rate: -50, years: 1 });
    assert.deepEqual([monthly.final, monthly.totalInterest], [600.07, -399.93]);
  });

  it('matches the closed form for a messy case and keeps every reported figure consistent to the cent', async () => {
    // i = 0.037/12, n = 360: 1234.56 · (1+i)^n + 78.9 · ((1+i)^n − 1)/i = 55664.80005 (bc, scale 30);
    // contributions 1234.56 + 78.9 · 360 = 29638.56.
    const result = await simulate({ initial: 1234.56, monthly: 78.9, rate: 3.7, years: 30 });
    assert.deepEqual([result.final, result.totalContributions, result.totalInterest], [55664.8, 29638.56, 26026.24]);
    assertConsistent(result, 1234.56);
    assertConsistent(await simulate({ initial: 1234.56, monthly: 78.9, rate: 3.7, years: 30, increase: 2.5, compounding: 'yearly' }), 1234.56);
  });
});

describe('compound-interest.simulate: defaults and bounds', () => {
  it('defaults initial and monthly to 0, compounding to monthly, increase to 0', async () => {
    assert.deepEqual(await simulate({ rate: 5, years: 1 }), {
      final: 0,
      totalContributions: 0,
      totalInterest: 0,
      rows: [{ year: 1, contributions: 0, interest: 0, balance: 0, totalContributions: 0, totalInterest: 0 }],
    });
    // increase defaults to 0: the contribution stays 100 in year 2.
    assert.equal((await simulate({ monthly: 100, rate: 0, years: 2 })).rows[1]!.contributions, 1200);
  });

  it('accepts every bound at its extreme, and the largest simulation stays finite and fast', async () => {
    const started = performance.now();
    const body = { initial: 1e12, monthly: 1e12, rate: 100, years: 100, compounding: 'monthly', increase: 100 };
    const result = await simulate(body);
    assert.equal(result.rows.length, 100);
    // (1 + 1/12)^1200 ≈ e^96 ≈ 5e41; with 1e12 a month doubling yearly it ends near 1.7e55, far below 1.8e308.
    assert.ok(Number.isFinite(result.final) && result.final > 1e53 && result.final < 1e56, String(result.final));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    const low = await simulate({ initial: 0, monthly: 0, rate: -50, years: 1, increase: 0, compounding: 'yearly' });
    assert.equal(low.final, 0);
  });

  it('refuses every value just outside its bound, naming the field', async () => {
    const base = { rate: 5, years: 1 };
    await rejectsField({ ...base, initial: -0.01 }, '/initial');
    await rejectsField({ ...base, initial: 1e12 + 0.01 }, '/initial');
    await rejectsField({ ...base, monthly: -0.01 }, '/monthly');
    await rejectsField({ ...base, monthly: 1e12 + 0.01 }, '/monthly');
    await rejectsField({ rate: -50.01, years: 1 }, '/rate');
    await rejectsField({ rate: 100.01, years: 1 }, '/rate');
    await rejectsField({ rate: 5, years: 0 }, '/years');
    await rejectsField({ rate: 5, years: 101 }, '/years');
    await rejectsField({ rate: 5, years: 1.5 }, '/years');
    await rejectsField({ ...base, increase: -0.01 }, '/increase');
    await rejectsField({ ...base, increase: 100.01 }, '/increase');
    await rejectsField({ ...base, compounding: 'daily' }, '/compounding');
  });

  it('refuses missing required fields and unknown fields', async () => {
    await rejectsField({ years: 1 }, '/rate');
    await rejectsField({ rate: 5 }, '/years');
    await rejectsField({ rate: 5, years: 1, inflation: 2 }, '/inflation');
  });

  it('refuses hostile input: huge numbers, a 10 MB string, a lone surrogate, a non-object body', async () => {
    await rejectsField({ rate: 1e308, years: 1 }, '/rate');
    await rejectsField({ rate: 5, years: 1e308 }, '/years');
    await rejectsField({ rate: 5, years: 1, compounding: 'm'.repeat(10_000_000) }, '/compounding');
    await rejectsField({ rate: 5, years: 1, compounding: '\udfff' }, '/compounding');
    await rejectsField('simulate', '');
  });

  it('never reports -0 for a zero rate given as -0', async () => {
    const result = await simulate({ initial: 100, rate: -0, years: 1 });
    assert.ok(Object.is(result.totalInterest, 0) && Object.is(result.rows[0]!.interest, 0));
  });
});
