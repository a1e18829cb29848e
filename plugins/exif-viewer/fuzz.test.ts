import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isToolshedError } from '@toolshed/plugin-sdk';
import { HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { crc32 } from './png.js';
import { fixture, read, strip } from './test-helpers.js';

/** Mutations per fixture; seven fixtures make 3,500 files, each read, stripped and read again. */
const ROUNDS = 500;
const ALLOWED = new Set(['invalid_image', 'unsupported_format']);

/** mulberry32: a small seeded PRNG, so every run mutates the same way. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Offsets and widths of the length fields of a file, found by a walk independent of the plugin. */
function lengthFields(file: Buffer): { at: number; width: 2 | 4; little: boolean }[] {
  const fields: { at: number; width: 2 | 4; little: boolean }[] = [];
  if (file[0] === 0xff) {
    for (let at = 2; at + 4 <= file.length && file[at] === 0xff && file[at + 1] !== 0xda; at += 2 + file.readUInt16BE(at + 2)) {
      fields.push({ at: at + 2, width: 2, little: false });
    }
  } else if (file[0] === 0x89) {
    for (let at = 8; at + 8 <= file.length; at += 12 + file.readUInt32BE(at)) fields.push({ at, width: 4, little: false });
  } else {
    fields.push({ at: 4, width: 4, little: true });
    for (let at = 12; at + 8 <= file.length; at += 8 + file.readUInt32LE(at + 4) + (file.readUInt32LE(at + 4) & 1)) {
      fields.push({ at: at + 4, width: 4, little: true });
    }
  }
  return fields;
}

/** Rewrites the CRC of every PNG chunk that still fits, so a flip reaches the chunk parsers. */
function fixPngCrcs(file: Buffer): void {
  for (let at = 8; at + 12 <= file.length; ) {
    const end = at + 12 + file.readUInt32BE(at);
    if (end > file.length) return;
    file.writeUInt32BE(crc32(file.subarray(at + 4, end - 4)), end - 4);
    at = end;
  }
}

function mutate(original: Buffer, random: () => number): Buffer {
  const pick = (n: number) => Math.floor(random() * n);
  const kind = pick(4);
  if (kind === 0) return original.subarray(0, 1 + pick(original.length - 1)); // truncation
  const file = Buffer.from(original);
  if (kind === 1 || kind === 2) {
    for (let flips = 1 + pick(4); flips > 0; flips--) file[pick(file.length)] = random() < 0.5 ? pick(256) : (file[pick(file.length)] as number) ^ (1 << pick(8));
    if (kind === 2 && file[0] === 0x89) fixPngCrcs(file);
    return file;
  }
  const fields = lengthFields(original);
  const field = fields[pick(fields.length)];
  if (field === undefined) return file;
  const current = field.width === 2 ? file.readUInt16BE(field.at) : field.little ? file.readUInt32LE(field.at) : file.readUInt32BE(field.at);
  const max = field.width === 2 ? 0xffff : 0xffffffff;
  const choices = [0, 1, 2, current - 1, current + 1, current + 2, max, Math.floor(max / 2), pick(file.length * 2)];
  const value = Math.min(max, Math.max(0, choices[pick(choices.length)] as number));
  if (field.width === 2) file.writeUInt16BE(value, field.at);
  else if (field.little) file.writeUInt32LE(value, field.at);
  else file.writeUInt32BE(value, field.at);
  if (file[0] === 0x89) fixPngCrcs(file);
  return file;
}

/** The answer, or the 422 code; anything else (a 500) fails the test. */
async function outcome<T>(promise: Promise<T>): Promise<T | string> {
  try {
    return await promise;
  } catch (error) {
    if (isToolshedError(error) && error.status === 422 && ALLOWED.has(error.code)) return error.code;
    throw error;
  }
}

describe('exif-viewer fuzz', () => {
  for (const [index, name] of ['camera.jpg', 'texts.png', 'meta.webp', 'orient6.jpg', 'orient8.png', 'orient6.webp', 'example.png'].entries()) {
    it(`answers ${ROUNDS} mutations of ${name} with 200 or a documented 422, and strips them clean`, async () => {
      const random = prng(0x5eed + index);
      const original = fixture(name);
      const counts = { read: 0, refused: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const file = mutate(original, random);
        const started = performance.now();
        const answer = await outcome(read(file));
        const stripped = await outcome(strip(file));
        // Both operations walk the file the same way: they accept and refuse the same files.
        assert.equal(typeof answer === 'string', typeof stripped === 'string', `round ${round}`);
        if (typeof stripped !== 'string') {
          counts.read++;
          const again = await read(stripped.data);
          assert.equal(again.hasMetadata, false, `round ${round}: ${JSON.stringify(again)}`);
          assert.equal(again.format, stripped.format);
        } else counts.refused++;
        assert.ok(performance.now() - started < HANG_GUARD_MS, `round ${round} hung`);
      }
      // The mutations reach the parsers: some files survive them, some are refused.
      assert.ok(counts.read > 0 && counts.refused > 0, JSON.stringify(counts));
    });
  }
});
