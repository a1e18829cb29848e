/** Unit conversion over the exact table: compute exactly, round once to 12 significant digits. */
import { InputError, UnprocessableError, type ErrorDetail } from '@toolshed/plugin-sdk';
import { add, divide, fromNumber, multiply, parseFactor, subtract, toSignificant, type Rational } from './exact.js';
import { CATEGORY_NAMES, UNITS, type CategoryName } from './units.data.js';

/** Results carry 12 significant digits: enough for any measurement, few enough to hide float noise. */
export const SIGNIFICANT_DIGITS = 12;

interface Unit {
  readonly id: string;
  readonly symbol: string;
  readonly factor: Rational;
  readonly offset: Rational;
}

/** A unit and a value in it, as the response lists them. */
export interface UnitEntry {
  unit: string;
  symbol: string;
  value: number;
}

/** The response of /convert. */
export interface Conversion {
  input: UnitEntry;
  results: UnitEntry[];
}

const ZERO: Rational = { n: 0n, d: 1n };

const tables = Object.fromEntries(
  CATEGORY_NAMES.map((category) => [
    category,
    new Map(
      UNITS[category].map((unit) => [
        unit.id,
        {
          id: unit.id,
          symbol: unit.symbol,
          factor: parseFactor(unit.factor),
          offset: unit.offset === undefined ? ZERO : parseFactor(unit.offset),
        },
      ]),
    ),
  ]),
) as Record<CategoryName, Map<string, Unit>>;

const longestId = Math.max(...CATEGORY_NAMES.flatMap((category) => UNITS[category].map((unit) => unit.id.length)));

/** The unit ids of `category`, in table order. */
export function unitIds(category: CategoryName): string[] {
  return UNITS[category].map((unit) => unit.id);
}

/**
 * Ids are ASCII, so only ASCII letters fold: `toLowerCase()` would also turn the Kelvin sign
 * (U+212A) into `k`, accepting an id nobody typed on purpose.
 */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => String.fromCharCode(letter.charCodeAt(0) + 32));
}

function lookUp(category: CategoryName, id: string): Unit | undefined {
  if (id.length > longestId) return undefined;
  return tables[category].get(asciiLowerCase(id));
}

function unknownUnit(category: CategoryName, field: 'from' | 'to'): ErrorDetail {
  return { path: `/${field}`, message: `is not a ${category} unit; use one of ${unitIds(category).join(', ')}` };
}

function rounded(value: Rational, unit: Unit): number {
  const result = toSignificant(value, SIGNIFICANT_DIGITS);
  if (!Number.isFinite(result)) {
    throw new UnprocessableError('result_not_finite', `The result in ${unit.id} is beyond the range of a double (about 1.8e308)`);
  }
  return result;
}

/**
 * Converts `value` from unit `from` to unit `to` (both ids of `category`, case-insensitive), or to
 * every unit of the category in table order when `to` is undefined.
 *
 * @throws InputError naming `/from` and/or `/to` when an id is not a unit of the category.
 * @throws UnprocessableError `below_absolute_zero` or `result_not_finite`.
 */
export function convert(value: number, category: CategoryName, from: string, to: string | undefined): Conversion {
  // JSON cannot carry NaN or Infinity, but a direct caller could.
  if (!Number.isFinite(value)) throw new InputError('value must be a finite number', [{ path: '/value', message: 'must be finite' }]);
  const source = lookUp(category, from);
  const target = to === undefined ? undefined : lookUp(category, to);
  const problems: ErrorDetail[] = [];
  if (source === undefined) problems.push(unknownUnit(category, 'from'));
  if (to !== undefined && target === undefined) problems.push(unknownUnit(category, 'to'));
  if (source === undefined || problems.length > 0) throw new InputError(`Unknown ${category} unit`, problems);

  const base = multiply(add(fromNumber(value), source.offset), source.factor);
  if (category === 'temperature' && base.n < 0n) {
    throw new UnprocessableError('below_absolute_zero', 'The temperature is below absolute zero (0 K)');
  }
  const targets = target === undefined ? [...tables[category].values()] : [target];
  return {
    input: { unit: source.id, symbol: source.symbol, value },
    results: targets.map((unit) => ({
      unit: unit.id,
      symbol: unit.symbol,
      value: rounded(subtract(divide(base, unit.factor), unit.offset), unit),
    })),
  };
}
