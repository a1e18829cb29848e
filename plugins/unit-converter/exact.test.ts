import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { divide, fromNumber, parseDecimal, parseFactor, toSignificant } from './exact.js';

describe('exact arithmetic', () => {
  it('parses decimals as the fraction they write', () => {
    assert.deepEqual(parseDecimal('-273.15'), { n: -27315n, d: 100n });
    assert.deepEqual(parseDecimal('1852'), { n: 1852n, d: 1n });
    assert.deepEqual(parseDecimal('1.5e-7'), { n: 15n, d: 100000000n });
    assert.deepEqual(parseDecimal('2e+3'), { n: 2000n, d: 1n });
    assert.throws(() => parseDecimal('1/2'));
    assert.throws(() => parseDecimal('NaN'));
  });

  it('reads a double as its shortest decimal, so -273.15 is not -273.149999999999977…', () => {
    assert.deepEqual(fromNumber(-273.15), { n: -27315n, d: 100n });
    assert.deepEqual(fromNumber(1e-7), { n: 1n, d: 10000000n });
    assert.deepEqual(fromNumber(5e-324), { n: 5n, d: 10n ** 324n });
    assert.deepEqual(fromNumber(1e21), { n: 10n ** 21n, d: 1n });
  });

  it('evaluates table factors left to right', () => {
    // 0.45359237 / 16 = 0.028349523125 (an exact decimal: 16 = 2^4)
    assert.equal(toSignificant(parseFactor('0.45359237/16'), 12), 0.028349523125);
    // 1000 / 3600 = 5/18 = 0.2777…
    assert.equal(toSignificant(parseFactor('1000/3600'), 12), 0.277777777778);
    // 365.2425 × 86400 / 12 = 31 556 952 / 12 = 2 629 746
    assert.equal(toSignificant(parseFactor('365.2425*86400/12'), 12), 2629746);
    assert.throws(() => divide({ n: 1n, d: 1n }, { n: 0n, d: 1n }), RangeError);
  });

  it('rounds to significant digits, half away from zero', () => {
    assert.equal(toSignificant({ n: 1n, d: 3n }, 12), 0.333333333333);
    assert.equal(toSignificant({ n: 2n, d: 3n }, 12), 0.666666666667);
    assert.equal(toSignificant({ n: -2n, d: 3n }, 12), -0.666666666667);
    // 1 234 567 890 125 has 13 digits; the 13th is a 5, so the 12th goes up.
    assert.equal(toSignificant({ n: 1234567890125n, d: 1n }, 12), 1234567890130);
    assert.equal(toSignificant({ n: -1234567890125n, d: 1n }, 12), -1234567890130);
    assert.equal(toSignificant({ n: 1234567890124n, d: 1n }, 12), 1234567890120);
    // 999 999 999 999.5 rounds up to the next power of ten.
    assert.equal(toSignificant({ n: 9999999999995n, d: 10n }, 12), 1e12);
    // Exactly a power of ten, from either side of the digit-count estimate.
    assert.equal(toSignificant({ n: 100n, d: 1n }, 12), 100);
    assert.equal(toSignificant({ n: 1n, d: 100n }, 12), 0.01);
    assert.equal(toSignificant({ n: 0n, d: 7n }, 12), 0);
  });

  it('overflows to Infinity and underflows to 0 like IEEE 754', () => {
    assert.equal(toSignificant({ n: 10n ** 309n, d: 1n }, 12), Infinity);
    assert.equal(toSignificant({ n: -(10n ** 309n), d: 1n }, 12), -Infinity);
    assert.equal(toSignificant({ n: 1n, d: 10n ** 400n }, 12), 0);
    // The largest double, 1.7976931348623157e308, rounded to 12 digits is still finite.
    assert.equal(toSignificant(fromNumber(Number.MAX_VALUE), 12), 1.79769313486e308);
  });
});
