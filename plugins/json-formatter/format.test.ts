import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import jsonFormatter from './index.js';

interface Formatted {
  json: string;
  stats: { type: string; keys: number; depth: number };
}
const format = async (body: Record<string, unknown>): Promise<Formatted> => (await invoke(jsonFormatter, 'format', body)) as Formatted;
const minify = async (json: string, sortKeys = false): Promise<string> =>
  ((await invoke(jsonFormatter, 'minify', { json, sortKeys })) as { json: string }).json;

describe('json-formatter: manifest examples', () => {
  it('answers every example exactly', async () => {
    for (const [name, operation] of Object.entries(jsonFormatter.operations)) {
      for (const example of operation.examples) assert.deepEqual(await invoke(jsonFormatter, name, example.body), example.response, name);
    }
  });
});

describe('json-formatter.format: layout', () => {
  it('indents by 2 by default, one member or element per line, like JSON.stringify(v, null, 2)', async () => {
    const result = await format({ json: '{"a":[1,{"b":null}],"c":"x"}' });
    assert.equal(result.json, '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": "x"\n}');
    // keys a, b, c; depth: object → array → object = 3.
    assert.deepEqual(result.stats, { type: 'object', keys: 3, depth: 3 });
  });

  it('indents by 4 or by a tab', async () => {
    assert.equal((await format({ json: '[1,[2]]', indent: 4 })).json, '[\n    1,\n    [\n        2\n    ]\n]');
    assert.equal((await format({ json: '[1,[2]]', indent: 'tab' })).json, '[\n\t1,\n\t[\n\t\t2\n\t]\n]');
  });

  it('keeps empty containers on one line and adds no trailing newline', async () => {
    const result = await format({ json: ' { "a" : { } , "b" : [ ] } ' });
    assert.equal(result.json, '{\n  "a": {},\n  "b": []\n}');
    assert.deepEqual(result.stats, { type: 'object', keys: 2, depth: 2 });
  });

  it('agrees with JSON.stringify(JSON.parse(x), null, n) where no number or escape is rewritten', async () => {
    const source = '{"name":"Ada","tags":["x",{"deep":[[],{}]}],"ok":true,"n":-12.5,"none":null}';
    for (const indent of [2, 4] as const) {
      assert.equal((await format({ json: source, indent })).json, JSON.stringify(JSON.parse(source), null, indent));
    }
    assert.equal(await minify(source), source);
  });

  it('formats the RFC 8259 §13 example and counts its keys and depth', async () => {
    const rfc =
      '{"Image":{"Width":800,"Height":600,"Title":"View from 15th Floor","Thumbnail":{"Url":"http://www.example.com/image/481989943",' +
      '"Height":125,"Width":100},"Animated":false,"IDs":[116,943,234,38793]}}';
    const result = await format({ json: rfc });
    assert.equal(result.json, JSON.stringify(JSON.parse(rfc), null, 2));
    // Image, Width, Height, Title, Thumbnail, Url, Height, Width, Animated, IDs = 10 keys;
    // root {} → Image {} → Thumbnail {} (or IDs []) = depth 3.
    assert.deepEqual(result.stats, { type: 'object', keys: 10, depth: 3 });
  });
});

describe('json-formatter.format: stats', () => {
  it('types a scalar root and gives it depth 0', async () => {
    assert.deepEqual(await format({ json: ' "x" ' }), { json: '"x"', stats: { type: 'string', keys: 0, depth: 0 } });
    assert.deepEqual((await format({ json: '42' })).stats, { type: 'number', keys: 0, depth: 0 });
    assert.deepEqual((await format({ json: 'true' })).stats, { type: 'boolean', keys: 0, depth: 0 });
    assert.deepEqual((await format({ json: 'false' })).stats, { type: 'boolean', keys: 0, depth: 0 });
    assert.deepEqual((await format({ json: 'null' })).stats, { type: 'null', keys: 0, depth: 0 });
  });

  it('gives {} and [] depth 1, [[]] depth 2, and counts keys at every level', async () => {
    assert.deepEqual((await format({ json: '{}' })).stats, { type: 'object', keys: 0, depth: 1 });
    assert.deepEqual((await format({ json: '[]' })).stats, { type: 'array', keys: 0, depth: 1 });
    assert.deepEqual((await format({ json: '[[]]' })).stats, { type: 'array', keys: 0, depth: 2 });
    // a, b (inside the array's object), c, d (inside c) = 4 keys; [ → { → { = depth 3.
    assert.deepEqual((await format({ json: '[{"a":1,"b":2},{"c":{"d":[]}}]' })).stats, { type: 'array', keys: 4, depth: 4 });
  });
});

