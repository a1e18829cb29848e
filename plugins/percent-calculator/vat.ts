/** VAT between net and gross, to the cent, with vat = gross − net exactly. */
import { UnprocessableError } from '@toolshed/plugin-sdk';
import { roundDecimal } from '@toolshed/plugin-sdk';

/** Which amount the client gives. */
export type VatDirection = 'net-to-gross' | 'gross-to-net';

/** The answer of /vat. */
export interface VatResult {
  net: number;
  vat: number;
  gross: number;
}

// Below this size every cent amount has at most 15 significant digits, so rounding to cents is exact.
const EXACT_CENTS_LIMIT = 1e13;

/**
 * Splits `amount` (net or gross, by `direction`) at `rate` percent. The given amount is first rounded
 * to cents, the other one is computed from it and rounded to cents (half away from zero), and the
 * VAT is their difference, so net + vat = gross holds to the cent on every invoice line.
 */
export function splitVat(amount: number, rate: number, direction: VatDirection): VatResult {
  const factor = 1 + rate / 100;
  const given = roundDecimal(amount, 2);
  const other = roundDecimal(direction === 'net-to-gross' ? given * factor : given / factor, 2);
  if (!Number.isFinite(other)) {
    throw new UnprocessableError('result_not_finite', 'The gross amount is too large for a double-precision number');
  }
  const [net, gross] = direction === 'net-to-gross' ? [given, other] : [other, given];
  // gross and net lie within a factor of 2 (rate ≤ 100 %), so this subtraction is exact (Sterbenz);
  // below the limit the rounding only strips the binary noise of the decimal cents.
  const difference = gross - net;
  const vat = Math.abs(difference) < EXACT_CENTS_LIMIT ? roundDecimal(difference, 2) : difference;
  return { net, vat, gross };
}
