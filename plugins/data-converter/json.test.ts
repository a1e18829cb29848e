import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJson, writeJson } from './json.js';
import { MAX_DEPTH, RawNumber, type Value } from './tree.js';

const fails = (text: string, message: string): void =>
  assert.throws(() => parseJson(text), (error: { status?: number; code?: string; message?: string }) => {
    assert.equal(error.status, 422);
    assert.equal(error.code, 'invalid_input');
    assert.equal(error.message, message);
    return true;
  });

describe('data-converter: JSON reader', () => {
  it('keeps number text, key order and __proto__ as an ordinary key', () => {
    const value = parseJson('{"b":17478252242305210114,"a":[1.000,-0,2e-3],"__proto__":{"x":null}}') as Map<string, Value>;
    assert.deepEqual([...value.keys()], ['b', 'a', '__proto__']);
    assert.deepEqual(value.get('b'), new RawNumber('17478252242305210114'));
    assert.deepEqual(value.get('a'), [new RawNumber('1.000'), new RawNumber('-0'), new RawNumber('2e-3')]);
    assert.deepEqual(value.get('__proto__'), new Map([['x', null]]));
  });

  it('decodes escapes, lone surrogates included', () => {
    assert.equal(parseJson('"a\\n\\u00e9\\ud800\\/"'), 'a\né\ud800/');
  });

  it('refuses what RFC 8259 refuses, with 1-based line and column', () => {
    fails('{"a":1,}', 'Invalid JSON: expected a property name in double quotes at line 1, column 8');
    fails('[1,\n 2,\n ]', 'Invalid JSON: unexpected character "]" at line 3, column 2');
    fails('{"a":1,"a":2}', 'Invalid JSON: duplicate key "a" at line 1, column 8');
    fails('[01]', 'Invalid JSON: expected "," or "]" at line 1, column 3');
    fails('NaN', 'Invalid JSON: unexpected character "N" at line 1, column 1');
    fails('"\t"', 'Invalid JSON: control character in a string at line 1, column 2');
    fails('"\\x"', 'Invalid JSON: bad escape in a string at line 1, column 2');
    fails('// c\n{}', 'Invalid JSON: unexpected character "/" at line 1, column 1');
    fails('{"a" 1}', 'Invalid JSON: expected ":" after a property name at line 1, column 6');
    fails('[1] [2]', 'Invalid JSON: unexpected text after the JSON value at line 1, column 5');
    fails('', 'Invalid JSON: unexpected end of input at line 1, column 1');
    fails('["abc', 'Invalid JSON: unterminated string at line 1, column 2');
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} with input_too_complex, without recursion`, () => {
    assert.equal((parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)) as Value[]).length, 1);
    assert.throws(() => parseJson('['.repeat(100_000)), { code: 'input_too_complex' });
  });
});

describe('data-converter: JSON writer', () => {
  const tree = parseJson('{"a":[1,{"b":17478252242305210114}],"e":{},"l":[],"s":"\\ud800"}');

  it('lays out like JSON.stringify with the indent, numbers as written', () => {
    assert.equal(
      writeJson(tree, 2),
      '{\n  "a": [\n    1,\n    {\n      "b": 17478252242305210114\n    }\n  ],\n  "e": {},\n  "l": [],\n  "s": "\\ud800"\n}',
    );
    assert.equal(writeJson(tree, 0), '{"a":[1,{"b":17478252242305210114}],"e":{},"l":[],"s":"\\ud800"}');
  });

  it('matches JSON.stringify wherever JSON.parse is exact', () => {
    const text = '{"k":[true,false,null,"x\\"y",{"z":[[]]}],"n":-1.5}';
    for (const indent of [0, 1, 4, 8]) assert.equal(writeJson(parseJson(text), indent), JSON.stringify(JSON.parse(text), null, indent));
  });
});