describe('json-formatter: numbers, strings and names survive as written', () => {
  it('keeps big integers, trailing zeros, -0 and exponents digit for digit', async () => {
    const source = '[17478252242305210114,1.000,-0,1E+2,0.1e-7,123456789012345678901234567890.50]';
    // JSON.parse would give 17478252242305210000 and 1: the formatter must not.
    assert.equal(
      (await format({ json: source })).json,
      '[\n  17478252242305210114,\n  1.000,\n  -0,\n  1E+2,\n  0.1e-7,\n  123456789012345678901234567890.50\n]',
    );
    assert.equal(await minify(source), source);
    assert.equal(await minify('{"z": 17478252242305210114, "a": 1.000}', true), '{"a":1.000,"z":17478252242305210114}');
  });

  it('keeps string escapes and raw characters exactly as written', async () => {
    const source = '{"caf\\u00e9":"caf\u00e9","s":"\\/\\n\\"\\ud83d\\ude00😀","\\u0000":""}';
    assert.equal(await minify(source), source);
    assert.equal((await format({ json: source })).json, '{\n  "caf\\u00e9": "caf\u00e9",\n  "s": "\\/\\n\\"\\ud83d\\ude00😀",\n  "\\u0000": ""\n}');
  });

  it('keeps whitespace inside strings and drops all four kinds outside', async () => {
    assert.equal(await minify('{ "a b" :\r\n\t[ " x " , 2 ]\n}'), '{"a b":[" x ",2]}');
  });

  it('treats __proto__ as an ordinary member name', async () => {
    const source = '{"__proto__":{"polluted":true},"constructor":1}';
    assert.equal(await minify(source), source);
    assert.equal(await minify(source, true), '{"__proto__":{"polluted":true},"constructor":1}');
    const result = await format({ json: source, sortKeys: true });
    assert.equal(result.json, '{\n  "__proto__": {\n    "polluted": true\n  },\n  "constructor": 1\n}');
    assert.deepEqual(result.stats, { type: 'object', keys: 3, depth: 2 });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('keeps duplicate names in source order, and stably when sorting', async () => {
    assert.equal(await minify('{"a":1, "a":2}'), '{"a":1,"a":2}');
    assert.equal((await format({ json: '{"a":1,"a":2}' })).stats.keys, 2);
    assert.equal(await minify('{"b":1,"a":2,"b":3,"a":4}', true), '{"a":2,"a":4,"b":1,"b":3}');
    // Equal once decoded: "\u0061" is "a", so it stays between the two plain "a" by source order.
    assert.equal(await minify('{"a":1,"\\u0061":2,"a":3,"0":4}', true), '{"0":4,"a":1,"\\u0061":2,"a":3}');
  });
});

describe('json-formatter: sortKeys', () => {
  it('sorts at every level, inside arrays too, and leaves array order alone', async () => {
    assert.equal(await minify('[{"b":1,"a":{"d":1,"c":2}},[3,1,2]]', true), '[{"a":{"c":2,"d":1},"b":1},[3,1,2]]');
    assert.equal(
      (await format({ json: '{"b":[{"y":1,"x":2}],"a":0}', sortKeys: true })).json,
      '{\n  "a": 0,\n  "b": [\n    {\n      "x": 2,\n      "y": 1\n    }\n  ]\n}',
    );
  });

  it('orders by the decoded name in UTF-16 code units: "" < "A" < "B" < "a" < "aa" < "b" < "é"', async () => {
    // "\u0041" decodes to "A" (0x41), so it sorts before "B" (0x42) even though it is written with a backslash.
    assert.equal(await minify('{"b":1,"B":2,"a":3,"\\u0041":4,"é":5,"aa":6,"":7}', true), '{"":7,"\\u0041":4,"B":2,"a":3,"aa":6,"b":1,"é":5}');
    // 😀 is U+1F600 = 0xD83D 0xDE00 in UTF-16, below ｆ U+FF46: code-unit order, as Array.prototype.sort.
    assert.equal(await minify('{"ｆ":1,"😀":2}', true), '{"😀":2,"ｆ":1}');
  });

  it('is off by default', async () => {
    assert.equal(await minify('{"b":1,"a":2}'), '{"b":1,"a":2}');
    assert.equal((await format({ json: '{"b":1,"a":2}' })).json, '{\n  "b": 1,\n  "a": 2\n}');
  });
});

describe('json-formatter: refusals', () => {
  it('answers invalid JSON on /format and /minify with 422 invalid_json_input and its line and column', async () => {
    // Line 2 is `  "a": 1,`; the 9th character is the comma before the closing brace.
    await rejectsWith(invoke(jsonFormatter, 'format', { json: '{\n  "a": 1,\n}' }), 422, 'invalid_json_input');
    await assert.rejects(invoke(jsonFormatter, 'format', { json: '{\n  "a": 1,\n}' }), {
      message: "Invalid JSON at line 2, column 9: trailing comma before '}'",
    });
    await assert.rejects(invoke(jsonFormatter, 'minify', { json: '[1,\n 2,\n  NaN]' }), {
      code: 'invalid_json_input',
      message: 'Invalid JSON at line 3, column 3: NaN is not a JSON value',
    });
    await assert.rejects(invoke(jsonFormatter, 'minify', { json: '' }), {
      code: 'invalid_json_input',
      message: 'Invalid JSON at line 1, column 1: expected a JSON value, found end of input',
    });
  });

  it('quotes at most one character of the input in a message', async () => {
    const long = `"${'x'.repeat(1000)}`;
    await assert.rejects(invoke(jsonFormatter, 'format', { json: long }), (error: Error) => error.message.length < 100);
  });

  it('checks the schema: indent is 2, 4 or "tab"; sortKeys a boolean; json required; nothing else', async () => {
    await rejectsField(invoke(jsonFormatter, 'format', { json: '1', indent: 3 }), '/indent');
    await rejectsField(invoke(jsonFormatter, 'format', { json: '1', indent: '4' }), '/indent');
    await rejectsField(invoke(jsonFormatter, 'format', { json: '1', indent: 'TAB' }), '/indent');
    await rejectsField(invoke(jsonFormatter, 'minify', { json: '1', sortKeys: 'yes' }), '/sortKeys');
    await rejectsField(invoke(jsonFormatter, 'validate', {}), '/json');
    await rejectsField(invoke(jsonFormatter, 'validate', { json: '1', strict: true }), '/strict');
    await rejectsField(invoke(jsonFormatter, 'minify', { json: { a: 1 } }), '/json');
  });
});
