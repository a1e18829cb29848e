/**
 * Exact rational arithmetic on BigInt, so that a conversion is computed without any rounding and
 * rounded once, at the end, to 12 significant digits: 1 in is 2.54 cm, not 2.5399999999999996.
 */

/** A fraction n/d with d > 0 (not necessarily reduced; the numbers stay small enough). */
export interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

const decimalPattern = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/**
 * Parses a plain decimal such as `-0.45359237` or `1.5e-7` as the exact fraction it writes.
 * Throws on anything else: the callers only pass table entries and `String(number)`.
 */
export function parseDecimal(text: string): Rational {
  const match = decimalPattern.exec(text);
  if (match === null) throw new Error(`not a decimal: ${text.slice(0, 40)}`);
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  let n = BigInt(whole + fraction);
  let d = 1n;
  if (exponent >= 0) n *= 10n ** BigInt(exponent);
  else d = 10n ** BigInt(-exponent);
  return { n: sign === '-' ? -n : n, d };
}

/**
 * The exact value a finite double stands for as the user wrote it: its shortest round-trip decimal
 * (`String(x)`), so `-273.15` is -27315/100 rather than the binary neighbour -273.149999999999977….
 */
export function fromNumber(value: number): Rational {
  return parseDecimal(String(value));
}

/** Parses a table factor: decimals joined by `*` and `/`, evaluated left to right (`0.45359237/16`). */
export function parseFactor(expression: string): Rational {
  const tokens = expression.split(/([*/])/);
  let value = parseDecimal(tokens[0]);
  for (let index = 1; index < tokens.length; index += 2) {
    const operand = parseDecimal(tokens[index + 1]);
    value = tokens[index] === '*' ? multiply(value, operand) : divide(value, operand);
  }
  return value;
}

export function add(a: Rational, b: Rational): Rational {
  return a.d === b.d ? { n: a.n + b.n, d: a.d } : { n: a.n * b.d + b.n * a.d, d: a.d * b.d };
}

export function subtract(a: Rational, b: Rational): Rational {
  return add(a, { n: -b.n, d: b.d });
}

export function multiply(a: Rational, b: Rational): Rational {
  return { n: a.n * b.n, d: a.d * b.d };
}

/** a / b; b must not be zero (table factors never are). */
export function divide(a: Rational, b: Rational): Rational {
  if (b.n === 0n) throw new RangeError('division by zero');
  return b.n < 0n ? { n: -a.n * b.d, d: a.d * -b.n } : { n: a.n * b.d, d: a.d * b.n };
}

function digitCount(value: bigint): number {
  return value.toString().length;
}

/**
 * Rounds `value` to `digits` significant digits (half away from zero) and returns the nearest
 * double; Infinity when the result is beyond the double range, 0 below it (IEEE 754 underflow).
 */
export function toSignificant(value: Rational, digits: number): number {
  if (value.n === 0n) return 0;
  const negative = value.n < 0n;
  const n = negative ? -value.n : value.n;
  const d = value.d;
  // floor(log10(n/d)) is either e or e - 1, since 10^(len-1) ≤ x < 10^len for both n and d.
  let e = digitCount(n) - digitCount(d);
  const belowPower = e >= 0 ? n < d * 10n ** BigInt(e) : n * 10n ** BigInt(-e) < d;
  if (belowPower) e -= 1;
  const shift = digits - 1 - e;
  const numerator = shift >= 0 ? n * 10n ** BigInt(shift) : n;
  const denominator = shift >= 0 ? d : d * 10n ** BigInt(-shift);
  let rounded = numerator / denominator;
  if (2n * (numerator - rounded * denominator) >= denominator) rounded += 1n;
  return Number(`${negative ? '-' : ''}${rounded}e${-shift}`);
}
