import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import textConverter from './index.js';

const decode = async (bytes: string, format?: string): Promise<string> =>
  ((await invoke(textConverter, 'decode', format === undefined ? { bytes } : { bytes, format })) as { text: string }).text;

describe('text-converter.decode', () => {
  it('defaults to hex and reads the RFC 3629 examples back', async () => {
    assert.deepEqual(await invoke(textConverter, 'decode', { bytes: '41 E2 89 A2 CE 91 2E' }), { text: 'A≢Α.' });
    assert.equal(await decode('ED 95 9C EA B5 AD EC 96 B4'), '한국어');
  });

  it('accepts space, tab, newline, comma and colon, mixed and repeated, leading and trailing', async () => {
    assert.equal(await decode(' ,48:69,, 20\t\r\nc3 : bc\n'), 'Hi ü');
  });

  it('reads unseparated hex pairs and binary octets, case-insensitive hex, also inside separated tokens', async () => {
    assert.equal(await decode('4869'), 'Hi');
    assert.equal(await decode('4869 20C3bC'), 'Hi ü');
    assert.equal(await decode('0100100001101001', 'binary'), 'Hi');
    assert.equal(await decode('01001000 01101001', 'binary'), 'Hi');
  });

  it('reads decimal and octal values of any width, leading zeros allowed', async () => {
    assert.equal(await decode('72 105 32 195 188', 'decimal'), 'Hi ü');
    assert.equal(await decode('072,0105', 'decimal'), 'Hi');
    // 72 = 0o110, 105 = 0o151 (see the encode tests); 0o12 = 10 = "\n"
    assert.equal(await decode('110 151 12', 'octal'), 'Hi\n');
  });

  it('gives the empty text for nothing or only separators, and keeps NUL and a BOM', async () => {
    assert.equal(await decode(''), '');
    assert.equal(await decode(' ,: \n'), '');
    assert.equal(await decode('00 41'), '\u0000A');
    // EF BB BF is U+FEFF; TextDecoder would drop it by default, and that would lose a byte.
    assert.equal(await decode('EF BB BF 41'), '\uFEFFA');
  });

  it('refuses odd hex and partial octets with 422 invalid_bytes', async () => {
    for (const bytes of ['486', 'a', '48 6', '48 6 9']) await rejectsWith(invoke(textConverter, 'decode', { bytes }), 422, 'invalid_bytes');
    for (const bytes of ['0100100', '010010000', '1 0']) await rejectsWith(invoke(textConverter, 'decode', { bytes, format: 'binary' }), 422, 'invalid_bytes');
    await assert.rejects(invoke(textConverter, 'decode', { bytes: '48 696' }), {
      code: 'invalid_bytes',
      message: 'The hex digits starting at index 3 are not whole bytes of 2 digits',
    });
  });

  it('refuses values over 255 with 422 invalid_bytes: 256, 0o400, unseparated decimal', async () => {
    await assert.rejects(invoke(textConverter, 'decode', { bytes: '72 256', format: 'decimal' }), {
      code: 'invalid_bytes',
      message: 'The decimal value starting at index 3 is over 255',
    });
    await rejectsWith(invoke(textConverter, 'decode', { bytes: '7210', format: 'decimal' }), 422, 'invalid_bytes');
    await rejectsWith(invoke(textConverter, 'decode', { bytes: '400', format: 'octal' }), 422, 'invalid_bytes'); // 4·64 = 256
  });

  it('refuses characters that are not digits of the format or separators', async () => {
    await assert.rejects(invoke(textConverter, 'decode', { bytes: '48 6G' }), {
      code: 'invalid_bytes',
      message: 'The character at index 4 is not a hex digit or a separator',
    });
    const cases: [string, string][] = [
      ['0x48', 'hex'], ['48;69', 'hex'], ['48-69', 'hex'], ['48\u00a069', 'hex'], ['４８', 'hex'],
      ['2', 'binary'], ['8', 'octal'], ['-1', 'decimal'], ['1.5', 'decimal'], ['a', 'decimal'],
    ];
    for (const [bytes, format] of cases) await rejectsWith(invoke(textConverter, 'decode', { bytes, format }), 422, 'invalid_bytes');
  });

  it('refuses bytes that are not UTF-8 with 422 invalid_utf8: FF, truncated, overlong, surrogate', async () => {
    for (const bytes of ['FF', 'C3', '41 C3 28', 'C0 AF', 'ED A0 80', 'F4 90 80 80']) {
      await rejectsWith(invoke(textConverter, 'decode', { bytes }), 422, 'invalid_utf8');
    }
    await rejectsWith(invoke(textConverter, 'decode', { bytes: '255', format: 'decimal' }), 422, 'invalid_utf8');
    await rejectsWith(invoke(textConverter, 'decode', { bytes: '377', format: 'octal' }), 422, 'invalid_utf8');
  });

  it('answers 400 with details for a missing bytes field or an unknown format', async () => {
    await assert.rejects(invoke(textConverter, 'decode', {}), { status: 400, details: [{ path: '/bytes', message: 'is required' }] });
    await assert.rejects(invoke(textConverter, 'decode', { bytes: '41', format: 'HEX' }), {
      status: 400,
      details: [{ path: '/format', message: 'must be one of "hex", "binary", "decimal", "octal"' }],
    });
  });

  it('hostile: 10 MB of digits, separators or non-UTF-8 answer without stalling', async () => {
    const start = performance.now();
    assert.equal(await decode('41'.repeat(5_000_000)), 'A'.repeat(5_000_000));
    assert.equal(await decode('0'.repeat(10_000_000), 'decimal'), '\u0000'); // one value, 0
    assert.equal(await decode(':'.repeat(10_000_000)), '');
    await rejectsWith(invoke(textConverter, 'decode', { bytes: 'ff'.repeat(5_000_000) }), 422, 'invalid_utf8');
    await rejectsWith(invoke(textConverter, 'decode', { bytes: '9'.repeat(10_000_000), format: 'decimal' }), 422, 'invalid_bytes');
    const ms = performance.now() - start;
    assert.ok(ms < HANG_GUARD_MS, `five 10 MB inputs took ${ms} ms`);
  });
});
