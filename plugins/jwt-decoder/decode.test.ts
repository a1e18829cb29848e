import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANG_GUARD_MS, invoke, rejectsField, rejectsWith } from '@toolshed/plugin-sdk/testing';
import jwtDecoder from './index.js';
import { tokenStatus, tokenTimes } from './decode.js';

const b64 = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const makeToken = (payload: unknown, header: unknown = { alg: 'HS256', typ: 'JWT' }): string => `${b64(header)}.${b64(payload)}.c2ln`;
const NOW = new Date('2025-01-01T00:00:00Z'); // 1735689600 s
const NOW_S = 1735689600;

interface Decoded {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  status: string | null;
  times: Record<string, string>;
}
const decode = async (token: string, now: Date = NOW): Promise<Decoded> => (await invoke(jwtDecoder, 'decode', { token }, { now: () => now })) as Decoded;

describe('jwt-decoder.decode', () => {
  it('answers every exact manifest example', async () => {
    for (const name of ['decode', 'verify'] as const) {
      for (const example of jwtDecoder.operations[name]!.examples) {
        // The inexact ones carry an exp of 2011: with any clock after that they are exact too.
        assert.deepEqual(await invoke(jwtDecoder, name, example.body), example.response, example.title);
      }
    }
  });

  it('ignores a leading "Bearer " (any case, any spaces) and surrounding whitespace', async () => {
    const token = makeToken({ sub: 'a' });
    const plain = await decode(token);
    assert.deepEqual(await decode(`Bearer ${token}`), plain);
    assert.deepEqual(await decode(`  bearer   ${token}\n`), plain);
    assert.deepEqual(plain, { header: { alg: 'HS256', typ: 'JWT' }, payload: { sub: 'a' }, status: null, times: {} });
  });

  it('derives status from exp and nbf, expired on or after exp (RFC 7519 §4.1.4), valid from nbf on (§4.1.5)', () => {
    assert.equal(tokenStatus({ exp: NOW_S }, NOW), 'expired');
    assert.equal(tokenStatus({ exp: NOW_S + 1 }, NOW), 'valid');
    assert.equal(tokenStatus({ exp: NOW_S + 0.001 }, NOW), 'valid');
    assert.equal(tokenStatus({ nbf: NOW_S }, NOW), 'valid');
    assert.equal(tokenStatus({ nbf: NOW_S + 1 }, NOW), 'not-yet-valid');
    assert.equal(tokenStatus({ nbf: NOW_S - 10, exp: NOW_S + 10 }, NOW), 'valid');
    // exp before nbf can never be valid: expired wins.
    assert.equal(tokenStatus({ nbf: NOW_S + 10, exp: NOW_S - 10 }, NOW), 'expired');
    assert.equal(tokenStatus({ iat: NOW_S }, NOW), null);
    // Claims that are not numbers count as absent.
    assert.equal(tokenStatus({ exp: String(NOW_S - 10) }, NOW), null);
    assert.equal(tokenStatus({ exp: null, nbf: NOW_S + 1 }, NOW), 'not-yet-valid');
  });

  it('uses the request clock (context.now), not the real one', async () => {
    const token = makeToken({ exp: 2000000000 }); // 2033-05-18T03:33:20Z
    assert.equal((await decode(token, new Date('2033-05-18T03:33:19Z'))).status, 'valid');
    assert.equal((await decode(token, new Date('2033-05-18T03:33:20Z'))).status, 'expired');
  });

  it('gives exp, nbf, iat and auth_time as ISO 8601 when numeric and within Date range', () => {
    // 1516239022 is the jwt.io sample's iat: 2018-01-18T01:30:22Z; 0 is the epoch; 1.5 s keeps its milliseconds.
    assert.deepEqual(tokenTimes({ exp: 1516239022, nbf: 0, iat: 1.5, auth_time: -86400, sub: 5 }), {
      exp: '2018-01-18T01:30:22.000Z',
      nbf: '1970-01-01T00:00:00.000Z',
      iat: '1970-01-01T00:00:01.500Z',
      auth_time: '1969-12-31T00:00:00.000Z',
    });
    // 8.64e12 s is the last second Date can show; one more is out of range and left out, as are strings and booleans.
    assert.deepEqual(tokenTimes({ exp: 8.64e12, nbf: 8.64e12 + 1, iat: '1516239022', auth_time: true }), { exp: '+275760-09-13T00:00:00.000Z' });
    assert.deepEqual(tokenTimes({ exp: 1e308 }), {});
  });

  it('keeps unusual claims as they are: __proto__, nested objects, unicode', async () => {
    const payload = JSON.parse('{"__proto__":{"admin":true},"nested":{"a":[1,2]},"name":"Zoë 😀"}') as Record<string, unknown>;
    const decoded = await decode(makeToken(payload));
    assert.deepEqual(Object.keys(decoded.payload), ['__proto__', 'nested', 'name']);
    assert.equal(JSON.stringify(decoded.payload), '{"__proto__":{"admin":true},"nested":{"a":[1,2]},"name":"Zoë 😀"}');
  });

  it('refuses anything but three base64url parts with JSON-object header and payload: 422 invalid_token', async () => {
    const header = b64({ alg: 'HS256' });
    const bad = [
      'abc',
      `${header}.${b64({})}`,
      `${header}.${b64({})}.sig.extra`,
      `${header}.${b64({})}.a.b.c.d`,
      `${header}.${b64({})}=.sig`, // padding is not base64url (RFC 7515 §2)
      `${header}.e30+.sig`,
      `${header}.${b64({})}.si/g`,
      `${header}.${b64('[1,2]')}.sig`,
      `${header}.${b64('null')}.sig`,
      `${header}.${b64('"claims"')}.sig`,
      `${header}.${b64('{"a":')}.sig`,
      `${b64('not json')}.${b64({})}.sig`,
      `${header}.${Buffer.from([0xff, 0xfe, 0x7b, 0x7d]).toString('base64url')}.sig`, // not UTF-8
      `${header}.A.sig`, // one base64url character cannot encode a byte
      `.${b64({})}.sig`,
    ];
    for (const token of bad) await rejectsWith(invoke(jwtDecoder, 'decode', { token }), 422, 'invalid_token');
  });

  it('recognises a JWE (five parts) and says so', async () => {
    const jwe = 'eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d';
    await assert.rejects(invoke(jwtDecoder, 'decode', { token: jwe }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_token');
      assert.match(error.message, /encrypted JWT \(JWE, 5 parts\)/);
      return true;
    });
  });

  it('refuses an empty token and one over 100,000 characters with 400', async () => {
    await rejectsField(invoke(jwtDecoder, 'decode', { token: '' }), '/token');
    await rejectsField(invoke(jwtDecoder, 'decode', { token: 'a'.repeat(100_001) }), '/token');
    await rejectsField(invoke(jwtDecoder, 'decode', { token: 'a.b.c', extra: 1 }), '/extra');
  });

  it('survives hostile tokens: 50,000-deep nesting, 100,000 dots, 100,000 characters of claims', async () => {
    const started = performance.now();
    const deep = makeToken(`{"a":${'['.repeat(37_000)}${']'.repeat(37_000)}}`);
    assert.ok(deep.length <= 100_000);
    await assert.rejects(invoke(jwtDecoder, 'decode', { token: deep }), (error: { code: string; message: string }) => {
      assert.equal(error.code, 'invalid_token');
      assert.match(error.message, /nested deeper than 64 levels/);
      return true;
    });
    // 64 levels is fine: {"a": + 63 arrays.
    const fine = await decode(makeToken(`{"a":${'['.repeat(63)}${']'.repeat(63)}}`));
    assert.equal(JSON.stringify(fine.payload).length, 6 + 126);
    await rejectsWith(invoke(jwtDecoder, 'decode', { token: '.'.repeat(100_000) }), 422, 'invalid_token');
    const big = await decode(makeToken({ data: 'x'.repeat(74_000) }));
    assert.equal((big.payload.data as string).length, 74_000);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });
});
