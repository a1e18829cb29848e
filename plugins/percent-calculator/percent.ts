/**
 * Percentage arithmetic. Each result is rounded to 10 decimals, which removes float noise such as
 * 3 · 1.1 = 3.3000000000000003 while keeping far more precision than anyone reads.
 */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { roundDecimal } from '@toolshed/plugin-sdk';

/** Decimal places of every result but /vat. */
export const RESULT_DECIMALS = 10;

/**
 * The first finite value of `forms`, rounded. The forms are algebraically equal; a later one is only
 * used when an earlier one overflows in an intermediate step although the result itself is finite
 * (1e308 · 10 / 100 overflows in the product, 1e308 / 100 · 10 does not).
 */
export function firstFinite(...forms: (() => number)[]): number {
  for (const form of forms) {
    const value = form();
    if (Number.isFinite(value)) return roundDecimal(value, RESULT_DECIMALS);
  }
  throw new UnprocessableError('result_not_finite', 'The result is too large for a double-precision number');
}

function nonZero(divisor: number, name: string): void {
  if (divisor === 0) throw new UnprocessableError('division_by_zero', `${name} is 0, and the result would divide by it`);
}

/** percent · base / 100. */
export function percentOf(percent: number, base: number): number {
  return firstFinite(
    () => (percent * base) / 100,
    () => (percent / 100) * base,
  );
}

/** part / whole · 100: what percent `part` is of `whole`. */
export function ratio(part: number, whole: number): number {
  nonZero(whole, 'whole');
  return firstFinite(
    () => (part * 100) / whole,
    () => (part / whole) * 100,
  );
}

/** part · 100 / percent: the base of which `part` is `percent` percent. */
export function baseOf(part: number, percent: number): number {
  nonZero(percent, 'percent');
  return firstFinite(
    () => (part * 100) / percent,
    () => (part / percent) * 100,
  );
}

/** (to − from) / |from| · 100: the change in percent, negative for a decrease. */
export function change(from: number, to: number): number {
  nonZero(from, 'from');
  const size = Math.abs(from);
  return firstFinite(
    () => ((to - from) / size) * 100,
    // to − from overflows for 1e308 → −1e308; from / |from| is exactly ±1.
    () => (to / size - Math.sign(from)) * 100,
  );
}

/** base · (1 + percent / 100): `base` raised (or, for a negative percent, lowered) by `percent`. */
export function applyPercent(base: number, percent: number): number {
  return firstFinite(
    () => base * (1 + percent / 100),
    () => base + (base / 100) * percent,
  );
}
