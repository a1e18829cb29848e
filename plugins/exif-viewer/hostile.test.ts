import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { HANG_GUARD_MS } from '@toolshed/plugin-sdk/testing';
import { MAX_ENTRIES, MAX_TEXT_CHARS } from './image-file.js';
import { inflateCapped, MAX_INFLATED } from './png-text.js';
import { deflateBomb, fixture, png, read, strip, TINY_IDAT, TINY_IHDR } from './test-helpers.js';
import { WORKER_THRESHOLD } from './index.js';

const MiB = 1024 * 1024;
const cut = `${'a'.repeat(MAX_TEXT_CHARS - 1)}…`;

/** Runs `work` and returns how much the resident set grew, in MiB. */
async function rssGrowth(work: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage().rss;
  await work();
  return (process.memoryUsage().rss - before) / MiB;
}

describe('exif-viewer on hostile files', () => {
  it('never inflates a compressed chunk past its cap (256 MiB zTXt, iTXt and iCCP bombs: RSS stays flat)', async () => {
    const bomb = deflateBomb(256); // 265 KB that inflate to 256 MiB of "a"
    assert.ok(bomb.length < 300_000);
    const file = png([
      TINY_IHDR,
      ['iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), bomb])],
      ['zTXt', Buffer.concat([Buffer.from('bomb\0\0', 'latin1'), bomb])],
      ['iTXt', Buffer.concat([Buffer.from('ibomb\0\x01\0\0\0', 'latin1'), bomb])],
      TINY_IDAT,
    ]);
    let answer: Awaited<ReturnType<typeof read>> | undefined;
    // Three uncapped inflations would take 768 MiB; exifr alone took 517 MB for a 261 KB file.
    const growth = await rssGrowth(async () => {
      answer = await read(file);
      await strip(file);
    });
    assert.ok(growth < 100, `RSS grew by ${growth.toFixed(0)} MiB`);
    assert.deepEqual(answer?.texts, [
      { key: 'bomb', value: cut },
      { key: 'ibomb', value: cut },
    ]);
    assert.deepEqual(answer?.other, ['ICC profile']);
    const inflated = inflateCapped(bomb)?.length ?? 0;
    assert.ok(inflated <= MAX_INFLATED && inflated >= MAX_TEXT_CHARS, `inflated ${inflated} bytes`);
  });

  it('hands exifr no oversized entries: 10,000 entries claiming 2,000,000 bytes each in IFD0 and IFD1', async () => {
    // Big-endian TIFF: IFD0 with 5000 BYTE entries (tags 0x1000…) of count 2,000,000 at offset 8,
    // then IFD1 with the same; 2.1 MB of data behind them, so every claim is in range.
    const entries = 5000;
    const tiff = Buffer.alloc(2_100_000);
    tiff.write('MM\0*', 0, 'latin1');
    tiff.writeUInt32BE(8, 4);
    const ifd1 = 8 + 2 + entries * 12 + 4;
    for (const [at, next] of [[8, ifd1], [ifd1, 0]] as const) {
      tiff.writeUInt16BE(entries, at);
      for (let index = 0; index < entries; index++) {
        const entry = at + 2 + index * 12;
        tiff.writeUInt16BE(0x1000 + index, entry);
        tiff.writeUInt16BE(1, entry + 2);
        tiff.writeUInt32BE(2_000_000, entry + 4);
        tiff.writeUInt32BE(8, entry + 8);
      }
      tiff.writeUInt32BE(next, at + 2 + entries * 12);
    }
    let answer: Awaited<ReturnType<typeof read>> | undefined;
    const growth = await rssGrowth(async () => {
      answer = await read(png([TINY_IHDR, ['eXIf', tiff], TINY_IDAT]));
    });
    assert.ok(growth < 100, `RSS grew by ${growth.toFixed(0)} MiB`);
    assert.equal(answer?.otherTags, entries); // IFD0's; IFD1 describes a thumbnail and is not counted
    assert.equal(answer?.hasMetadata, true);
  });

  it('walks an IFD0 that holds every tag id 1…65535 in linear time', async () => {
    const entries = 65535;
    const tiff = Buffer.alloc(8 + 2 + entries * 12 + 4);
    tiff.write('MM\0*', 0, 'latin1');
    tiff.writeUInt32BE(8, 4);
    tiff.writeUInt16BE(entries, 8);
    for (let index = 0; index < entries; index++) {
      const entry = 10 + index * 12;
      tiff.writeUInt16BE(index + 1, entry); // tag
      tiff.writeUInt16BE(3, entry + 2); // SHORT
      tiff.writeUInt32BE(1, entry + 4); // one value, inline: 0
    }
    const started = performance.now();
    const answer = await read(png([TINY_IHDR, ['eXIf', tiff], TINY_IDAT]));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
    // Every entry is either shown or counted, except the three IFD pointers (0x8769, 0x8825, 0xA005).
    const shown = answer.tags.length - 2; // ImageWidth and ImageHeight come from IHDR
    assert.ok(shown > 0);
    assert.equal(answer.otherTags, entries - 3 - shown);
  });

  it('inflates only the first texts of 100,000 zTXt chunks and answers in time', async () => {
    const small = Buffer.concat([Buffer.from('k\0\0', 'latin1'), deflateSync('hello')]);
    const file = png([TINY_IHDR, ...Array.from({ length: 100_000 }, (): [string, Uint8Array] => ['zTXt', small]), TINY_IDAT]);
    assert.ok(file.length * (4 / 3) > WORKER_THRESHOLD); // goes through the worker pool
    const started = performance.now();
    const answer = await read(file);
    assert.equal(answer.texts.length, MAX_ENTRIES);
    assert.deepEqual(answer.texts[0], { key: 'k', value: 'hello' });
    assert.deepEqual((await strip(file)).data, png([TINY_IHDR, TINY_IDAT]));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('strips a 7.5 MB PNG in the worker pool with every IDAT byte kept', async () => {
    const idats = Array.from({ length: 120 }, (_, index): [string, Uint8Array] => ['IDAT', Buffer.alloc(64 * 1024, index)]);
    const file = png([TINY_IHDR, ['tEXt', Buffer.from('Comment\0big', 'latin1')], ...idats]);
    assert.ok(file.length > 7.5 * 1e6);
    const started = performance.now();
    const answer = await strip(file);
    assert.deepEqual(answer.data, png([TINY_IHDR, ...idats]));
    assert.equal(answer.bytesBefore - answer.bytesAfter, 12 + 'Comment\0big'.length);
    assert.deepEqual((await read(file)).texts, [{ key: 'Comment', value: 'big' }]);
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it('copes with 200,000 tiny JPEG segments: kept ones copied, dropped ones named at most 64 times', async () => {
    const original = fixture('orient6.jpg');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const restartInterval = Buffer.from([0xff, 0xdd, 0x00, 0x04, 0x00, 0x00]); // DRI 0: kept
    const segments: Buffer[] = [];
    for (let index = 0; index < 100_000; index++) {
      const id = [index % 62, Math.floor(index / 62) % 62, Math.floor(index / 3844) % 62].map((digit) => alphabet[digit]).join('');
      segments.push(Buffer.concat([Buffer.from([0xff, 0xe3, 0x00, 0x05]), Buffer.from(id, 'latin1')]), restartInterval);
    }
    // After orient6.jpg's SOI and APP1 (bytes 0–37), which strip writes back the same.
    const file = Buffer.concat([original.subarray(0, 38), ...segments, original.subarray(38)]);
    const started = performance.now();
    const answer = await read(file);
    assert.equal(answer.other.length, MAX_ENTRIES);
    assert.equal(answer.other[0], 'APP3 AAA');
    const { data } = await strip(file);
    assert.deepEqual(data, Buffer.concat([original.subarray(0, 38), ...Array<Buffer>(100_000).fill(restartInterval), original.subarray(38)]));
    assert.ok(performance.now() - started < HANG_GUARD_MS);
  });

  it(`lists at most ${MAX_ENTRIES} JPEG comments, each cut at ${MAX_TEXT_CHARS} characters`, async () => {
    const original = fixture('orient6.jpg');
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x0f, 0xa2]), Buffer.alloc(4000, 'a')]); // length 4002
    const file = Buffer.concat([original.subarray(0, 2), ...Array<Buffer>(MAX_ENTRIES + 6).fill(comment), original.subarray(2)]);
    const answer = await read(file);
    assert.equal(answer.comments.length, MAX_ENTRIES);
    assert.equal(answer.comments[0], cut);
    assert.deepEqual((await strip(file)).data, original);
  });
});
