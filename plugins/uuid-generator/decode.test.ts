import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, rejectsWith, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import uuidGenerator from './index.js';
import type { Decoded } from './decode.js';

const decode = async (id: unknown): Promise<Decoded> => (await invoke(uuidGenerator, 'decode', { id })) as Decoded;
const refused = (id: string): Promise<void> => rejectsWith(decode(id), 422, 'invalid_id');

describe('uuid-generator.decode', () => {
  it('answers every manifest example exactly', async () => {
    for (const example of uuidGenerator.operations.decode!.examples) {
      assert.deepEqual(await invoke(uuidGenerator, 'decode', example.body), example.response);
    }
  });

  describe('RFC 9562 test vectors', () => {
    // A.1 and A.5 share the Gregorian time 0x1EC9414C232AB00 ticks of 100 ns since 1582-10-15:
    // (0x1EC9414C232AB00 − 0x01B21DD213814000) / 10^4 = 1645557742000 ms = 2022-02-22T19:22:22Z,
    // the RFC's "Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00". A.6 holds 0x017F22E279B0 ms,
    // the same instant.
    const vectors: [string, Decoded][] = [
      ['C232AB00-9414-11EC-B3C8-9F6BDECED846', { kind: 'uuid', normalized: 'c232ab00-9414-11ec-b3c8-9f6bdeced846', version: 1, variant: 'RFC 9562', timestamp: '2022-02-22T19:22:22.000Z' }],
      ['5df41881-3aed-3515-88a7-2f4a814cf09e', { kind: 'uuid', normalized: '5df41881-3aed-3515-88a7-2f4a814cf09e', version: 3, variant: 'RFC 9562' }],
      ['919108f7-52d1-4320-9bac-f847db4148a8', { kind: 'uuid', normalized: '919108f7-52d1-4320-9bac-f847db4148a8', version: 4, variant: 'RFC 9562' }],
      ['2ed6657d-e927-568b-95e1-2665a8aea6a2', { kind: 'uuid', normalized: '2ed6657d-e927-568b-95e1-2665a8aea6a2', version: 5, variant: 'RFC 9562' }],
      ['1EC9414C-232A-6B00-B3C8-9F6BDECED846', { kind: 'uuid', normalized: '1ec9414c-232a-6b00-b3c8-9f6bdeced846', version: 6, variant: 'RFC 9562', timestamp: '2022-02-22T19:22:22.000Z' }],
      ['017F22E2-79B0-7CC3-98C4-DC0C0C07398F', { kind: 'uuid', normalized: '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', version: 7, variant: 'RFC 9562', timestamp: '2022-02-22T19:22:22.000Z' }],
      // Appendix B: v8 layouts are vendor-specific, so no timestamp is read from them.
      ['2489E9AD-2EE2-8E00-8EC9-32D5F69181C0', { kind: 'uuid', normalized: '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0', version: 8, variant: 'RFC 9562' }],
      ['5c146b14-3c52-8afd-938a-375d0df1fbf6', { kind: 'uuid', normalized: '5c146b14-3c52-8afd-938a-375d0df1fbf6', version: 8, variant: 'RFC 9562' }],
    ];
    for (const [id, expected] of vectors) {
      it(`decodes ${id}`, async () => assert.deepEqual(await decode(id), expected));
    }
  });

  it('decodes nil as version 0 / NCS and max as version 15 / reserved (RFC 9562 tables 1 and 2)', async () => {
    assert.deepEqual(await decode('00000000-0000-0000-0000-000000000000'), {
      kind: 'uuid',
      normalized: '00000000-0000-0000-0000-000000000000',
      version: 0,
      variant: 'NCS',
    });
    assert.deepEqual(await decode('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), {
      kind: 'uuid',
      normalized: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
      version: 15,
      variant: 'reserved',
    });
  });

  it('accepts hyphens or none, braces, urn:uuid:, any case, all with the same answer', async () => {
    const expected = await decode('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
    for (const form of [
      '017F22E279B07CC398C4DC0C0C07398F',
      '{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}',
      '{017f22e279b07cc398c4dc0c0c07398f}',
      'urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
      'URN:UUID:017F22E279B07CC398C4DC0C0C07398F',
      '017f22E2-79b0-7Cc3-98c4-Dc0C0c07398F',
    ]) {
      assert.deepEqual(await decode(form), expected, form);
    }
  });

  it('reads the variant from the top bits of octet 8', async () => {
    const variantOf = async (octet8: string): Promise<string | undefined> => (await decode(`00000000-0000-4000-${octet8}00-000000000000`)).variant;
    assert.equal(await variantOf('7f'), 'NCS'); // 0111 1111
    assert.equal(await variantOf('80'), 'RFC 9562'); // 1000 0000
    assert.equal(await variantOf('bf'), 'RFC 9562'); // 1011 1111
    assert.equal(await variantOf('c0'), 'Microsoft'); // 1100 0000
    assert.equal(await variantOf('df'), 'Microsoft'); // 1101 1111
    assert.equal(await variantOf('e0'), 'reserved'); // 1110 0000
  });

  it('reads v1 times at the Gregorian epoch and before 1970, rounding sub-millisecond ticks down', async () => {
    // Tick 0 is 1582-10-15T00:00:00Z.
    assert.equal((await decode('00000000-0000-1000-8000-000000000000')).timestamp, '1582-10-15T00:00:00.000Z');
    // Ticks 0x01B21DD213813FFF = the Unix epoch minus 100 ns: time_low 13813fff, time_mid 1dd2, time_hi 1b2.
    assert.equal((await decode('13813fff-1dd2-11b2-8000-000000000000')).timestamp, '1969-12-31T23:59:59.999Z');
    // The same v1 layout outside the RFC 9562 variant has no timestamp.
    assert.equal((await decode('c232ab00-9414-11ec-c3c8-9f6bdeced846')).timestamp, undefined);
  });

  it('decodes a ULID in any case: upper-case, its time, no version or variant', async () => {
    // encodeTime(1469918176385) = "01ARYZ6S41" per the ulid package's README.
    assert.deepEqual(await decode('01ARYZ6S41TSV4RRFFQ69G5FAV'), {
      kind: 'ulid',
      normalized: '01ARYZ6S41TSV4RRFFQ69G5FAV',
      timestamp: '2016-07-30T22:36:16.385Z',
    });
    // The largest 48-bit time, 2^48 − 1 ms = 281474976710655 ms, lies in the year 10889.
    assert.deepEqual(await decode('7zzzzzzzzzzzzzzzzzzzzzzzzz'), {
      kind: 'ulid',
      normalized: '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
      timestamp: '+010889-08-02T05:31:50.655Z',
    });
    assert.equal((await decode('00000000000000000000000000')).timestamp, '1970-01-01T00:00:00.000Z');
  });

  it('refuses with 422 invalid_id: bad characters, lengths, mixed forms, 48-bit overflow', async () => {
    for (const id of [
      '',
      '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', // 2^48 · 8 > 48 bits
      'ZZZZZZZZZZZZZZZZZZZZZZZZZZ',
      '01ARYZ6S41TSV4RRFFQ69G5FAU', // U is not Crockford Base32
      '01ARYZ6S41TSV4RRFFQ69G5FAI',
      '01ARYZ6S41TSV4RRFFQ69G5FA', // 25 characters
      '017f22e2-79b0-7cc3-98c4-dc0c0c07398', // 35 characters
      '017f22e2-79b0-7cc3-98c4-dc0c0c07398f0',
      '017f22e279b0-7cc3-98c4-dc0c0c07398f', // hyphens neither all nor none
      '017f22e2-79b0-7cc3-98c4dc0c0c07398f',
      '017g22e2-79b0-7cc3-98c4-dc0c0c07398f', // g is not hex
      '{urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f}', // one wrapper at most
      '{017f22e2-79b0-7cc3-98c4-dc0c0c07398f',
      'urn:uuid:{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}',
      ' 017f22e2-79b0-7cc3-98c4-dc0c0c07398f', // no whitespace trimming
      '017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n',
      '+17f22e2-79b0-7cc3-98c4-dc0c0c07398f',
    ]) {
      await refused(id);
    }
  });

  it('refuses a 10 MB id at once without quoting it', async () => {
    const started = performance.now();
    await assert.rejects(decode('a'.repeat(10_000_000)), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'invalid_id');
      assert.ok(error.message.length < 200);
      return true;
    });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('requires id as a string', async () => {
    await rejectsField(invoke(uuidGenerator, 'decode', {}), '/id');
    await rejectsField(decode(42), '/id');
  });
});
