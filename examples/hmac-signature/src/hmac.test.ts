import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import hmac from './index.js';

const hexOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/**
 * RFC 4231 section 4 (HMAC-SHA-224/256/384/512 test vectors), cases 1-4, 6 and 7: key, data and
 * the expected HMAC for each hash function, as printed in the RFC. Case 5 is below: the RFC gives
 * only a 128-bit truncation of its output.
 */
const rfc4231 = [
  {
    name: 'case 1',
    key: '0b'.repeat(20),
    data: hexOf('Hi There'),
    sha256: 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
    sha384: 'afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6',
    sha512: '87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854',
  },
  {
    name: 'case 2 (a key shorter than the output)',
    key: hexOf('Jefe'),
    data: hexOf('what do ya want for nothing?'),
    sha256: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    sha384: 'af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649',
    sha512: '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
  },
  {
    name: 'case 3 (50 bytes of 0xdd)',
    key: 'aa'.repeat(20),
    data: 'dd'.repeat(50),
    sha256: '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
    sha384: '88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27',
    sha512: 'fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb',
  },
  {
    name: 'case 4 (key 0x01..0x19)',
    key: '0102030405060708090a0b0c0d0e0f10111213141516171819',
    data: 'cd'.repeat(50),
    sha256: '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    sha384: '3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb',
    sha512: 'b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd',
  },
  {
    name: 'case 6 (a key larger than the block)',
    key: 'aa'.repeat(131),
    data: hexOf('Test Using Larger Than Block-Size Key - Hash Key First'),
    sha256: '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    sha384: '4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952',
    sha512: '80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598',
  },
  {
    name: 'case 7 (key and data larger than the block)',
    key: 'aa'.repeat(131),
    data: hexOf(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    sha256: '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    sha384: '6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e',
    sha512: 'e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58',
  },
] as const;

const algorithms = ['sha256', 'sha384', 'sha512'] as const;
const hexBody = (key: string, data: string) => ({ key, keyEncoding: 'hex', message: data, messageEncoding: 'hex' });

describe('sign: RFC 4231 test vectors', () => {
  for (const vector of rfc4231) {
    for (const algorithm of algorithms) {
      it(`${vector.name}, ${algorithm}`, async () => {
        assert.deepEqual(await invoke(hmac, 'sign', { ...hexBody(vector.key, vector.data), algorithm }), { signature: vector[algorithm] });
      });
    }
  }

  it('case 5: the RFC prints the first 128 bits of each output', async () => {
    const truncated = { sha256: 'a3b6167473100ee06e0c796c2955552b', sha384: '3abf34c3503b2a23a46efc619baef897', sha512: '415fad6271580a531d4179bc891d87a6' };
    for (const algorithm of algorithms) {
      const { signature } = (await invoke(hmac, 'sign', { ...hexBody('0c'.repeat(20), hexOf('Test With Truncation')), algorithm })) as { signature: string };
      assert.equal(signature.slice(0, 32), truncated[algorithm], algorithm);
      assert.equal(signature.length, { sha256: 64, sha384: 96, sha512: 128 }[algorithm], 'the full output is returned');
    }
  });

  it('takes text as UTF-8 by default and SHA-256 by default (case 2 written as text)', async () => {
    assert.deepEqual(await invoke(hmac, 'sign', { key: 'Jefe', message: 'what do ya want for nothing?' }), { signature: rfc4231[1].sha256 });
  });

  it('takes a Base64 key, padded or not, in either alphabet (case 1: twenty 0x0b bytes)', async () => {
    // 0x0b0b0b is 000010 110000 101100 001011: "CwsL"; the last two bytes give "Cws" and one "=".
    for (const key of ['CwsLCwsLCwsLCwsLCwsLCwsLCws=', 'CwsLCwsLCwsLCwsLCwsLCwsLCws']) {
      const body = { key, keyEncoding: 'base64', message: 'Hi There' };
      assert.deepEqual(await invoke(hmac, 'sign', body), { signature: rfc4231[0].sha256 }, key);
    }
    // 0xfb 0xff is "+/8" in the standard alphabet and "-_8" in the URL-safe one.
    const standard = await invoke(hmac, 'sign', { key: '+/8=', keyEncoding: 'base64', message: 'm' });
    assert.deepEqual(await invoke(hmac, 'sign', { key: '-_8', keyEncoding: 'base64', message: 'm' }), standard);
    assert.deepEqual(await invoke(hmac, 'sign', { key: 'fbff', keyEncoding: 'hex', message: 'm' }), standard);
  });

  it('writes the signature in Base64 on request', async () => {
    const { signature } = (await invoke(hmac, 'sign', { ...hexBody(rfc4231[0].key, rfc4231[0].data), encoding: 'base64' })) as { signature: string };
    assert.equal(Buffer.from(signature, 'base64').toString('hex'), rfc4231[0].sha256);
    assert.match(signature, /^[A-Za-z0-9+/]{43}=$/, '32 bytes are 43 Base64 digits and one "="');
  });
});

describe('verify', () => {
  it('accepts every RFC 4231 signature, in either hex case and in Base64', async () => {
    for (const vector of rfc4231) {
      for (const algorithm of algorithms) {
        const body = { ...hexBody(vector.key, vector.data), algorithm };
        assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: vector[algorithm] }), { valid: true });
        assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: vector[algorithm].toUpperCase() }), { valid: true });
        const base64 = Buffer.from(vector[algorithm], 'hex').toString('base64');
        assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: base64, encoding: 'base64' }), { valid: true });
      }
    }
  });

  it('refuses a signature with any one bit changed, a truncated one, or one under another key or algorithm', async () => {
    const body = hexBody(rfc4231[0].key, rfc4231[0].data);
    const good = rfc4231[0].sha256;
    const flip = (position: number): string => {
      const bytes = Buffer.from(good, 'hex');
      bytes[position] = bytes[position]! ^ 0x01;
      return bytes.toString('hex');
    };
    for (const position of [0, 15, 31]) assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: flip(position) }), { valid: false }, `byte ${position}`);
    assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: good.slice(0, 32) }), { valid: false }, 'the first 128 bits');
    assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: '' }), { valid: false }, 'empty');
    assert.deepEqual(await invoke(hmac, 'verify', { ...body, signature: good, algorithm: 'sha512' }), { valid: false }, 'another algorithm');
    assert.deepEqual(await invoke(hmac, 'verify', { ...hexBody('0c'.repeat(20), rfc4231[0].data), signature: good }), { valid: false }, 'another key');
  });
});

