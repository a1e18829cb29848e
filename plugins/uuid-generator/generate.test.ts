import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invoke, rejectsField, HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import uuidGenerator from './index.js';
import { generateV7 } from './generate.js';

interface Ids {
  ids: string[];
}

// 2024-03-15T12:00:00.000Z = 1710504000000 ms = 0x018e41fbba00; in Crockford Base32 (10 digits,
// worked out digit by digit with divmod 32): 01HS0ZQEG0.
const NOW = new Date('2024-03-15T12:00:00.000Z');
const clock = { now: () => NOW };
const generate = async (body: Record<string, unknown>): Promise<string[]> =>
  ((await invoke(uuidGenerator, 'generate', body, clock)) as Ids).ids;

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ULID_LOWER = /^[0-9a-hjkmnp-tv-z]{26}$/;

function strictlyIncreasing(ids: readonly string[]): boolean {
  return ids.every((id, index) => index === 0 || ids[index - 1]! < id);
}

describe('uuid-generator.generate', () => {
  it('answers every manifest example with ids of the example shape', async () => {
    for (const example of uuidGenerator.operations.generate!.examples) {
      const ids = await generate(example.body);
      const shown = (example.response as Ids).ids;
      assert.equal(ids.length, shown.length);
      // Same length and the same characters in the fixed positions (hyphens, braces, version digit).
      ids.forEach((id, index) => assert.equal(id.replace(/[0-9a-zA-Z]/g, 'x'), shown[index]!.replace(/[0-9a-zA-Z]/g, 'x')));
    }
  });

  it('defaults to one lowercase hyphenated v4 UUID', async () => {
    const ids = await generate({});
    assert.equal(ids.length, 1);
    assert.match(ids[0]!, V4);
  });

  it('formats v4: uppercase, no hyphens, braces', async () => {
    const [id] = await generate({ uppercase: true, hyphens: false, braces: true });
    assert.match(id!, /^\{[0-9A-F]{12}4[0-9A-F]{3}[89AB][0-9A-F]{15}\}$/);
  });

  it('gives 1000 distinct v4 UUIDs without hanging', async () => {
    const started = performance.now();
    const ids = await generate({ count: 1000 });
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    assert.equal(new Set(ids).size, 1000);
    assert.ok(ids.every((id) => V4.test(id)));
  });

  it('gives 1000 strictly increasing v7 UUIDs carrying the clock, version 7 and variant 10', async () => {
    const ids = await generate({ type: 'v7', count: 1000 });
    assert.equal(ids.length, 1000);
    assert.ok(strictlyIncreasing(ids));
    for (const id of ids) assert.match(id, /^018e41fb-ba00-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('formats v7 like v4 (uppercase, hyphens, braces)', async () => {
    const [id] = await generate({ type: 'v7', uppercase: true, hyphens: false });
    assert.match(id!, /^018E41FBBA007[0-9A-F]{3}[89AB][0-9A-F]{15}$/);
    const [braced] = await generate({ type: 'v7', braces: true });
    assert.match(braced!, /^\{018e41fb-ba00-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\}$/);
  });

  it('gives 1000 strictly increasing ULIDs of the clock, lowercase unless uppercase, ignoring hyphens and braces', async () => {
    const ids = await generate({ type: 'ulid', count: 1000, hyphens: false, braces: true });
    assert.equal(ids.length, 1000);
    assert.ok(strictlyIncreasing(ids));
    for (const id of ids) {
      assert.match(id, ULID_LOWER);
      assert.ok(id.startsWith('01hs0zqeg0'));
    }
    const [upper] = await generate({ type: 'ulid', uppercase: true, braces: true });
    assert.match(upper!, /^01HS0ZQEG0[0-9A-HJKMNP-TV-Z]{16}$/);
  });

  it('refuses counts outside 1–1000 and unknown types with 400 on the field', async () => {
    await rejectsField(generate({ count: 0 }), '/count');
    await rejectsField(generate({ count: 1001 }), '/count');
    await rejectsField(generate({ count: 1.5 }), '/count');
    await rejectsField(generate({ type: 'v1' }), '/type');
    await rejectsField(generate({ uppercase: 'yes' }), '/uppercase');
    await rejectsField(generate({ version: 4 }), '/version');
  });
});

describe('generateV7 (RFC 9562 §6.2 method 1, 12-bit counter in rand_a)', () => {
  // The RFC's A.6 time, 0x017F22E279B0 ms.
  const RFC_MS = 0x017f22e279b0;
  const zeros = (size: number): Uint8Array => new Uint8Array(size);
  const ones = (size: number): Uint8Array => new Uint8Array(size).fill(0xff);

  it('lays out time, version, counter, variant and random bits exactly', () => {
    // Zero randomness: counter seed 0, rand_b 0; the counter then counts 0, 1, 2.
    assert.deepEqual(generateV7(RFC_MS, 3, zeros), [
      '017f22e2-79b0-7000-8000-000000000000',
      '017f22e2-79b0-7001-8000-000000000000',
      '017f22e2-79b0-7002-8000-000000000000',
    ]);
    // All-ones randomness: the seed keeps its top bit clear (0x7ff), octet 8 keeps variant 10 (0xbf).
    assert.deepEqual(generateV7(RFC_MS, 2, ones), ['017f22e2-79b0-77ff-bfff-ffffffffffff', '017f22e2-79b0-7800-bfff-ffffffffffff']);
  });

  it('on counter rollover moves the time one millisecond ahead and reseeds, staying increasing', () => {
    // Seed 0x7ff; id n has counter 0x7ff + n, so id 2048 holds 0xfff and id 2049 rolls over.
    const ids = generateV7(RFC_MS, 2050, ones);
    assert.equal(ids[2048], '017f22e2-79b0-7fff-bfff-ffffffffffff');
    assert.equal(ids[2049], '017f22e2-79b1-77ff-bfff-ffffffffffff');
    assert.ok(strictlyIncreasing(ids));
  });

  it('encodes the largest 48-bit time and refuses a clock beyond it', () => {
    assert.deepEqual(generateV7(2 ** 48 - 1, 1, zeros), ['ffffffff-ffff-7000-8000-000000000000']);
    assert.throws(() => generateV7(2 ** 48, 1, zeros));
    assert.throws(() => generateV7(-1, 1, zeros));
  });
});
