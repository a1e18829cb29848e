import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildGraphemeTable, graphemeTable } from './grapheme-classes.js';
import { buildCategoryTable, categoryTable } from './letters.js';
import { decodeRuns, encodeRuns, storedTable, TABLE_LENGTH } from './stored-tables.js';
import { STORED_TABLES } from './unicode-tables.data.js';

const sameUnicode = process.versions.unicode === STORED_TABLES.unicode;
const otherUnicode = `the stored tables are for Unicode ${STORED_TABLES.unicode}, this Node has ${process.versions.unicode}`;

describe('stored Unicode tables', () => {
  it('encode runs as (value, base-128 length) pairs and decode them back', () => {
    // 5 × 0, 200 × 7, 95 × 3: 00 05 | 07 C8 01 (200 = 0x48 + 1 × 128) | 03 5F.
    const table = new Uint8Array(300);
    table.fill(7, 5, 205);
    table.fill(3, 205);
    const encoded = Buffer.from([0x00, 0x05, 0x07, 0xc8, 0x01, 0x03, 0x5f]).toString('base64');
    assert.equal(encodeRuns(table), encoded);
    assert.deepEqual(decodeRuns(encoded, 300), table);
  });

  it('refuse runs that do not fill the table exactly', () => {
    const nineTimesTen = Buffer.from([0x09, 0x0a]).toString('base64');
    assert.throws(() => decodeRuns(nineTimesTen, 11), /fill 10 of 11 entries/);
    assert.throws(() => decodeRuns(nineTimesTen, 9), /overflow/);
    assert.throws(() => decodeRuns(Buffer.from([0x09, 0x80]).toString('base64'), 10), /cut short/);
  });

  it('are used only for the Unicode version they were built from', () => {
    assert.equal(storedTable('grapheme', 'another version'), undefined);
    assert.equal(storedTable('category', '16.0'), undefined);
    assert.equal(storedTable('category', STORED_TABLES.unicode)?.length, TABLE_LENGTH);
  });

  // The independent source: the tables built from this Node's regular-expression engine and Intl.Segmenter.
  it('equal the grapheme table built from the ICU at hand, byte for byte', { skip: !sameUnicode && otherUnicode }, () => {
    assert.deepEqual(storedTable('grapheme'), buildGraphemeTable());
    assert.deepEqual(graphemeTable(), buildGraphemeTable());
  });

  it('equal the category table built from the ICU at hand, byte for byte', { skip: !sameUnicode && otherUnicode }, () => {
    assert.deepEqual(storedTable('category'), buildCategoryTable());
    assert.deepEqual(categoryTable(), buildCategoryTable());
  });
});
