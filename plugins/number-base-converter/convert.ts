/** BigInt → text in other bases, and the two's-complement patterns of /convert. */

/** Bit widths of the two's-complement patterns, as response keys. */
export const TWOS_COMPLEMENT_WIDTHS = [8, 16, 32, 64] as const;

/**
 * `value` in each of `bases`, keyed by the base as a string; repeated bases give one key. The work
 * grows faster than the value's length: 10,000 base-36 digits into all 35 bases took 38 ms, 1,000
 * took 1.2 ms (2-core development machine, 2026-11), so index.ts runs long values on the pool.
 */
export function toBases(value: bigint, bases: readonly number[], uppercase: boolean): Record<string, string> {
  const results: Record<string, string> = {};
  for (const base of bases) {
    const key = String(base);
    if (key in results) continue;
    const text = value.toString(base);
    results[key] = uppercase ? text.toUpperCase() : text;
  }
  return results;
}

/**
 * The w-bit pattern of `value` in hex, zero-padded to w/4 digits, for w in 8, 16, 32, 64; null when
 * the value fits neither as signed (from −2^(w−1)) nor as unsigned (up to 2^w − 1).
 */
export function twosComplement(value: bigint, uppercase: boolean): Record<'8' | '16' | '32' | '64', string | null> {
  const pattern = (width: number): string | null => {
    const bits = BigInt(width);
    if (value < -(1n << (bits - 1n)) || value > (1n << bits) - 1n) return null;
    const hex = BigInt.asUintN(width, value).toString(16).padStart(width / 4, '0');
    return uppercase ? hex.toUpperCase() : hex;
  };
  return { '8': pattern(8), '16': pattern(16), '32': pattern(32), '64': pattern(64) };
}