describe('refusals', () => {
  it('answers 422 invalid_encoding for a field that is not in its encoding', async () => {
    await rejectsWith(invoke(hmac, 'sign', { key: 'xyz', keyEncoding: 'hex', message: 'm' }), 422, 'invalid_encoding');
    await rejectsWith(invoke(hmac, 'sign', { key: 'abc', keyEncoding: 'hex', message: 'm' }), 422, 'invalid_encoding'); // odd length
    await rejectsWith(invoke(hmac, 'sign', { key: 'k', message: 'ab*d', messageEncoding: 'base64' }), 422, 'invalid_encoding');
    await rejectsWith(invoke(hmac, 'sign', { key: 'k', message: 'abcde', messageEncoding: 'base64' }), 422, 'invalid_encoding'); // 5 digits
    await rejectsWith(invoke(hmac, 'sign', { key: 'k', message: 'abcdef=', messageEncoding: 'base64' }), 422, 'invalid_encoding'); // bad padding
    await rejectsWith(invoke(hmac, 'verify', { key: 'k', message: 'm', signature: 'not hex' }), 422, 'invalid_encoding');
    await assert.rejects(invoke(hmac, 'sign', { key: 'xyz', keyEncoding: 'hex', message: 'm' }), { message: 'key is not hex: it needs an even number of the digits 0-9 and a-f' });
  });

  it('answers 400 for an unknown algorithm, an empty key or a missing field', async () => {
    await rejectsField(invoke(hmac, 'sign', { key: 'k', message: 'm', algorithm: 'md5' }), '/algorithm');
    await rejectsField(invoke(hmac, 'sign', { key: '', message: 'm' }), '/key');
    await rejectsField(invoke(hmac, 'verify', { key: 'k', message: 'm' }), '/signature');
  });
});

describe('the manifest', () => {
  it('answers each example as shown', async () => {
    for (const [name, operation] of Object.entries(hmac.operations)) {
      for (const example of operation.examples) assert.deepEqual(await invoke(hmac, name, example.body), example.response, `${name}: ${example.title}`);
    }
  });
});
