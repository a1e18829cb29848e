/**
 * Decimal rounding without binary artefacts. `Math.round(x * 10) / 10` is wrong twice: `24.95 * 10`
 * may land below .5, and the division can bring back noise such as `0.30000000000000004`. Going
 * through the decimal string (15 significant digits, what a double holds reliably) avoids both.
 */

/**
 * Rounds `value` half away from zero to `decimals` places, after cutting it to 15 significant
 * digits so float noise disappears. Safe integers come back unchanged (they carry no noise and may
 * have 16 digits); `-0` becomes `0`. `value` must be finite.
 */
export function roundDecimal(value: number, decimals: number): number {
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
  const [mantissa, exponentText] = value.toExponential(14).split('e') as [string, string];
  const exponent = Number(exponentText);
  // The 15 kept digits all lie above the rounding position: nothing left to round.
  if (exponent + decimals >= 14) return Number(`${mantissa}e${exponent}`);
  // Parsing the decimal text makes a tie such as 249.5 exact, so Math.round sees the true half.
  const scaled = Math.round(Math.abs(Number(`${mantissa}e${exponent + decimals}`)));
  if (scaled === 0) return 0;
  return Number(`${value < 0 ? '-' : ''}${scaled}e-${decimals}`);
}
