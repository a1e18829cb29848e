import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import dataConverter from './index.js';

interface Result {
  output: string;
  from: string;
}
const convert = async (body: Record<string, unknown>): Promise<Result> => (await invoke(dataConverter, 'convert', body)) as Result;
const refuses = (body: Record<string, unknown>, code: string, message?: string): Promise<void> =>
  assert.rejects(invoke(dataConverter, 'convert', body), (error: { status?: number; code?: string; message?: string }) => {
    assert.equal(error.status, 422);
    assert.equal(error.code, code);
    if (message !== undefined) assert.equal(error.message, message);
    return true;
  });

describe('data-converter.convert: each direction, exact output', () => {
  it('JSON → YAML (block with indent, flow on one line with indent 0)', async () => {
    const input = '{"name":"Ann","tags":["a","b"],"address":{"city":"Oslo"},"none":null}';
    assert.deepEqual(await convert({ input, to: 'yaml' }), {
      output: 'name: Ann\ntags:\n  - a\n  - b\naddress:\n  city: Oslo\nnone: null\n',
      from: 'json',
    });
    assert.equal((await convert({ input, to: 'yaml', indent: 4 })).output, 'name: Ann\ntags:\n    - a\n    - b\naddress:\n    city: Oslo\nnone: null\n');
    assert.equal((await convert({ input, to: 'yaml', indent: 0 })).output, '{ name: "Ann", tags: [ "a", "b" ], address: { city: "Oslo" }, none: null }\n');
  });

  it('YAML → JSON (indent 2, and one line with indent 0)', async () => {
    const input = 'name: Ann\nage: 42\nok: true\nlist:\n  - 1.50\n  - "x"\n';
    assert.deepEqual(await convert({ input, to: 'json' }), {
      output: '{\n  "name": "Ann",\n  "age": 42,\n  "ok": true,\n  "list": [\n    1.50,\n    "x"\n  ]\n}',
      from: 'yaml',
    });
    assert.equal((await convert({ input, to: 'json', indent: 0 })).output, '{"name":"Ann","age":42,"ok":true,"list":[1.50,"x"]}');
  });

  it('CSV → JSON, header true (objects) and false (arrays)', async () => {
    const input = 'id,name\n1,"Smith, J"\n';
    assert.deepEqual(await convert({ input, to: 'json', indent: 0 }), { output: '[{"id":"1","name":"Smith, J"}]', from: 'csv' });
    assert.equal((await convert({ input, to: 'json', indent: 0, header: false })).output, '[["id","name"],["1","Smith, J"]]');
  });

  it('CSV → YAML quotes the strings that would otherwise read as numbers or booleans', async () => {
    const input = 'code,flag,text\n007,true,plain\n';
    assert.equal((await convert({ input, to: 'yaml' })).output, '- code: "007"\n  flag: "true"\n  text: plain\n');
  });

  it('JSON → CSV and YAML → CSV: union of keys, flattening, arrays as JSON', async () => {
    const json = '[{"id":1,"user":{"name":"Ann","roles":["x","y"]}},{"id":2,"extra":"e"}]';
    assert.deepEqual(await convert({ input: json, to: 'csv' }), {
      output: 'id,user.name,user.roles,extra\n1,Ann,"[""x"",""y""]",\n2,,,e\n',
      from: 'json',
    });
    assert.equal((await convert({ input: json, to: 'csv', header: false })).output, '1,Ann,"[""x"",""y""]",\n2,,,e\n');
    assert.deepEqual(await convert({ input: '- [1, a]\n- [2, b]\n', from: 'yaml', to: 'csv' }), { output: '1,a\n2,b\n', from: 'yaml' });
  });

  it('CSV → CSV: auto reads the detected delimiter and writes commas; a named delimiter is used both ways', async () => {
    assert.equal((await convert({ input: 'a;b\n"1,5";2\n', to: 'csv' })).output, 'a,b\n"1,5",2\n');
    assert.equal((await convert({ input: 'a;b\n"1,5";2\n', to: 'csv', delimiter: 'semicolon' })).output, 'a;b\n1,5;2\n');
    assert.equal((await convert({ input: '[{"a":"x|y","b":1}]', to: 'csv', delimiter: 'pipe' })).output, 'a|b\n"x|y"|1\n');
    assert.equal((await convert({ input: '[{"a":"x\\ty","b":1}]', to: 'csv', delimiter: 'tab' })).output, 'a\tb\n"x\ty"\t1\n');
  });

  it('JSON → JSON and YAML → YAML reformat', async () => {
    assert.equal((await convert({ input: '[1,\n 2]', to: 'json', indent: 0 })).output, '[1,2]');
    assert.equal((await convert({ input: '{a: 1, b: [x]}', from: 'yaml', to: 'yaml' })).output, 'a: 1\nb:\n  - x\n');
  });
});

