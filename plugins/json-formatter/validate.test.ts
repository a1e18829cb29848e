import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import jsonFormatter from './index.js';
import { lineColumn } from './position.js';

interface Validated {
  valid: boolean;
  error?: { message: string; line: number; column: number };
}
const validate = async (json: string): Promise<Validated> => (await invoke(jsonFormatter, 'validate', { json })) as Validated;

describe('json-formatter.validate: the first problem, with its 1-based line and column', () => {
  // [text, message, line, column]; columns worked out by counting characters of the line.
  const cases: readonly (readonly [string, string, number, number])[] = [
    ['', 'expected a JSON value, found end of input', 1, 1],
    ['  \n ', 'expected a JSON value, found end of input', 2, 2],
    ['[1,2,]', "trailing comma before ']'", 1, 5],
    ['{"a":1,}', "trailing comma before '}'", 1, 7],
    ['{\n  "a": 1,\n}', "trailing comma before '}'", 2, 9],
    ['// note\n{}', 'comments are not allowed in JSON', 1, 1],
    ['{"a":1 /* c */}', "expected ',' or '}' after an object member, found '/'", 1, 8],
    ['{/* c */}', 'comments are not allowed in JSON', 1, 2],
    ['NaN', 'NaN is not a JSON value', 1, 1],
    ['[Infinity]', 'Infinity is not a JSON value', 1, 2],
    ['-Infinity', '-Infinity is not a JSON value', 1, 1],
    ['[undefined]', 'undefined is not a JSON value', 1, 2],
    ['01', 'leading zeros are not allowed in numbers', 1, 1],
    ['-012', 'leading zeros are not allowed in numbers', 1, 1],
    ['+1', "expected a JSON value, found '+'", 1, 1],
    ['.5', "expected a JSON value, found '.'", 1, 1],
    ['1.', 'expected a digit after the decimal point, found end of input', 1, 3],
    ['1e+', 'expected a digit in the exponent, found end of input', 1, 4],
    ['-', 'expected a digit, found end of input', 1, 2],
    ['0x1F', "unexpected 'x' after the JSON value", 1, 2],
    ['"a\tb"', 'control character U+0009 must be escaped in a string', 1, 3],
    ['"line\nbreak"', 'control character U+000A must be escaped in a string', 1, 6],
    ['"\\x41"', 'invalid escape sequence (allowed: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)', 1, 2],
    ['"\\u12G4"', '\\u must be followed by four hexadecimal digits', 1, 2],
    ['"abc', 'unterminated string', 1, 1],
    ["{'a':1}", "strings must use double quotes, not '", 1, 2],
    ["['a']", "strings must use double quotes, not '", 1, 2],
    ['{a:1}', "expected a member name in double quotes, found 'a'", 1, 2],
    ['{"a" 1}', "expected ':' after the member name, found '1'", 1, 6],
    ['[1 2]', "expected ',' or ']' after an array element, found '2'", 1, 4],
    ['{"a":1]', "expected ',' or '}' after an object member, found ']'", 1, 7],
    ['[1}', "expected ',' or ']' after an array element, found '}'", 1, 3],
    ['{} {}', "unexpected '{' after the JSON value", 1, 4],
    ['tru', "expected a JSON value, found 't'", 1, 1],
    ['True', "expected a JSON value, found 'T'", 1, 1],
    ['\uFEFF{}', 'a byte order mark (U+FEFF) is not allowed in JSON text', 1, 1],
    ['[1,\u00A02]', 'expected a JSON value, found U+00A0', 1, 4],
    // A raw lone surrogate cannot be encoded in UTF-8, so the text is not Unicode text (RFC 8259 §8.1).
    ['"\uD800"', 'lone surrogate U+D800 is not a Unicode character', 1, 2],
    ['"x\uDC00"', 'lone surrogate U+DC00 is not a Unicode character', 1, 3],
    // CRLF is one line break; 😀 is one column though two UTF-16 units (so x is at column 6, not 7).
    ['{"😀":1,\r\n😀}', "expected a member name in double quotes, found '😀'", 2, 1],
    ['["😀",x]', "expected a JSON value, found 'x'", 1, 6],
  ];
  for (const [text, message, line, column] of cases) {
    it(`${JSON.stringify(text)} → ${line}:${column} ${message}`, async () => {
      assert.deepEqual(await validate(text), { valid: false, error: { message, line, column } });
    });
  }
});

describe('json-formatter.validate: valid texts', () => {
  const valid = [
    '{}',
    ' [ ] ',
    '"a scalar at the top is JSON (RFC 8259 §2)"',
    '0',
    '-0',
    '0e0',
    '1E+2',
    '-1.5e-3',
    '17478252242305210114',
    'true',
    'null',
    '\t\r\n {"a" : [ 1 , { } ] } \n',
    '"\\u00e9\\/\\b\\f\\n\\r\\t\\"\\\\"',
    '"😀"',
    '"\\ud83d\\ude00"',
    '{"a":1,"a":2}',
    '{"__proto__":1}',
  ];
  for (const text of valid) {
    it(`accepts ${JSON.stringify(text)} (JSON.parse agrees)`, async () => {
      assert.doesNotThrow(() => JSON.parse(text));
      assert.deepEqual(await validate(text), { valid: true });
    });
  }

  it('accepts an escaped lone surrogate: the RFC 8259 grammar allows "\\ud800" (§8.2), as JSON.parse does', async () => {
    assert.deepEqual(await validate('"\\ud800"'), { valid: true });
    assert.deepEqual(await validate('{"\\udc00":"\\ud800x"}'), { valid: true });
  });

  it('agrees with JSON.parse on every invalid case but the raw lone surrogates', async () => {
    for (const text of ['[1,]', '{"a":1,}', '01', 'NaN', '"\t"', "'a'", '{a:1}', '[', ']', '', '\uFEFF1', '1 2', '[1,,2]', '{,}']) {
      assert.throws(() => JSON.parse(text), SyntaxError);
      assert.equal((await validate(text)).valid, false, JSON.stringify(text));
    }
  });
});

describe('json-formatter: lineColumn', () => {
  it('ends lines at LF, CRLF (once) and a lone CR, and counts a surrogate pair as one column', () => {
    assert.deepEqual(lineColumn('ab\ncd', 4), { line: 2, column: 2 });
    assert.deepEqual(lineColumn('a\r\nb', 3), { line: 2, column: 1 });
    assert.deepEqual(lineColumn('a\rb', 2), { line: 2, column: 1 });
    assert.deepEqual(lineColumn('a\n\nb', 3), { line: 3, column: 1 });
    assert.deepEqual(lineColumn('😀😀x', 4), { line: 1, column: 3 });
  });
});
