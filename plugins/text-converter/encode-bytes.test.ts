import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import textConverter from './index.js';
import { encodeBytes, MAX_OUTPUT_LENGTH } from './encode-bytes.js';

const encode = async (body: Record<string, unknown>): Promise<{ bytes: string; count: number }> =>
  (await invoke(textConverter, 'encode', body)) as { bytes: string; count: number };

describe('text-converter.encode', () => {
  it('defaults to lowercase hex separated by one space; count is the number of bytes', async () => {
    // RFC 3629 §7: "A≢Α." is 41 E2 89 A2 CE 91 2E.
    assert.deepEqual(await encode({ text: 'A≢Α.' }), { bytes: '41 e2 89 a2 ce 91 2e', count: 7 });
    // RFC 3629 §7: "한국어" is ED 95 9C EA B5 AD EC 96 B4; "日本語" is E6 97 A5 E6 9C AC E8 AA 9E.
    assert.deepEqual(await encode({ text: '한국어' }), { bytes: 'ed 95 9c ea b5 ad ec 96 b4', count: 9 });
    assert.deepEqual(await encode({ text: '日本語', uppercase: true }), { bytes: 'E6 97 A5 E6 9C AC E8 AA 9E', count: 9 });
  });

  it('writes binary with eight digits, octal with three, decimal unpadded', async () => {
    // "Hi\n" = 0x48 0x69 0x0A = 72 105 10; ü = U+00FC = 110_00011 10_111100 = C3 BC = 195 188.
    // binary: 72 = 64+8 → 01001000; 105 = 64+32+8+1 → 01101001; 10 → 00001010
    assert.equal((await encode({ text: 'Hi\n', format: 'binary' })).bytes, '01001000 01101001 00001010');
    // octal: 72 = 1·64+1·8+0 → 110; 105 = 1·64+5·8+1 → 151; 10 = 1·8+2 → 012; 195 = 3·64+0·8+3 → 303; 188 = 2·64+7·8+4 → 274
    assert.equal((await encode({ text: 'Hi\nü', format: 'octal' })).bytes, '110 151 012 303 274');
    assert.deepEqual(await encode({ text: 'Hi\nü', format: 'decimal' }), { bytes: '72 105 10 195 188', count: 5 });
  });

  it('writes 4-byte sequences: 😀 U+1F600 is F0 9F 98 80', async () => {
    assert.deepEqual(await encode({ text: '😀', separator: '' }), { bytes: 'f09f9880', count: 4 });
  });

  it('uses any separator up to 10 characters, the empty one included; uppercase only affects hex', async () => {
    assert.equal((await encode({ text: 'Hi', separator: '' })).bytes, '4869');
    assert.equal((await encode({ text: 'Hi', separator: ', 0x' })).bytes, '48, 0x69');
    assert.equal((await encode({ text: 'Hi', separator: '0123456789' })).bytes, '480123456789' + '69');
    // maxLength counts code points (JSON Schema): ten emoji are 20 UTF-16 units but 10 characters.
    assert.equal((await encode({ text: 'Hi', separator: '👍'.repeat(10) })).bytes, `48${'👍'.repeat(10)}69`);
    assert.equal((await encode({ text: 'ÿ', format: 'binary', uppercase: true })).bytes, '11000011 10111111');
  });

  it('answers 400 with details for a separator of 11 characters, an unknown format, a missing text', async () => {
    await rejectsField(invoke(textConverter, 'encode', { text: 'a', separator: '01234567890' }), '/separator');
    await rejectsField(invoke(textConverter, 'encode', { text: 'a', format: 'base64' }), '/format');
    await rejectsField(invoke(textConverter, 'encode', { text: 'a', uppercase: 'yes' }), '/uppercase');
    await rejectsField(invoke(textConverter, 'encode', { format: 'hex' }), '/text');
    await rejectsField(invoke(textConverter, 'encode', { text: 'a', bytes: 'x' }), '/bytes');
  });

  it('encodes the empty text as no bytes', async () => {
    assert.deepEqual(await encode({ text: '' }), { bytes: '', count: 0 });
  });

  it('refuses lone surrogates with 422 invalid_text instead of writing EF BF BD', async () => {
    await rejectsWith(invoke(textConverter, 'encode', { text: 'a\udc00' }), 422, 'invalid_text');
    await rejectsWith(invoke(textConverter, 'encode', { text: '\ud83d' }), 422, 'invalid_text');
  });

  it('returns a result exactly at the length cap and refuses one character more with 422 output_too_large', () => {
    // "Hi" in decimal with ", ": "72" + ", " + "105" = 2 + 2 + 3 = 7 characters.
    assert.deepEqual(encodeBytes('Hi', 'decimal', ', ', false, 7), { bytes: '72, 105', count: 2 });
    assert.throws(() => encodeBytes('Hi', 'decimal', ', ', false, 6), { status: 422, code: 'output_too_large' });
    // A wide separator counts in UTF-16 code units: "48" + "👍" (2 units) + "69" = 6.
    assert.deepEqual(encodeBytes('Hi', 'hex', '👍', false, 6), { bytes: '48👍69', count: 2 });
    assert.throws(() => encodeBytes('Hi', 'hex', '👍', false, 5), { code: 'output_too_large' });
  });

  it(`caps the service at ${MAX_OUTPUT_LENGTH} characters: 2 hex digits of 16,777,217 bytes are 2 over`, async () => {
    // 32 MiB = 33,554,432 = 2 × 16,777,216, so 16,777,216 bytes would be exactly at the cap.
    assert.equal(MAX_OUTPUT_LENGTH, 33_554_432);
    await assert.rejects(invoke(textConverter, 'encode', { text: 'a'.repeat(16_777_217), separator: '' }), {
      code: 'output_too_large',
      message: 'The result would be 33554434 characters long; at most 33554432 are returned',
    });
  });

  it('hostile: 10 M bytes with a 10-character separator are refused before any output is built', async () => {
    // 10,000,000 × 8 + 9,999,999 × 10 = 179,999,990 characters of binary: refused.
    const start = performance.now();
    await assert.rejects(invoke(textConverter, 'encode', { text: 'x'.repeat(10_000_000), format: 'binary', separator: '----------' }), {
      code: 'output_too_large',
      message: `The result would be 179999990 characters long; at most ${MAX_OUTPUT_LENGTH} are returned`,
    });
    const ms = performance.now() - start;
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
  });

  it('hostile: the largest hex answer (10 MB of text, default separator) comes back without stalling', async () => {
    const start = performance.now();
    const { bytes, count } = await encode({ text: 'é'.repeat(5_000_000) });
    const ms = performance.now() - start;
    assert.equal(count, 10_000_000);
    assert.equal(bytes.length, 29_999_999); // 10 M × 2 digits + 9,999,999 spaces
    assert.equal(bytes.slice(0, 11), 'c3 a9 c3 a9');
    assert.ok(ms < HANG_GUARD_MS, `took ${ms} ms`);
  });
});
