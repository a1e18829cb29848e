import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundDecimal } from './rounding.js';

describe('roundDecimal', () => {
  it('rounds ties half away from zero where naive float rounding fails', () => {
    // 1.005 is stored as 1.00499999999999989…; Math.round(1.005 * 100) / 100 gives 1.
    assert.equal(roundDecimal(1.005, 2), 1.01);
    assert.equal(roundDecimal(-1.005, 2), -1.01);
    assert.equal(roundDecimal(2.5, 0), 3);
    assert.equal(roundDecimal(-2.5, 0), -3);
    assert.equal(roundDecimal(1.04, 1), 1);
  });

  it('removes float noise and never returns -0', () => {
    assert.equal(roundDecimal(0.1 + 0.2, 10), 0.3);
    assert.ok(Object.is(roundDecimal(-0.04, 1), 0));
    assert.ok(Object.is(roundDecimal(-0, 1), 0));
    assert.equal(roundDecimal(5e-324, 1), 0);
  });

  it('leaves safe integers and values beyond the rounding precision alone', () => {
    assert.equal(roundDecimal(9007199254740991, 2), 9007199254740991);
    assert.equal(roundDecimal(1e300, 2), 1e300);
    assert.equal(roundDecimal(-1.5e-6, 6), -2e-6); // −0.0000015 is a tie at the 6th decimal
    assert.equal(roundDecimal(1.5e-7, 6), 0); // 0.00000015: the 6th decimal is 0, the rest is below a half
  });
});