describe('data-converter.convert: auto-detection', () => {
  it('JSON when the text parses as JSON, CSV when a delimiter is consistent, else YAML', async () => {
    assert.equal((await convert({ input: '[1,2]', to: 'yaml' })).from, 'json');
    assert.equal((await convert({ input: 'a,b\n1,2', to: 'json' })).from, 'csv');
    assert.equal((await convert({ input: 'a\tb\n1\t2', to: 'json' })).from, 'csv');
    assert.equal((await convert({ input: 'a: 1\nb: 2', to: 'json' })).from, 'yaml');
    // Commas with an uneven count are not CSV: "x, y" is one plain YAML scalar.
    assert.equal((await convert({ input: 'a: x, y\nb: 2', to: 'json' })).from, 'yaml');
  });

  it('takes the rule literally: YAML whose every line has one comma reads as CSV in auto mode', async () => {
    // "- [1" | " a]" on both lines: two fields each, so CSV wins before YAML is tried; from: yaml avoids it.
    assert.deepEqual(await convert({ input: '- [1, a]\n- [2, b]\n', to: 'json', indent: 0, header: false }), { output: '[["- [1"," a]"],["- [2"," b]"]]', from: 'csv' });
  });

  it('refuses a bare scalar in every format with unsupported_input', async () => {
    for (const input of ['hello', '42', '"a,b"', '', 'null']) await refuses({ input, to: 'json' }, 'unsupported_input');
  });

  it('a named format is not second-guessed: JSON scalars convert, CSV-looking text is YAML when from is yaml', async () => {
    assert.deepEqual(await convert({ input: '"hi"', from: 'json', to: 'yaml' }), { output: 'hi\n', from: 'json' });
    assert.deepEqual(await convert({ input: 'a,b', from: 'yaml', to: 'json' }), { output: '"a,b"', from: 'yaml' });
  });
});

describe('data-converter.convert: values keep their digits', () => {
  it('round-trips 17478252242305210114 through JSON → YAML → CSV → JSON', async () => {
    const yaml = await convert({ input: '[{"id":17478252242305210114,"x":1.000}]', to: 'yaml' });
    assert.equal(yaml.output, '- id: 17478252242305210114\n  x: 1.000\n');
    const csv = await convert({ input: yaml.output, to: 'csv' });
    assert.equal(csv.output, 'id,x\n17478252242305210114,1.000\n');
    const json = await convert({ input: yaml.output, to: 'json', indent: 0 });
    assert.equal(json.output, '[{"id":17478252242305210114,"x":1.000}]');
    // From CSV the cell is a string, so JSON quotes it: still every digit.
    assert.equal((await convert({ input: csv.output, to: 'json', indent: 0 })).output, '[{"id":"17478252242305210114","x":"1.000"}]');
  });

  it('keeps CSV cells such as 007 and 1e3 as strings', async () => {
    assert.equal((await convert({ input: 'a,b\n007,1e3\n', to: 'json', indent: 0 })).output, '[{"a":"007","b":"1e3"}]');
    const yaml = await convert({ input: 'a,b\n007,1e3\n', to: 'yaml' });
    assert.equal(yaml.output, '- a: "007"\n  b: "1e3"\n');
    assert.equal((await convert({ input: yaml.output, to: 'csv' })).output, 'a,b\n007,1e3\n');
  });

  it('writes YAML numbers in other notations as their JSON value (0x1F is 31; YAML 1.2 reads 007 as 7)', async () => {
    assert.equal((await convert({ input: 'a: 0x1F\nb: 007\nc: +5\nd: .5', to: 'json', indent: 0 })).output, '{"a":31,"b":7,"c":5,"d":0.5}');
  });

  it('keeps __proto__ as an ordinary key', async () => {
    assert.equal((await convert({ input: '{"__proto__":{"x":1}}', to: 'yaml' })).output, '__proto__:\n  x: 1\n');
  });
});

describe('data-converter.convert: manifest examples', () => {
  it('answers every example exactly', async () => {
    for (const example of dataConverter.operations.convert?.examples ?? []) assert.deepEqual(await convert(example.body), example.response);
  });
});

describe('data-converter.convert: refusals', () => {
  it('invalid input in the named format is 422 invalid_input with line and column', async () => {
    await refuses({ input: '{"a": 1,\n "b": }', from: 'json', to: 'yaml' }, 'invalid_input', 'Invalid JSON: unexpected character "}" at line 2, column 7');
    await refuses({ input: 'a: 1\na: 2\n', from: 'yaml', to: 'json' }, 'invalid_input', 'Invalid YAML: Map keys must be unique at line 2, column 1');
    await refuses({ input: 'a: [1, 2\nb: c', from: 'yaml', to: 'json' }, 'invalid_input');
    await refuses({ input: 'a,b\n"1,2\n', from: 'csv', to: 'json' }, 'invalid_input', 'Invalid CSV: a quoted field is never closed at line 2, column 1');
  });

  it('in auto mode, text that opens like JSON gets the JSON error', async () => {
    await refuses({ input: '{"a":1,"a":2}', to: 'yaml' }, 'invalid_input', 'Invalid JSON: duplicate key "a" at line 1, column 8');
  });

  it('an error message never quotes more than a short piece of the input', async () => {
    const key = 'k'.repeat(5000);
    await assert.rejects(invoke(dataConverter, 'convert', { input: `{"${key}":1,"${key}":2}`, to: 'json' }), (error: Error) => error.message.length < 120);
    await assert.rejects(invoke(dataConverter, 'convert', { input: `${key}: 1\n${key}: 2\n`, from: 'yaml', to: 'json' }), (error: Error) => error.message.length < 160);
  });

  it('refuses several YAML documents, a collection as a key and .inf with unsupported_input', async () => {
    await refuses({ input: 'a: 1\n---\nb: 2\n', to: 'json' }, 'unsupported_input');
    await refuses({ input: '? [a, b]\n: c\n', from: 'yaml', to: 'json' }, 'unsupported_input');
    await refuses({ input: 'x: .inf\n', to: 'json' }, 'unsupported_input');
  });

  it('refuses parameters outside the schema with 400', async () => {
    await rejectsField(invoke(dataConverter, 'convert', { input: '[]', to: 'xml' }), '/to');
    await rejectsField(invoke(dataConverter, 'convert', { input: '[]', to: 'json', indent: 9 }), '/indent');
    await rejectsField(invoke(dataConverter, 'convert', { input: '[]', to: 'json', delimiter: ',' }), '/delimiter');
    await rejectsWith(invoke(dataConverter, 'convert', { input: '[]' }), 400, 'validation_failed');
  });
});
