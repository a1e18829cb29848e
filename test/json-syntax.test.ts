import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findJsonSyntaxProblem, shapeBreachAt, syntaxErrorOffset } from '../kernel/host/json-syntax.js';

describe('JSON syntax locator', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const valid = ['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "x\\n\\u00e9\\"", {}]} ', '"s"', '0', '[[[]]]', '{"a":{"b":{"c":[]}}}'];
    for (const text of valid) {
      JSON.parse(text);
      assert.equal(syntaxErrorOffset(text), -1, text);
    }
  });

  it('finds the offset of the first bad character (worked by hand)', () => {
    const cases: [string, number][] = [
      ['', 0], // nothing at all: the end at 0
      ['{', 1], // a key expected at 1
      ['{"a" 1}', 5], // ":" expected where "1" is
      ['{"a":1,}', 7], // a key expected at "}"
      ['[1,]', 3],
      ['[1 2]', 3],
      ['{"a":01}', 6], // "0" is a whole number; "1" is unexpected
      ['{"a":tru}', 8],
      ['"\\x"', 2], // a bad escape: the character after the backslash
      ['"\\u12G4"', 2],
      ['"a\nb"', 2], // a raw control character inside a string
      ['{} {}', 3], // trailing content
      ["{'a':1}", 1],
      ['[1.]', 2], // "1." is not a number: the pattern takes "1", then "." is unexpected
    ];
    for (const [text, offset] of cases) {
      assert.throws(() => JSON.parse(text));
      assert.equal(syntaxErrorOffset(text), offset, JSON.stringify(text));
    }
  });

  it('gives 1-based lines and columns and names the end of input', () => {
    assert.deepEqual(findJsonSyntaxProblem('{\n  "a": 1,\n  x\n}'), { line: 3, column: 3, reason: 'unexpected character' });
    assert.deepEqual(findJsonSyntaxProblem('{\n"a": [1,\n'), { line: 3, column: 1, reason: 'unexpected end of input' });
    assert.equal(findJsonSyntaxProblem('{"ok": true}'), undefined);
  });

  it('survives nesting a million levels deep without overflowing the stack', () => {
    const deep = '['.repeat(1_000_000);
    assert.equal(syntaxErrorOffset(deep), 1_000_000);
    assert.equal(syntaxErrorOffset(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), -1);
  });
});

/** Where the depth bound is passed, with no member bound in the way; -1 when it is not. */
const depthExceededAt = (text: string, maxDepth: number): number => {
  const breach = shapeBreachAt(text, maxDepth, Infinity);
  return breach === undefined ? -1 : (assert.equal(breach.bound, 'depth'), breach.offset);
};

describe('nesting depth bound', () => {
  it('finds the bracket that opens one level too many, ignoring brackets inside strings (worked by hand)', () => {
    assert.equal(depthExceededAt('[[[]]]', 3), -1);
    assert.equal(depthExceededAt('[[[[]]]]', 3), 3); // the fourth "[" is at offset 3
    assert.equal(depthExceededAt('{"a":{"b":[1]}}', 2), 10); // "[" opens level 3 at offset 10
    assert.equal(depthExceededAt('["[[[[", "\\\\", "\\"[[[["]', 1), -1); // brackets in strings, escaped quotes
    assert.equal(depthExceededAt('["\\\\"[[', 2), 6); // the string ends at the quote after two backslashes
    assert.equal(depthExceededAt('"unterminated [[[[', 1), -1);
  });

  it('stops at once on ten million opening brackets', () => {
    const text = `{"text":${'['.repeat(10_000_000)}`;
    assert.equal(depthExceededAt(text, 64), 8 + 63); // "{" is level 1; the 64th "[" opens level 65
  });
});

describe('object member bound', () => {
  it('counts the members of every object together and finds the colon of the first one too many, ignoring colons inside strings (worked by hand)', () => {
    assert.equal(shapeBreachAt('{"a":1,"b":{"c":2}}', 64, 3), undefined);
    // Offsets: {"a":1,"b":{"c":2},"d":3} — the colons are at 4, 10, 15 and 22.
    assert.deepEqual(shapeBreachAt('{"a":1,"b":{"c":2},"d":3}', 64, 3), { offset: 22, bound: 'members' });
    assert.deepEqual(shapeBreachAt('[{"a":1},{"a":1}]', 64, 1), { offset: 13, bound: 'members' });
    assert.equal(shapeBreachAt('{"a:b:c":"x:y:\\":z"}', 64, 1), undefined); // colons in keys and values, an escaped quote
  });

  it('stops at the first member too many of a 10 MiB body of distinct keys', () => {
    const parts = ['{"text":"x"'];
    for (let index = 0; index < 1_000_000; index++) parts.push(`,"k${index}":0`);
    const text = `${parts.join('')}}`;
    const breach = shapeBreachAt(text, 64, 100_000) ?? assert.fail('no breach found');
    assert.equal(breach.bound, 'members');
    // Member 100,001 is "k99999", the 100,000th key after "text".
    assert.equal(text.slice(breach.offset - 8, breach.offset), '"k99999"');
  });
});
