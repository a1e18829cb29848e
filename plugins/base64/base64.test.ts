import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsWith } from '@toolshed/plugin-sdk/testing';
import base64 from './index.js';

// RFC 4648 §10 test vectors.
const vectors: [string, string][] = [
  ['', ''],
  ['f', 'Zg=='],
  ['fo', 'Zm8='],
  ['foo', 'Zm9v'],
  ['foob', 'Zm9vYg=='],
  ['fooba', 'Zm9vYmE='],
  ['foobar', 'Zm9vYmFy'],
];

describe('base64.encode', () => {
  it('matches the RFC 4648 vectors', async () => {
    for (const [text, expected] of vectors) assert.deepEqual(await invoke(base64, 'encode', { text }), { base64: expected });
  });

  it('encodes UTF-8: "ü" is C3 BC, which is w7w= (by hand: 110000 111011 110000 → w 7 w)', async () => {
    assert.deepEqual(await invoke(base64, 'encode', { text: 'ü' }), { base64: 'w7w=' });
  });

  it('uses - and _ and drops padding when urlSafe', async () => {
    // "ü?" is C3 BC 3F → 110000 111011 110000 111111 → w 7 w / (standard) or w 7 w _ (URL-safe)
    assert.deepEqual(await invoke(base64, 'encode', { text: 'ü?' }), { base64: 'w7w/' });
    assert.deepEqual(await invoke(base64, 'encode', { text: 'ü?', urlSafe: true }), { base64: 'w7w_' });
    assert.deepEqual(await invoke(base64, 'encode', { text: 'f', urlSafe: true }), { base64: 'Zg' });
  });

  it('refuses a missing or non-string text with 400 details', async () => {
    await assert.rejects(invoke(base64, 'encode', {}), { status: 400, details: [{ path: '/text', message: 'is required' }] });
    await rejectsWith(invoke(base64, 'encode', { text: 5 }), 400, 'validation_failed');
    await rejectsWith(invoke(base64, 'encode', { text: 'a', urlSafe: 'yes' }), 400, 'validation_failed');
  });
});

describe('base64.decode', () => {
  it('matches the RFC 4648 vectors', async () => {
    for (const [text, encoded] of vectors) assert.deepEqual(await invoke(base64, 'decode', { base64: encoded }), { text });
  });

  it('accepts the URL-safe alphabet, missing padding and whitespace', async () => {
    assert.deepEqual(await invoke(base64, 'decode', { base64: 'w7w_' }), { text: 'ü?' });
    assert.deepEqual(await invoke(base64, 'decode', { base64: 'Zm9vYg' }), { text: 'foob' });
    assert.deepEqual(await invoke(base64, 'decode', { base64: ' Zm9v\nYmFy\r\n\t' }), { text: 'foobar' });
  });

  it('refuses characters outside both alphabets instead of skipping them like Buffer.from', async () => {
    await rejectsWith(invoke(base64, 'decode', { base64: 'Zm9v!' }), 422, 'invalid_base64');
    await rejectsWith(invoke(base64, 'decode', { base64: 'Zm=9v' }), 422, 'invalid_base64');
    await rejectsWith(invoke(base64, 'decode', { base64: 'Zg===' }), 422, 'invalid_base64');
  });

  it('refuses impossible lengths: one dangling character, or padding that does not complete a group', async () => {
    await rejectsWith(invoke(base64, 'decode', { base64: 'Zm9vY' }), 422, 'invalid_base64');
    await rejectsWith(invoke(base64, 'decode', { base64: 'Zg=' }), 422, 'invalid_base64');
  });

  it('refuses bytes that are not UTF-8 (FF FE is /v4=)', async () => {
    await rejectsWith(invoke(base64, 'decode', { base64: '//4=' }), 422, 'invalid_utf8');
  });

  it('decodes a large input in one piece', async () => {
    const text = 'x'.repeat(3_000_000);
    const encoded = Buffer.from(text).toString('base64');
    assert.equal(((await invoke(base64, 'decode', { base64: encoded })) as { text: string }).text.length, 3_000_000);
  });
});
