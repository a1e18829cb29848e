/**
 * Savings simulation, year by year. Everything is computed unrounded; only the report is rounded to
 * cents, and it is rounded so that the reported numbers add up exactly (see `report`).
 */
import { roundDecimal } from '@toolshed/plugin-sdk';

/** How often interest is credited. */
export type Compounding = 'monthly' | 'yearly';

/** The parameters of /simulate, defaults filled in. */
export interface SimulationInput {
  /** Starting capital. */
  initial: number;
  /** Contribution paid at the end of each month of year 1. */
  monthly: number;
  /** Nominal yearly interest rate in percent (may be negative). */
  rate: number;
  /** Whole years to simulate. */
  years: number;
  compounding: Compounding;
  /** Percent by which the monthly contribution rises at the start of every year from year 2 on. */
  increase: number;
}

/** One row of the report. */
export interface YearRow {
  year: number;
  contributions: number;
  interest: number;
  balance: number;
  totalContributions: number;
  totalInterest: number;
}

/** The answer of /simulate. */
export interface SimulationResult {
  final: number;
  totalContributions: number;
  totalInterest: number;
  rows: YearRow[];
}

// Under the savings-book method a payment at the end of month m earns (12 − m) / 12 of a year's
// interest: (11 + 10 + … + 0) / 12 = 66 / 12 months' worth in total per monthly payment.
const YEARLY_PAYMENT_INTEREST_YEARS = 66 / 12;

/** The closing balance of a year, from its opening balance and its contribution per month. */
export function growYear(balance: number, payment: number, yearlyRate: number, compounding: Compounding): number {
  if (compounding === 'yearly') {
    const interest = balance * yearlyRate + payment * yearlyRate * YEARLY_PAYMENT_INTEREST_YEARS;
    return balance + 12 * payment + interest;
  }
  const monthlyRate = yearlyRate / 12;
  for (let month = 0; month < 12; month += 1) balance += balance * monthlyRate + payment;
  return balance;
}

const cents = (value: number): number => roundDecimal(value, 2);

/**
 * Runs the simulation. Reported figures are rounded to cents in a cascade: the balance and the
 * running contributions are rounded, the running interest is their difference, and each row's
 * contributions and interest are differences of consecutive running totals. So balance =
 * totalContributions + totalInterest in every row, and the rows add up to the totals, to the cent;
 * no reported figure is more than a cent or two from its unrounded value.
 */
export function simulate(input: SimulationInput): SimulationResult {
  const yearlyRate = input.rate / 100;
  const growth = 1 + input.increase / 100;
  let balance = input.initial;
  let contributed = input.initial;
  let payment = input.monthly;
  let previousContributions = cents(input.initial);
  let previousInterest = 0;
  const rows: YearRow[] = [];
  for (let year = 1; year <= input.years; year += 1) {
    if (year > 1) payment *= growth;
    balance = growYear(balance, payment, yearlyRate, input.compounding);
    contributed += 12 * payment;
    const roundedBalance = cents(balance);
    const totalContributions = cents(contributed);
    const totalInterest = cents(roundedBalance - totalContributions);
    rows.push({
      year,
      contributions: cents(totalContributions - previousContributions),
      interest: cents(totalInterest - previousInterest),
      balance: roundedBalance,
      totalContributions,
      totalInterest,
    });
    previousContributions = totalContributions;
    previousInterest = totalInterest;
  }
  const last = rows[rows.length - 1]!;
  return { final: last.balance, totalContributions: last.totalContributions, totalInterest: last.totalInterest, rows };
}
