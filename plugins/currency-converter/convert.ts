/**
 * The two operations over one day of ECB rates. Every rate is units of a currency for 1 EUR, so
 * the rate from A to B is perEuro(B) / perEuro(A), with perEuro(EUR) = 1.
 */
import { InputError, roundDecimal, UnprocessableError, type ErrorDetail } from '@toolshed/plugin-sdk';
import type { RateSet } from './ecb-xml.js';

/** `source` of every answer. */
export const SOURCE = 'European Central Bank';

/** Significant digits of a published rate. */
export const RATE_DIGITS = 6;
/** Decimals of a converted value. */
export const VALUE_DECIMALS = 4;

/**
 * Rounds `value` (> 0) half away from zero to `digits` significant digits. It works on the
 * 15-digit decimal form, like roundDecimal, so 1.2345650 rounds up although its double lies just
 * below; and unlike roundDecimal it has no limit on the magnitude.
 */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0) return 0;
  const [mantissa, exponentText] = value.toExponential(14).split('e') as [string, string];
  const digitsOnly = mantissa.replace('.', '');
  let kept = Number(digitsOnly.slice(0, digits));
  if (digitsOnly.charCodeAt(digits) >= 0x35) kept += 1; // the next digit is 5–9
  return Number(`${kept}e${Number(exponentText) - digits + 1}`);
}

function perEuro(rates: RateSet, code: string, path: string): number {
  if (code === 'EUR') return 1;
  const rate = rates.perEuro.get(code);
  if (rate === undefined) throw new UnprocessableError('unknown_currency', `${code} (at ${path}) is not among the currencies of the reference rates of ${rates.date}`);
  return rate;
}

/** The request of /convert, with defaults filled. */
export interface ConvertInput {
  amount: number;
  from: string;
  to: string | string[];
}

export interface ConvertResponse {
  amount: number;
  from: string;
  date: string;
  results: { currency: string; rate: number; value: number }[];
  source: string;
}

/**
 * The codes of `to` in upper case, in request order. 400 naming each one that repeats an earlier
 * one (compared in upper case); checked before the rates are loaded, so a malformed request is a
 * 400 even while the feed is down.
 */
export function targetCodes(to: string | string[]): string[] {
  const codes = (typeof to === 'string' ? [to] : to).map((code) => code.toUpperCase());
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  codes.forEach((code, index) => {
    if (seen.has(code)) details.push({ path: `/to/${index}`, message: `repeats ${code}` });
    seen.add(code);
  });
  if (details.length > 0) throw new InputError('Each currency may appear once in to', details);
  return codes;
}

/** Converts `input.amount` with the day's rates; `targets` comes from targetCodes(input.to). */
export function convert(input: ConvertInput, targets: readonly string[], rates: RateSet): ConvertResponse {
  const from = input.from.toUpperCase();
  const single = typeof input.to === 'string';
  const fromRate = perEuro(rates, from, '/from');
  const results = targets.map((currency, index) => {
    const rate = perEuro(rates, currency, single ? '/to' : `/to/${index}`) / fromRate;
    return { currency, rate: roundSignificant(rate, RATE_DIGITS), value: roundDecimal(input.amount * rate, VALUE_DECIMALS) };
  });
  return { amount: input.amount, from, date: rates.date, results, source: SOURCE };
}

export interface RatesResponse {
  base: string;
  date: string;
  rates: Record<string, number>;
  source: string;
}

/** Every currency of the day (EUR included) except the base, in code order, per 1 unit of the base. */
export function ratesFor(baseInput: string, rates: RateSet): RatesResponse {
  const base = baseInput.toUpperCase();
  const baseRate = perEuro(rates, base, '/base');
  const codes = [...rates.perEuro.keys(), 'EUR'].filter((code) => code !== base).sort();
  const table: Record<string, number> = {};
  for (const code of codes) table[code] = roundSignificant(perEuro(rates, code, '') / baseRate, RATE_DIGITS);
  return { base, date: rates.date, rates: table, source: SOURCE };
}
