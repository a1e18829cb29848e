import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke } from '@toolshed/plugin-sdk/testing';
import hashGenerator from './index.js';

// Published vectors: RFC 1321 §A.5 (MD5), RFC 3174 / FIPS 180-2 Appendix A (SHA-1, SHA-256),
// FIPS 180-2 Appendix C/D (SHA-384, SHA-512), all for "abc" and the empty string.
const abc = {
  MD5: '900150983cd24fb0d6963f7d28e17f72',
  'SHA-1': 'a9993e364706816aba3e25717850c26c9cd0d89d',
  'SHA-256': 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  'SHA-384': 'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
  'SHA-512':
    'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
};
const empty = {
  MD5: 'd41d8cd98f00b204e9800998ecf8427e',
  'SHA-1': 'da39a3ee5e6b4b0d3255bfef95601890afd80709',
  'SHA-256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'SHA-384': '38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b',
  'SHA-512':
    'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
};

const rejects = (body: unknown, status: number, code: string): Promise<void> =>
  assert.rejects(invoke(hashGenerator, 'hash', body), (error: { status?: number; code?: string }) => error.status === status && error.code === code);

describe('hash-generator.hash', () => {
  it('defaults to all five algorithms in hex, matching the published "abc" vectors', async () => {
    assert.deepEqual(await invoke(hashGenerator, 'hash', { text: 'abc' }), { hashes: abc });
  });

  it('hashes the empty string (a valid input, not a missing one)', async () => {
    assert.deepEqual(await invoke(hashGenerator, 'hash', { text: '' }), { hashes: empty });
  });

  it('hashes dataBase64 bytes: "YWJj" is "abc"; URL-safe and unpadded forms too', async () => {
    assert.deepEqual(await invoke(hashGenerator, 'hash', { dataBase64: 'YWJj', algorithms: ['SHA-1'] }), { hashes: { 'SHA-1': abc['SHA-1'] } });
    // bytes FF FF are "//8=" in the standard alphabet and "__8" URL-safe without padding: same digest.
    const standard = await invoke(hashGenerator, 'hash', { dataBase64: '//8=', algorithms: ['MD5'] });
    const urlSafe = await invoke(hashGenerator, 'hash', { dataBase64: '__8', algorithms: ['MD5'] });
    assert.deepEqual(urlSafe, standard);
  });

  it('hashes UTF-8, not UTF-16: MD5("ü") is MD5 of C3 BC', async () => {
    const fromText = await invoke(hashGenerator, 'hash', { text: 'ü', algorithms: ['MD5'] });
    const fromBytes = await invoke(hashGenerator, 'hash', { dataBase64: 'w7w=', algorithms: ['MD5'] });
    assert.deepEqual(fromText, fromBytes);
  });

  it('answers only the requested algorithms, in request order, with base64 or uppercase hex', async () => {
    const result = (await invoke(hashGenerator, 'hash', { text: 'abc', algorithms: ['SHA-256', 'MD5'], uppercase: true })) as { hashes: Record<string, string> };
    assert.deepEqual(Object.keys(result.hashes), ['SHA-256', 'MD5']);
    assert.equal(result.hashes.MD5, abc.MD5.toUpperCase());
    // Base64 of the MD5 bytes 90 01 50 98 3c d2 … (RFC 1321 "abc"), checked against the hex vector.
    assert.deepEqual(await invoke(hashGenerator, 'hash', { text: 'abc', algorithms: ['MD5'], encoding: 'base64' }), {
      hashes: { MD5: Buffer.from(abc.MD5, 'hex').toString('base64') },
    });
    assert.deepEqual(await invoke(hashGenerator, 'hash', { text: 'abc', algorithms: ['MD5'], encoding: 'base64' }), {
      hashes: { MD5: 'kAFQmDzST7DWlj99KOF/cg==' },
    });
  });

  it('needs exactly one of text and dataBase64: 400 naming both fields', async () => {
    // The schema states the rule as oneOf; the 400 names both fields whichever way it is broken.
    const message = 'exactly one of text and dataBase64 must be given';
    const both = [
      { path: '/text', message },
      { path: '/dataBase64', message },
    ];
    await assert.rejects(invoke(hashGenerator, 'hash', { text: 'a', dataBase64: 'YQ==' }), { status: 400, code: 'validation_failed', details: both });
    await assert.rejects(invoke(hashGenerator, 'hash', {}), { status: 400, code: 'validation_failed', details: both });
  });

  it('refuses bad parameters with 400: empty list, unknown or repeated algorithm, bad encoding', async () => {
    await rejects({ text: 'a', algorithms: [] }, 400, 'validation_failed');
    await rejects({ text: 'a', algorithms: ['SHA-3'] }, 400, 'validation_failed');
    await rejects({ text: 'a', algorithms: ['MD5', 'MD5'] }, 400, 'validation_failed');
    await rejects({ text: 'a', encoding: 'hex ' }, 400, 'validation_failed');
    await rejects({ text: 'a', uppercase: 1 }, 400, 'validation_failed');
  });

  it('refuses dataBase64 with characters outside the alphabets instead of hashing the wrong bytes', async () => {
    await rejects({ dataBase64: 'YW*Jj' }, 422, 'invalid_base64');
    await rejects({ dataBase64: 'YWJjZ' }, 422, 'invalid_base64');
  });

  it('hashes a large input (8 MB of "a") without trouble', async () => {
    const result = (await invoke(hashGenerator, 'hash', { text: 'a'.repeat(8_000_000), algorithms: ['SHA-256'] })) as { hashes: Record<string, string> };
    assert.match(result.hashes['SHA-256'] ?? '', /^[0-9a-f]{64}$/);
  });
});
