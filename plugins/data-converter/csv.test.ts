import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectDelimiter, MAX_CELLS, maxCells, parseCsv, scanCsv, toRows, writeCsv } from './csv.js';
import { parseJson } from './json.js';

describe('data-converter: CSV scanner and delimiter detection', () => {
  it('counts fields per record, respecting quotes, "" and line breaks inside quotes (RFC 4180 §2)', () => {
    // Record 1: a | "b,c" ; record 2 spans lines 2–3: "x""\ny" | z ; the blank line 4 is skipped.
    const scan = scanCsv('a,"b,c"\r\n"x""\ny",z\n\nlast,one', ',');
    assert.deepEqual(scan, { ok: true, counts: [2, 2, 2], lines: [1, 2, 5] });
  });

  it('locates an unclosed quote and text after a closing quote', () => {
    assert.deepEqual(scanCsv('a,b\n1,"2\n', ','), { ok: false, problem: 'a quoted field is never closed', offset: 6 });
    assert.deepEqual(scanCsv('"a"x,b', ','), { ok: false, problem: 'a character follows the closing quote of a field', offset: 3 });
  });

  it('picks the delimiter that gives every record the same number (> 1) of fields', () => {
    assert.equal(detectDelimiter('a;b;c\n1;2,5;3\n'), ';'); // comma gives 1 then 2 fields
    assert.equal(detectDelimiter('a\tb\n1\t2'), '\t');
    assert.equal(detectDelimiter('a|b\n"1|x"|2'), '|');
    assert.equal(detectDelimiter('a,b;c\n1,2;3'), ','); // a tie (2 and 2 fields): the first in order
    assert.equal(detectDelimiter('a;b;c,d\n1;2;3,4'), ';'); // 3 fields beat 2
    assert.equal(detectDelimiter('a,b\n1,2,3'), undefined);
    assert.equal(detectDelimiter('just one column\nof text'), undefined);
  });
});

describe('data-converter: CSV reading with fast-csv', () => {
  it('keeps every cell a string, as written', async () => {
    const rows = await parseCsv('id,amount,note\n007,1e3," padded "\n', ',', false);
    assert.deepEqual(rows, [
      ['id', 'amount', 'note'],
      ['007', '1e3', ' padded '],
    ]);
  });

  it('keys records by the header', async () => {
    const records = await parseCsv('a;b\n1;"x;y"\n', ';', true);
    assert.deepEqual(records, [new Map([['a', '1'], ['b', 'x;y']])]);
  });

  it('refuses a record with another number of fields, and duplicate column names', async () => {
    await assert.rejects(parseCsv('a,b\n1,2\n3\n', ',', true), {
      code: 'invalid_input',
      message: 'Invalid CSV: record 3 has 1 fields, the header has 2 at line 3, column 1',
    });
    await assert.rejects(parseCsv('a,a\n1,2\n', ',', true), { code: 'invalid_input', message: 'Invalid CSV: duplicate column name "a" at line 1, column 1' });
    // Without a header, rows of any length are fine.
    assert.deepEqual(await parseCsv('a,b\n3\n', ',', false), [['a', 'b'], ['3']]);
  });
});

describe('data-converter: CSV writing', () => {
  it('quotes only fields with the delimiter, a quote, CR or LF, doubling quotes (RFC 4180 §2.6–2.7)', async () => {
    const csv = await writeCsv([['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', ' spaced ', '=1+1', '']], ',');
    assert.equal(csv, 'plain,"a,b","say ""hi""","two\nlines","cr\r", spaced ,=1+1,\n');
    assert.equal(await writeCsv([['a;b', 'c,d']], ';'), '"a;b";c,d\n');
    assert.equal(await writeCsv([], ','), '');
  });

  it('round-trips awkward cells through fast-csv', async () => {
    const cells = ['a,b', 'say "hi"', 'two\r\nlines', ' x ', '"', ''];
    assert.deepEqual(await parseCsv(await writeCsv([cells, cells], ','), ',', false), [cells, cells]);
  });

  it('takes the union of keys in first-seen order, flattening nested objects with dots', () => {
    const rows = toRows(parseJson('[{"a":1,"n":{"x":true,"y":{"z":null}}},{"b":"B","a":2,"l":[1,{"k":"v"}],"e":{}}]'), true);
    assert.deepEqual(rows, [
      ['a', 'n.x', 'n.y.z', 'b', 'l', 'e'],
      ['1', 'true', '', '', '', ''],
      ['2', '', '', 'B', '[1,{"k":"v"}]', '{}'],
    ]);
  });

  it('writes one object as one row, arrays as rows without a header, and values only with header false', () => {
    assert.deepEqual(toRows(parseJson('{"a":1,"b":"x"}'), true), [['a', 'b'], ['1', 'x']]);
    assert.deepEqual(toRows(parseJson('{"a":1,"b":"x"}'), false), [['1', 'x']]);
    assert.deepEqual(toRows(parseJson('[[1,"a"],[2,[3]],"s"]'), true), [['1', 'a'], ['2', '[3]'], ['s']]);
  });

  it('caps the cells at twice the input length (at least 1,000): sparse keys cannot multiply a small input', () => {
    // 40 rows with distinct keys: 40 × 40 = 1,600 cells; the 1,000-cell cap refuses, a 1,600-cell cap takes it.
    const sparse = parseJson(`[${Array.from({ length: 40 }, (_, index) => `{"k${index}":1}`).join(',')}]`);
    assert.throws(() => toRows(sparse, true, 1000), { code: 'output_too_large', message: 'The table would have more than 1000 cells' });
    assert.equal(toRows(sparse, true, 1600).length, 41);
    assert.equal(maxCells(10), 1000);
    assert.equal(maxCells(1_000_000), 2_000_000);
    assert.equal(maxCells(10 * 1024 * 1024), MAX_CELLS);
  });

  it('refuses a single value, a mix of objects and others, and two fields flattening to one column', () => {
    assert.throws(() => toRows('x', true), { code: 'unsupported_input' });
    assert.throws(() => toRows(parseJson('[{"a":1},[1]]'), true), { code: 'unsupported_input' });
    assert.throws(() => toRows(parseJson('{"a.b":1,"a":{"b":2}}'), true), {
      code: 'unsupported_input',
      message: 'Two fields of one row flatten to the column "a.b"',
    });
  });
});
